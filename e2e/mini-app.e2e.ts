/**
 * Issue 36 in Chromium at 390×844: the Telegram Mini App at /tg, opened as Telegram opens it (the
 * launch data in `#tgWebAppData=…`, signed here for the server's bot; a stand-in
 * `window.Telegram.WebApp` recording the main and back buttons and answering `requestWriteAccess`),
 * signs in, takes Telegram's theme, shows the artist's track with its place in the queue and the
 * date the direction's pace reaches it, lets the bot write when asked, uploads a new track from the
 * phone's files through the main button and shows it processing, then processed.
 *
 * On a server of its own whose storage reads are slowed (server/testing/slow-processing-server.ts),
 * so a new track stays «processing» long enough to be seen, and whose queue this test alone fills:
 * another artist's two tracks in Подкаст Костёр, one of them decided (the direction's pace: one
 * decision in 30 days), and the Mini App artist's own.
 */
import { startTelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { signWebAppInitData, TEST_BOT_TOKEN } from "../server/testing/telegram.ts";
import { expect, test, type TestContext } from "./harness.ts";
import { acceptOnDesk, apiAs, FIXTURES, newUser, runArtist, tokensOf, uploadAs, waitCompleted } from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const DIRECTION = "podcast_koster";
const THEME = {
  bg_color: "#17212b",
  secondary_bg_color: "#232e3c",
  text_color: "#f5f5f5",
  hint_color: "#708499",
  button_color: "#5288c1",
  button_text_color: "#ffffff",
  link_color: "#6ab3f3",
};

/** What the stand-in WebApp recorded (window.__tg). */
interface TgRecord {
  main: { text: string; visible: boolean };
  back: boolean;
  ready: boolean;
  writeAsked: number;
}

/** A stand-in for Telegram's `window.Telegram.WebApp`: records, and lets the test press its buttons. */
function fakeWebApp() {
  const rec = { main: { text: "", visible: false }, back: false, ready: false, writeAsked: 0 };
  const handlers = { main: [] as Array<() => void>, back: [] as Array<() => void> };
  const button = (kind: "main" | "back") => ({
    show() {
      if (kind === "main") rec.main.visible = true;
      else rec.back = true;
    },
    hide() {
      if (kind === "main") rec.main.visible = false;
      else rec.back = false;
    },
    setText(text: string) {
      rec.main.text = text;
    },
    onClick(cb: () => void) {
      handlers[kind].push(cb);
    },
    offClick(cb: () => void) {
      handlers[kind] = handlers[kind].filter((h) => h !== cb);
    },
  });
  const w = globalThis as unknown as Record<string, unknown>;
  w.__tg = rec;
  w.__tgPress = (kind: "main" | "back") => handlers[kind].forEach((h) => h());
  w.Telegram = {
    WebApp: {
      initData: "",
      themeParams: {},
      ready: () => (rec.ready = true),
      expand: () => {},
      MainButton: button("main"),
      BackButton: button("back"),
      requestWriteAccess: (cb: (granted: boolean) => void) => {
        rec.writeAsked++;
        setTimeout(() => cb(true), 0);
      },
    },
  };
}

test(
  "mini app: opened with Telegram's launch data it signs in, shows the track's place and date, uploads through the main button and shows the track processing",
  async (t) => {
    const bot = await startTelegramBotDouble({ token: TEST_BOT_TOKEN });
    try {
      const server = await t.startServer(
        {
          TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
          TELEGRAM_BOT_API_URL: bot.url,
          DECISION_NOTIFY_HOLD_S: "0",
          TEST_SLOW_READ_BYTES_PER_S: "40000",
        },
        { entry: "server/testing/slow-processing-server.ts" },
      );
      const s: TestContext = { ...t, server };
      const admin = await tokensOf(s, "admin");

      // The queue of Подкаст Костёр: another artist's two tracks, one decided (the pace).
      const other = await newUser(s, "Queue");
      const theirs = await uploadAs(s, other.access, [
        { name: `${runArtist("Early")} - First In Line.mp3`, source: "VBR Artist - Variable.mp3" },
        { name: `${runArtist("Done")} - Already Heard.mp3`, source: "Free Artist - Free Format.mp3" },
      ], DIRECTION);
      await waitCompleted(s, admin.access, theirs.map((u) => u.id));
      await acceptOnDesk(s, admin.access, theirs[1].id, DIRECTION, "Берём");

      // The Telegram user's launch data, signed for the server's bot; the bot may not write to them yet.
      const tgId = 500_000_000 + Math.floor(Math.random() * 1_000_000);
      const initData = await signWebAppInitData(
        { id: tgId, first_name: "Мини", username: runArtist("mini"), allows_write_to_pm: false },
        { authDate: Math.floor(Date.now() / 1000) },
      );
      // Their first track, sent earlier (from the site): the account is the Mini App's.
      const first = await fetch(`${server.baseUrl}/api/auth/telegram/webapp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ init_data: initData }),
      });
      expect(first.status).toBe(200);
      const artist = await first.json();
      const mine = await uploadAs(s, artist.access_token, [
        { name: `${runArtist("Mini")} - Queue Place.mp3`, source: "VBR Artist - Variable.mp3" },
      ], DIRECTION);
      await waitCompleted(s, admin.access, [mine[0].id]);
      const listed = await apiAs(s, artist.access_token, "/tracks");
      const pair = listed.body.tracks[0].decisions[0];
      expect(pair).toMatchObject({ direction: DIRECTION, queue_position: 2, queue_length: 2, heard_by: 0 });
      // One decision in 30 days: the second place is reached in 60 days.
      const days = (Date.parse(pair.expected_by) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(59.9);
      expect(days).toBeLessThanOrEqual(60);

      // Telegram opens the Mini App with the launch data and the theme in the address.
      const page = await t.page(PHONE);
      await page.addInitScript(fakeWebApp);
      const hash = new URLSearchParams({
        tgWebAppData: initData,
        tgWebAppVersion: "8.0",
        tgWebAppPlatform: "ios",
        tgWebAppThemeParams: JSON.stringify(THEME),
      });
      const signedIn = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/telegram/webapp");
      await page.goto(`${server.baseUrl}/tg#${hash}`);
      expect((await signedIn).status()).toBe(200);
      const row = page.getByTestId("my-track").filter({ hasText: "Queue Place" });
      const queue = row.getByTestId("my-track-queue");
      await queue.waitFor();
      const expectedDay = await page.evaluate(
        (iso) => new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit" }).format(new Date(iso)),
        pair.expected_by,
      );
      const promisedDay = await page.evaluate(
        (iso) => new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit" }).format(new Date(iso)),
        pair.respond_by,
      );
      expect(await queue.textContent()).toBe(
        `№2 из 2 в очереди Подкаст Костёр · ответ ожидается около ${expectedDay} (обещали до ${promisedDay})`,
      );
      // The launch data left the address; Telegram's colours are the page's; Telegram was told it is ready.
      expect(new URL(page.url()).hash).toBe("");
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(23, 33, 43)");
      const rec = () => page.evaluate(() => (globalThis as unknown as { __tg: TgRecord }).__tg);
      expect(await rec()).toMatchObject({ ready: true, main: { text: "Отправить трек", visible: true }, back: false });
      // No site header in Telegram's web view.
      expect(await page.locator("header.site-header").count()).toBe(0);
      await t.screenshot(page, "mini-app-tracks-390");

      // The bot may not write yet: the Mini App asks, Telegram answers yes, the account remembers it.
      const offer = page.getByTestId("mini-app-write-access");
      const stored = page.waitForResponse((r) =>
        new URL(r.url()).pathname === "/api/auth/telegram/webapp/write-access"
      );
      await offer.getByRole("button", { name: "Разрешить сообщения" }).click();
      expect((await stored).status()).toBe(200);
      await offer.waitFor({ state: "detached" });
      expect((await rec()).writeAsked).toBe(1);

      // Telegram's main button opens the upload; the back button is shown there.
      await page.evaluate(() => (globalThis as unknown as { __tgPress(k: string): void }).__tgPress("main"));
      await page.getByRole("tab", { name: "Отправить трек", selected: true }).waitFor();
      // Telegram's buttons follow the tab in an effect after the render that shows it: read once they
      // have changed (the back button shown), not at the first sight of the tab (decision 0465).
      await page.waitForFunction(() => (globalThis as unknown as { __tg: TgRecord }).__tg.back);
      expect(await rec()).toMatchObject({ back: true, main: { visible: false } });
      const name = `${runArtist("Phone")} - From Telegram.mp3`;
      const tmp = await Deno.makeTempDir({ prefix: "np-e2e-mini-" });
      await Deno.copyFile(new URL("Key Artist - C Sharp Minor.mp3", FIXTURES), `${tmp}/${name}`);
      await page.getByTestId("file-input").setInputFiles([`${tmp}/${name}`]);
      await page.getByTestId("file-row").first().waitFor();
      await page.getByRole("checkbox", { name: "Подкаст Костёр" }).check();
      await page.getByRole("radio", { name: "Нет", exact: true }).check();
      await t.screenshot(page, "mini-app-upload-390");
      await page.getByRole("button", { name: "Загрузить трек" }).click();

      // Sent: back to the list, where the new track is processing, then processed and queued third.
      await page.getByRole("tab", { name: "Мои треки", selected: true }).waitFor({ timeout: 30_000 });
      const fresh = page.getByTestId("my-track").filter({ hasText: "From Telegram" });
      await fresh.getByText("Файл ещё обрабатывается").waitFor({ timeout: 30_000 });
      expect(await rec()).toMatchObject({ back: false, main: { visible: true } });
      await t.screenshot(page, "mini-app-processing-390");
      await fresh.getByText("Файл ещё обрабатывается").waitFor({ state: "detached", timeout: 60_000 });
      await fresh.getByTestId("my-track-queue").filter({ hasText: "№3 из 3 в очереди Подкаст Костёр" }).waitFor();
      await t.screenshot(page, "mini-app-processed-390");
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    } finally {
      await bot.stop();
    }
  },
);

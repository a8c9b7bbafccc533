/**
 * Issue 27 in Chromium: the staff desk in Telegram. On a server of its own wired to the Bot API
 * double (http PUBLIC_URL: the server long-polls getUpdates), with a staff chat for Лейбл Костёр
 * : an artist uploads a track on the upload page; the double receives the card with the
 * clip (sendAudio) in that chat; a press of Принять from the linked moderator's Telegram id
 * (queued for getUpdates, as Telegram would) is answered and accepts the track; the artist's
 * history shows «Принят», and the card is edited to show the outcome without buttons.
 */
import { startTelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { expect, test, type TestContext } from "./harness.ts";
import { apiAs, artistWithTelegram, FIXTURES, open, runArtist, signIn, tokensOf } from "./staff-kit.ts";

const CHAT = -1009876543210;
const SOURCE = "Test Artist - Amen Study.mp3";

test(
  "telegram desk: an upload's card with its clip reaches the staff chat; the linked moderator's Принять accepts it; the artist sees «Принят»; the card shows the outcome",
  async (t) => {
    const bot = await startTelegramBotDouble({ token: "123456:TEST" });
    try {
      const server = await t.startServer({
        TELEGRAM_BOT_TOKEN: "123456:TEST",
        TELEGRAM_BOT_API_URL: bot.url,
        // The artist hears at once (the hold is track-decision.test.ts's); a short lease so the
        // poller looks for the staff chat every second.
        DECISION_NOTIFY_HOLD_S: "0",
        TELEGRAM_POLL_LEASE_S: "3",
      });
      const s: TestContext = { ...t, server };

      // The direction's staff chat, set by the admin through the intake rules' call (`staff_chat_id`).
      const admin = await tokensOf(s, "admin");
      const chat = await apiAs(s, admin.access, "/admin/intake/label_koster", {
        method: "PUT",
        body: JSON.stringify({ staff_chat_id: String(CHAT) }),
      });
      expect(chat.status, JSON.stringify(chat.body)).toBe(200);
      expect(chat.body.rule.staff_chat_id).toBe(String(CHAT));

      // A moderator of Лейбл Костёр whose account is linked to a Telegram id, and an artist.
      const moderatorTg = 800_000_000 + Math.floor(Math.random() * 1_000_000);
      const modName = runArtist("deskmod");
      const mod = await apiAs(s, admin.access, "/admin/users", {
        method: "POST",
        body: JSON.stringify({
          username: modName,
          telegram_id: String(moderatorTg),
          is_moderator: true,
          moderator_categories: "label_koster",
        }),
      });
      expect(mod.status, JSON.stringify(mod.body)).toBe(201);
      const { username } = await artistWithTelegram(s, "deskartist");

      // The artist uploads in Chromium, to Лейбл Костёр.
      const artistName = runArtist("Desk");
      const filename = `${artistName} - Telegram Card.mp3`;
      const tmp = await Deno.makeTempDir({ prefix: "np-e2e-desk-" });
      await Deno.copyFile(new URL(SOURCE, FIXTURES), `${tmp}/${filename}`);
      const page = await signIn(s, username, { width: 1280, height: 900 });
      await open(page, s, "/", /.+/);
      await page.getByTestId("file-input").setInputFiles([`${tmp}/${filename}`]);
      await page.getByTestId("file-row").first().waitFor();
      await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
      await page.getByRole("radio", { name: "Нет", exact: true }).check();
      await page.getByRole("button", { name: "Загрузить трек" }).click();
      await page.getByRole("button", { name: "Успешно загружено!" }).waitFor({ timeout: 30_000 });
      await page.waitForURL(`${server.baseUrl}/processing`);
      await page.getByTestId("track-status").filter({ hasText: filename }).getByText("Завершено")
        .waitFor({ timeout: 30_000 });

      // The staff chat got one card, with the clip as audio and the buttons.
      const card = await bot.whenAnswered(() =>
        bot.messages.find((m) => m.chat_id === String(CHAT) && m.text.includes(artistName))
      );
      expect(card.audio).not.toBeNull();
      expect(card.audio!.bytes.length).toBeGreaterThan(10_000);
      const send = bot.calls.find((c) => c.method === "sendAudio" && c.answer === "ok");
      expect(send?.files?.audio?.bytes.length).toBe(card.audio!.bytes.length);
      const accept = card.reply_markup?.inline_keyboard.flat().find((b) => b.text === "Принять");
      expect(accept?.callback_data).toBeTruthy();

      // The moderator presses Принять in Telegram: the press comes back through getUpdates.
      const press = bot.updates.press({
        fromId: moderatorTg,
        chatId: CHAT,
        messageId: card.message_id,
        data: accept!.callback_data!,
      });
      const answer = await bot.whenAnswered(() =>
        bot.calls.find((c) =>
          c.method === "answerCallbackQuery" && c.body.callback_query_id === press.callback_query!.id
        )
      );
      expect(String(answer.body.text)).toMatch(/^Принят/);

      // The artist's history: «Принят».
      await open(page, s, "/profile", /.+/);
      const mine = page.getByTestId("my-track").filter({ hasText: "Telegram Card" });
      await mine.getByTestId("my-track-decision").filter({ hasText: "Принят" }).waitFor({ timeout: 15_000 });
      await t.screenshot(page, "telegram-desk-artist-history-1280");

      // The card shows the outcome and who decided, and has no buttons left.
      const decided = await bot.whenAnswered(() => {
        const m = bot.messages.find((x) => x.message_id === card.message_id && x.chat_id === String(CHAT));
        // Telegram drops the keyboard an edit does not repeat: none, or an empty one.
        const buttons = (m?.reply_markup?.inline_keyboard ?? []).flat();
        return m && m.edits > 0 && buttons.length === 0 && m.text.includes("Принят") && m;
      });
      expect(decided.text).toContain(modName);
      // The staff's site shows the decision too, by the moderator.
      const { body } = await apiAs(s, admin.access, `/admin/tracks?filename=${encodeURIComponent(artistName)}`);
      const track = body.tracks?.[0];
      expect(track?.decisions?.find((d: { direction: string }) => d.direction === "label_koster")).toMatchObject({
        status: "accepted",
        decided_by: { username: modName },
      });
      // Exactly one answer for the one press.
      expect(bot.calls.filter((c) => c.method === "answerCallbackQuery")).toHaveLength(1);
    } finally {
      await bot.stop();
    }
  },
  { timeout: 120_000 },
);

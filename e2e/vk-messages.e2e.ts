/**
 * Issue 36 in Chromium at 390×844: VK community messages. On a server of its own wired to the VK API
 * double and the Bot API double, an artist with a Telegram id opens their profile, presses «Получать
 * ответы ВКонтакте» (VK's allow-messages window opens with the community and the artist's key; the
 * window is VK's, stubbed here), and VK's side (the double) posts `message_allow` with that key to
 * the Callback API. The profile then shows the consent; the artist keeps only ВКонтакте; the seeded
 * moderator accepts a track on the desk and the VK double receives the message (plain text, to the
 * artist's VK id), Telegram nothing. With both chosen, the next decision reaches both.
 */
import { startTelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { startVkApiDouble } from "../server/testing/vk-api-double.ts";
import { outboxOf } from "./outbox-kit.ts";
import { expect, type Page, test, type TestContext } from "./harness.ts";
import { artistWithTelegram, open, runArtist, signIn, tokensOf, uploadAs, waitCompleted } from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };

/**
 * The moderator accepts the track for Подкаст Костёр with a message, on the track's page of the desk (a
 * show: the accept sends only the decision's message; a label's also asks for the release files).
 */
async function accept(page: Page, s: TestContext, trackId: number, message: string) {
  await open(page, s, `/moderator/tracks/${trackId}/edit`, "Edit Track");
  const card = page.getByTestId("decision-podcast_koster");
  await card.getByLabel("Status").selectOption("accepted");
  await card.getByLabel("Message to the artist").fill(message);
  await card.getByRole("button", { name: "Save decision" }).click();
  await card.getByText("Decision saved").waitFor();
  await card.getByTestId("review-state").filter({ hasText: "Accepted" }).waitFor();
}

/** Saves the artist's choice of channels on the profile. */
async function choose(page: Page, channels: { telegram: boolean; vk: boolean }) {
  const form = page.getByTestId("message-channels");
  await form.getByLabel("Telegram").setChecked(channels.telegram);
  await form.getByLabel("ВКонтакте").setChecked(channels.vk);
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/profile/channels" && r.ok());
  await form.getByRole("button", { name: "Сохранить" }).click();
  await saved;
  await form.getByText("Сохранено").waitFor();
}

test(
  "VK messages: consent through the Callback API, a desk decision reaches the artist in VK, and with both chosen in both",
  async (t) => {
    const vk = await startVkApiDouble();
    const bot = await startTelegramBotDouble({ token: "123456:TEST" });
    try {
      const server = await t.startServer({
        ...vk.env,
        TELEGRAM_BOT_TOKEN: "123456:TEST",
        TELEGRAM_BOT_API_URL: bot.url,
        DECISION_NOTIFY_HOLD_S: "0",
      });
      const s: TestContext = { ...t, server };
      const admin = await tokensOf(s, "admin");
      const artist = await artistWithTelegram(s, "vkmsg");
      const { username, telegramId } = artist;
      const vkUserId = String(400_000_000 + Math.floor(Math.random() * 1_000_000));

      // The profile: the VK part, the button opening VK's allow-messages window with the key.
      const page = await signIn(s, username, PHONE);
      await page.context().route(
        "https://vk.com/**",
        (route) =>
          route.fulfill({ contentType: "text/html", body: "<!doctype html><title>VK</title><p>Разрешить</p>" }),
      );
      await open(page, s, "/profile", /.+/);
      // On the phone the profile's details (where the channels are) are folded until opened.
      await page.getByRole("button", { name: "Данные профиля" }).click();
      const consentNote = page.getByTestId("vk-consent");
      await consentNote.filter({ hasText: "разрешите сообществу писать вам" }).waitFor();
      await t.screenshot(page, "vk-messages-profile-before-390");
      const popup = page.waitForEvent("popup");
      await page.getByRole("button", { name: "Получать ответы ВКонтакте" }).click();
      const vkWindow = await popup;
      const opened = new URL(vkWindow.url());
      expect(opened.origin + opened.pathname).toBe("https://vk.com/widget_allow_messages_from_community.php");
      expect(opened.searchParams.get("group_id")).toBe(String(vk.groupId));
      const key = opened.searchParams.get("key")!;
      expect(key.length).toBeGreaterThan(20);
      await vkWindow.close();

      // The artist presses «Разрешить» in VK: VK posts message_allow with the key to the server.
      expect(await vk.allow(server.baseUrl, vkUserId, key)).toEqual({ status: 200, text: "ok" });
      await page.getByRole("button", { name: "Я разрешил — проверить" }).click();
      await consentNote.filter({ hasText: "сообщество может писать вам" }).waitFor();

      // Only ВКонтакте.
      await choose(page, { telegram: false, vk: true });
      await t.screenshot(page, "vk-messages-profile-chosen-390");
      const [first, second] = await uploadAs(s, artist.access, [
        { name: `${runArtist("Vk")} - Amen Study.mp3`, source: "Test Artist - Amen Study.mp3" },
        { name: `${runArtist("Both")} - Amen Study.mp3`, source: "Test Artist - Amen Study.mp3" },
      ], "podcast_koster");
      await waitCompleted(s, admin.access, [first.id, second.id]);

      const desk = await signIn(s, "moderator");
      await accept(desk, s, first.id, "Берём! Напишем во ВКонтакте.");
      await vk.waitDelivered(1);
      expect(vk.delivered[0].peer_id).toBe(vkUserId);
      expect(vk.delivered[0].message).toContain(first.filename.replace(/\.mp3$/, ""));
      expect(vk.delivered[0].message).toContain("Берём! Напишем во ВКонтакте.");
      expect(vk.delivered[0].message).not.toMatch(/<b>|&amp;/);
      // Nothing for Telegram: by the outbox the decision wrote, not by the double not reached yet.
      expect(await outboxOf(server.dataDir, artist.id, "telegram")).toEqual([]);
      expect(bot.delivered).toHaveLength(0);

      // Both: the next decision goes to VK and to Telegram.
      await choose(page, { telegram: true, vk: true });
      await accept(desk, s, second.id, "И этот берём.");
      await vk.waitDelivered(2);
      expect(vk.delivered[1].message).toContain("И этот берём.");
      await bot.whenDelivered(() => true, 1);
      expect(bot.delivered).toHaveLength(1);
      expect(String(bot.delivered[0].body.chat_id)).toBe(telegramId);
      expect(String(bot.delivered[0].body.text)).toContain("И этот берём.");
      // Each message once per channel: the first decision never reached Telegram.
      expect(vk.delivered).toHaveLength(2);
      expect((await outboxOf(server.dataDir, artist.id, "telegram")).map((r) => r.text)).toEqual([
        String(bot.delivered[0].body.text),
      ]);
      expect(await outboxOf(server.dataDir, artist.id, "vk")).toHaveLength(2);
    } finally {
      await vk.stop();
      await bot.stop();
    }
  },
  { timeout: 180_000 },
);

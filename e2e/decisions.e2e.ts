/**
 * Issue 13 in Chromium: a decision reaches the artist. On a server of its own wired to the Telegram
 * Bot API double, an artist with a Telegram id uploads two tracks to Костёр; the seeded moderator
 * starts the first in the list and skips it with J at once, plays the second through (issue 20: only
 * that one reads «Прослушан» to the artist), opens its page, accepts it in Костёр Звукозапись with a
 * message; the artist's profile («Мои треки») shows «Принят» and the message, the skipped track
 * «На рассмотрении», and the double received exactly one message. Screenshots of the decision panel
 * and of the artist's history.
 * Issue 20 also: a decline with a template followed by a note saved in the same form stays a decline,
 * and the artist is told once.
 */
import type { TelegramBotDouble } from "../server/testing/telegram-bot-double.ts";
import { expect, test } from "./harness.ts";
import { stillOnTheWay } from "./outbox-kit.ts";
import {
  apiAs,
  artistWithTelegram,
  open,
  runArtist,
  signIn,
  tokensOf,
  uploadAs,
  waitCompleted,
  waitPlaying,
  withBotServer,
} from "./staff-kit.ts";

const MESSAGE = "Спасибо! Трек берём на лейбл, напишем в Telegram.";

/**
 * Waits on the double until `n` messages were delivered, then proves no more will come by the
 * server's state (outbox-kit.ts: nothing waiting or being sent to the artist, no release request
 * still to be written; docs/decisions/0445), not by waiting a while: exactly `n` then.
 */
async function waitDelivered(bot: TelegramBotDouble, dataDir: string, userId: number, n: number) {
  await bot.whenDelivered(() => true, n);
  const texts = bot.delivered.map((c) => String(c.body.text));
  expect(await stillOnTheWay(dataDir, userId, texts), "nothing more on its way").toEqual([]);
  expect(bot.delivered).toHaveLength(n);
}

test(
  "decisions: a moderator plays and accepts a track with a message; the artist's history shows «Принят»; one Telegram message",
  (t) =>
    withBotServer(t, {}, async ({ bot, server, s, admin }) => {
      // The artist of this test: made by the admin with a Telegram id, so the decision is sent there.
      const artist = await artistWithTelegram(s, "decided");
      const { username, telegramId } = artist;
      const artistName = runArtist("Decided");
      const uploaded = await uploadAs(s, artist.access, [
        { name: `${artistName} - Amen Study.mp3`, source: "Test Artist - Amen Study.mp3" },
        { name: `${artistName} - Amen Skipped.mp3`, source: "Test Artist - Amen Study.mp3" },
      ], "label_koster");
      await waitCompleted(s, admin.access, uploaded.map((u) => u.id));

      // The moderator starts the first of the two rows and skips it with J at once: the second plays
      // through (the fixture is 8 s). Only the one played counts as heard (issue 20).
      const page = await signIn(s, "moderator");
      await page.goto(`${server.baseUrl}/moderator/tracks?filename=${encodeURIComponent(artistName)}`);
      await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
      await page.locator("tbody tr[data-track-id]").nth(1).waitFor();
      const order = await page.locator("tbody tr[data-track-id]")
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-track-id"))));
      const skipped = uploaded.find((u) => u.id === order[0])!;
      const track = uploaded.find((u) => u.id === order[1])!;
      // The player's receipt that makes the played track «Прослушан» (the server's answer says so).
      const heard = page.waitForResponse(async (r) =>
        r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(`/tracks/${track.id}/listened`) &&
        r.ok() && (await r.json()).heard === true
      );
      const row = page.locator(`tr[data-track-id="${skipped.id}"]`);
      await row.getByRole("button", { name: `Play: ${skipped.filename}` }).click();
      await waitPlaying(page, skipped.id);
      await page.keyboard.press("j");
      await waitPlaying(page, track.id);
      await page.waitForFunction(() => document.querySelector("audio")?.ended === true, undefined, { timeout: 30_000 });

      // The artist: «Прослушан» for the track played through, still «На рассмотрении» for the skipped one.
      const artistStatus = async (id: number) => {
        const { body } = await apiAs(s, artist.access, "/tracks");
        return body.tracks.find((x: { id: number }) => x.id === id)?.decisions[0]?.status;
      };
      await heard;
      expect(await artistStatus(track.id)).toBe("listened");
      expect(await artistStatus(skipped.id)).toBe("in_review");

      // The track's page: the state per direction, who listened how long, the decision form.
      await open(page, s, `/moderator/tracks/${track.id}/edit`, "Edit Track");
      const card = page.getByTestId("decision-label_koster");
      await card.getByTestId("review-state").filter({ hasText: "Listened" }).waitFor();
      expect(await page.getByTestId("staff-listen").first().textContent()).toMatch(/heard 0:0[78] of 0:08$/);
      await card.getByLabel("Status").selectOption("accepted");
      await card.getByLabel("Note for the staff").fill("Сильный дроп, берём");
      await card.getByLabel("Message to the artist").fill(MESSAGE);
      await card.getByRole("button", { name: "Save decision" }).click();
      await card.getByText("Decision saved").waitFor();
      await card.getByTestId("review-state").filter({ hasText: "Accepted" }).waitFor();
      // The history: who, from, to, the note and the message.
      const history = page.locator(".dp-history-table tbody tr");
      await history.filter({ hasText: "Сильный дроп, берём" }).waitFor();
      const last = await history.last().textContent();
      expect(last).toContain("Listened");
      expect(last).toContain("Accepted");
      expect(last).toContain(MESSAGE);
      await t.screenshot(page, "decision-panel-moderator-1440");

      // The artist's profile: «Принят» and the staff's message, never the note.
      const artistPage = await signIn(s, username, { width: 390, height: 844 });
      await open(artistPage, s, "/profile", /.+/);
      const mine = artistPage.getByTestId("my-track").filter({ hasText: track.filename });
      await mine.waitFor();
      const decision = mine.getByTestId("my-track-decision");
      await decision.filter({ hasText: "Принят" }).waitFor();
      expect(await decision.textContent()).toContain(MESSAGE);
      expect(await mine.textContent()).not.toContain("Сильный дроп");
      const notHeard = artistPage.getByTestId("my-track").filter({ hasText: skipped.filename });
      expect(await notHeard.getByTestId("my-track-decision").textContent()).toContain("На рассмотрении");
      await t.screenshot(artistPage, "artist-history-390");

      // The accepted label pair has its release (issue 34): «Принят» links to it with its stage.
      await decision.getByTestId("my-track-release").filter({ hasText: "Релиз: Ждём материалы" }).waitFor();

      // Telegram: exactly one decision message, to the artist, with the staff's message in it, and the
      // release desk's request for materials (issue 34): two messages in all.
      await waitDelivered(bot, server.dataDir, artist.id, 2);
      expect(bot.delivered.map((c) => String(c.body.chat_id))).toEqual([telegramId, telegramId]);
      const texts = bot.delivered.map((c) => String(c.body.text));
      expect(texts.filter((text) => text.includes("Спасибо! Трек берём на лейбл"))).toHaveLength(1);
      expect(texts.filter((text) => text.includes("Чтобы выпустить релиз"))).toHaveLength(1);
    }),
  { timeout: 120_000 },
);

test("decisions: the admin adds a decline template, declines a track with it in one action; the dashboard counts it", async (t) => {
  const admin = await tokensOf(t, "admin");
  const artist = await tokensOf(t, "artist");
  const [track] = await uploadAs(t, artist.access, [
    { name: `${runArtist("Templated")} - Amen Study.mp3`, source: "Test Artist - Amen Study.mp3" },
  ], "show_neurogon");
  await waitCompleted(t, admin.access, [track.id]);

  const page = await signIn(t, "admin");
  await page.goto(t.server.baseUrl + "/admin");
  await page.getByRole("link", { name: "Шаблоны сообщений" }).click();
  await page.getByRole("heading", { level: 1, name: "Шаблоны сообщений" }).waitFor();
  const title = runArtist("Шаблон ");
  await page.getByLabel("Название").first().fill(title);
  await page.getByLabel("Текст сообщения артисту").first().fill("Спасибо! В этот раз не подходит для шоу.");
  await page.getByRole("button", { name: "Добавить шаблон" }).click();
  await page.getByText("Шаблон добавлен").waitFor();
  await page.getByTestId("decline-template").filter({ has: page.locator(`input[value="${title}"]`) }).waitFor();
  await t.screenshot(page, "decline-templates-1440");

  await open(page, t, `/admin/tracks/${track.id}/edit`, "Редактирование трека");
  const card = page.getByTestId("decision-show_neurogon");
  await card.getByLabel("Шаблон отказа").selectOption({ label: title });
  await card.getByRole("button", { name: "Отклонить с шаблоном" }).click();
  await card.getByTestId("review-state").filter({ hasText: "Отклонён" }).waitFor();
  const decided = (await apiAs(t, admin.access, `/admin/tracks/${track.id}`)).body.track;
  const pair = decided.decisions.find((d: { direction: string }) => d.direction === "show_neurogon");
  expect(pair.status).toBe("declined");
  expect(pair.message).toBe("Спасибо! В этот раз не подходит для шоу.");

  await open(page, t, "/admin", "Панель управления");
  const counts = page.getByTestId("review-counts");
  await counts.waitFor();
  const row = counts.locator("tbody tr").filter({ hasText: "Шоу Нейрогон" });
  expect(Number(await row.locator("td").nth(4).textContent())).toBeGreaterThanOrEqual(1);
  await t.screenshot(page, "dashboard-review-counts-1440");
});

test(
  "decisions: a decline with a template, then a note saved in the same form: still declined, the artist told once (issue 20)",
  (t) =>
    withBotServer(t, {}, async ({ bot, s, admin }) => {
      const artist = await artistWithTelegram(s, "declined");
      const { username, telegramId } = artist;
      const [track] = await uploadAs(s, artist.access, [
        { name: `${runArtist("Reverted")} - Amen Study.mp3`, source: "Test Artist - Amen Study.mp3" },
      ], "label_koster");
      await waitCompleted(s, admin.access, [track.id]);
      const title = runArtist("Сведение ");
      const TEMPLATE = "Спасибо! Доработайте сведение и присылайте снова.";
      const created = await apiAs(s, admin.access, "/admin/decline-templates", {
        method: "POST",
        body: JSON.stringify({ title, text: TEMPLATE }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);

      // «Отклонить с шаблоном»: the panel shows Отклонён, in the badge and in the form.
      const page = await signIn(s, "admin");
      await open(page, s, `/admin/tracks/${track.id}/edit`, "Редактирование трека");
      const card = page.getByTestId("decision-label_koster");
      await card.getByTestId("review-state").filter({ hasText: "Новый" }).waitFor();
      await card.getByLabel("Шаблон отказа").selectOption({ label: title });
      await card.getByRole("button", { name: "Отклонить с шаблоном" }).click();
      await card.getByText("Отклонено с шаблоном").waitFor();
      await card.getByTestId("review-state").filter({ hasText: "Отклонён" }).waitFor();
      expect(await card.getByLabel("Статус").inputValue()).toBe("declined");
      expect(await card.getByLabel("Сообщение артисту").inputValue()).toBe(TEMPLATE);

      // A note, then «Сохранить решение» in the same form.
      await card.getByLabel("Заметка для сотрудников").fill("Позвонить через месяц");
      await card.getByRole("button", { name: "Сохранить решение" }).click();
      await card.getByText("Решение сохранено").waitFor();
      await page.locator(".dp-history-table tbody tr").filter({ hasText: "Позвонить через месяц" }).waitFor();
      expect(await card.getByTestId("review-state").textContent()).toBe("Отклонён");
      expect(await card.getByLabel("Статус").inputValue()).toBe("declined");
      const saved = (await apiAs(s, admin.access, `/admin/tracks/${track.id}`)).body.track;
      expect(saved.decisions[0]).toMatchObject({
        status: "declined",
        message: TEMPLATE,
        note: "Позвонить через месяц",
      });
      expect(saved.decision_history.map((h: { to: string }) => h.to)).toEqual(["declined", "declined"]);

      // The artist's history: still «Отклонён» with the message, never «На рассмотрении».
      const artistPage = await signIn(s, username, { width: 390, height: 844 });
      await open(artistPage, s, "/profile", /.+/);
      const mine = artistPage.getByTestId("my-track").filter({ hasText: track.filename });
      await mine.waitFor();
      const decision = mine.getByTestId("my-track-decision");
      await decision.filter({ hasText: "Отклонён" }).waitFor();
      expect(await decision.textContent()).toContain(TEMPLATE);
      expect(await mine.textContent()).not.toContain("На рассмотрении");

      // Telegram: the decline, once; the note is not news.
      await waitDelivered(bot, s.server.dataDir, artist.id, 1);
      expect(String(bot.delivered[0].body.chat_id)).toBe(telegramId);
      expect(String(bot.delivered[0].body.text)).toContain("Отклонён");
      expect(String(bot.delivered[0].body.text)).toContain(TEMPLATE);
    }),
  { timeout: 120_000 },
);

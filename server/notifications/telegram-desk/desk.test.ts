/**
 * Issue 27, the staff cards in Telegram: a completed track gets one card per direction chat, with
 * the 30-second clip from the drop (or 30 %) sent by `sendAudio`; a decision in the web, its undo
 * and a vote edit the card; edits waiting are replaced by the latest; nothing is sent without a
 * token or a chat; a track whose clip cannot be cut gets its card as text.
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { directionIntake, telegramCards, telegramOutbox, trackAnalysis, tracks } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser, signIn } from "../../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../../testing/staff-test-kit.ts";
import { type BotCall, startTelegramBotDouble, type TelegramBotDouble } from "../../testing/telegram-bot-double.ts";
import { dirPart, filePart, postUpload } from "../../testing/upload-helpers.ts";
import { clipFirstFrameIndex, FRAME_S, probeMp3, sweepMp3 } from "../../testing/clip-checks.ts";
import { clipStart } from "../../audio/clip.ts";
import { decodeCallback } from "./callback-data.ts";
import { STAFF_TRACK_PATH } from "./card-text.ts";

const KOSTER_CHAT = "-100111";
const PODCAST_CHAT = "-100222";
const NAME = "Sweep Artist - Rising Tone.mp3";

/** Moved on before each test, so each chat's pacing (three seconds for a group) has passed. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
let bot: TelegramBotDouble;
let f: StaffFixture;
let artistHeaders: Headers;
let sweep: Uint8Array;
/** The track uploaded and processed once for the whole file. */
let trackId: number;

const sender = () => f.t.ctx.notifications.sender;
const desk = () => f.t.ctx.notifications.desk;
const buttons = (call: BotCall | { reply_markup: unknown }) => {
  const raw = "body" in call ? call.body.reply_markup : call.reply_markup;
  const markup = (typeof raw === "string" ? JSON.parse(raw) : raw) as { inline_keyboard: { text: string }[][] } | null;
  return (markup?.inline_keyboard ?? []).map((row) => row.map((b) => b.text));
};
const cardOf = async (direction: string) =>
  (await f.t.ctx.db.select().from(telegramCards).where(
    and(eq(telegramCards.track_id, trackId), eq(telegramCards.direction, direction)),
  ))[0];
const messageOf = (chat: string, id: number | null) =>
  bot.messages.find((m) => m.chat_id === chat && m.message_id === id)!;

async function revision(id: number, direction: string) {
  const r = await f.call("GET", `/api/admin/tracks/${id}`);
  return (r.body.track as { decisions: { direction: string; revision: number }[] }).decisions
    .find((d) => d.direction === direction)!.revision;
}

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  f = await staffFixture({ env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url }, clock });
  const artist = await createUser(f.t.ctx.db);
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
  const now = new Date();
  // Two directions with a staff chat; show_neurogon has none (no row: the defaults).
  await f.t.ctx.db.insert(directionIntake).values([
    { direction: "label_koster", staff_chat_id: KOSTER_CHAT, updated_at: now },
    { direction: "podcast_koster", staff_chat_id: PODCAST_CHAT, updated_at: now },
  ]);
  sweep = await sweepMp3();
  const up = await postUpload(f.t, artistHeaders, [
    dirPart("label_koster"),
    dirPart("podcast_koster"),
    dirPart("show_neurogon"),
    filePart(NAME, sweep),
  ]);
  expect(up.res.status, JSON.stringify(up.body)).toBe(200);
  await f.t.ctx.queue.idle();
  const [row] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.filename, NAME));
  expect(row.status, row.error ?? "").toBe("completed");
  trackId = row.id;
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(() => {
  bot.calls.length = 0;
  offsetMs += 10_000;
});

describe("a completed track's staff cards", () => {
  it("go to each direction's chat once, as audio with the card as caption and the buttons", async () => {
    await sender().runOnce();
    const sent = bot.calls.filter((c) => c.method === "sendAudio");
    expect(sent.map((c) => c.body.chat_id).sort()).toEqual([KOSTER_CHAT, PODCAST_CHAT]);
    expect(bot.calls.filter((c) => c.method === "sendMessage")).toEqual([]);
    for (const call of sent) {
      expect(call.answer).toBe("ok");
      expect(call.body.parse_mode).toBe("HTML");
      const caption = String(call.body.caption);
      expect(caption).toContain("<b>Sweep Artist</b> — Rising Tone");
      expect(caption).toContain("Направления: ");
      expect(caption).toContain("Ждёт ответа: 0 дней");
      expect(caption).toContain(`href="${f.t.ctx.config.publicUrl}${STAFF_TRACK_PATH}?track=${trackId}"`);
      expect(buttons(call)).toEqual([["Принять", "В шорт-лист", "Отклонить"], ["👍 0", "🤔 0", "👎 0"]]);
      // Each button's data is signed and names this chat's card.
      const card = await cardOf(call.body.chat_id === KOSTER_CHAT ? "label_koster" : "podcast_koster");
      const markup = JSON.parse(String(call.body.reply_markup));
      expect(decodeCallback(desk().callbackSecret, markup.inline_keyboard[0][0].callback_data))
        .toEqual({ cardId: card.id, action: "a" });
      expect(card).toMatchObject({ state: "sent", has_audio: true, chat_id: call.body.chat_id });
      expect(card.message_id).toBe(messageOf(card.chat_id, card.message_id).message_id);
    }
    // The direction without a chat has no card.
    expect(await cardOf("show_neurogon")).toBeUndefined();
    // Sent once: another round sends nothing.
    bot.calls.length = 0;
    await sender().runOnce();
    expect(bot.calls).toEqual([]);
  });

  it("carry a 30-second clip (within one frame) starting within one frame of the drop, with its title and artist", async () => {
    const [a] = await f.t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, trackId));
    const expected = clipStart({ dropS: a.drop_s, durationS: a.duration_s });
    for (const m of bot.messages.filter((m) => m.audio)) {
      const clip = m.audio!.bytes;
      const probed = await probeMp3(clip);
      expect(Math.abs(probed.duration - 30)).toBeLessThanOrEqual(FRAME_S);
      expect(probed.tags).toMatchObject({ title: "Rising Tone", artist: "Sweep Artist" });
      const index = clipFirstFrameIndex(sweep, clip);
      expect(index).not.toBeNull();
      expect(Math.abs(index! * FRAME_S - expected)).toBeLessThanOrEqual(FRAME_S);
      expect(m.audio!.type).toBe("audio/mpeg");
    }
  });

  it("are edited when the web decides a pair: the outcome, who and when, no buttons; an undo brings them back", async () => {
    const koster = await cardOf("label_koster");
    const r = await f.call("PUT", `/api/admin/tracks/${trackId}/decisions/label_koster`, {
      json: { status: "accepted", revision: await revision(trackId, "label_koster") },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await sender().runOnce();
    const edits = bot.calls.filter((c) => c.method.startsWith("edit"));
    expect(edits.map((c) => [c.method, c.body.chat_id, c.body.message_id])).toEqual([
      ["editMessageCaption", Number(KOSTER_CHAT), koster.message_id],
    ]);
    const shown = messageOf(KOSTER_CHAT, koster.message_id);
    expect(shown.text).toContain("✅ <b>Принят</b>: ");
    expect(shown.text).toContain(f.admin.username);
    expect(shown.text).toMatch(/\d\d\.\d\d\.\d{4} \d\d:\d\d МСК/);
    expect(shown.reply_markup?.inline_keyboard ?? []).toEqual([]);
    // The other direction's card is untouched.
    const podcast = await cardOf("podcast_koster");
    expect(messageOf(PODCAST_CHAT, podcast.message_id).edits).toBe(0);

    bot.calls.length = 0;
    offsetMs += 10_000;
    const u = await f.call("POST", `/api/admin/tracks/${trackId}/decision/undo`, { json: {} });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    await sender().runOnce();
    expect(bot.calls.map((c) => c.method)).toEqual(["editMessageCaption"]);
    expect(shown.text).not.toContain("Принят");
    expect(buttons(shown)).toEqual([["Принять", "В шорт-лист", "Отклонить"], ["👍 0", "🤔 0", "👎 0"]]);
  });

  it("show a vote's tallies, and only the latest of edits still waiting is sent", async () => {
    const podcast = await cardOf("podcast_koster");
    for (const vote of [-1, 1]) {
      const r = await f.call("PUT", `/api/admin/tracks/${trackId}/votes/podcast_koster`, { json: { vote } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    await sender().runOnce();
    // Two votes, one edit: the tallies as they are now; the text did not change, so only the buttons.
    expect(bot.calls.map((c) => [c.method, c.body.chat_id])).toEqual([[
      "editMessageReplyMarkup",
      Number(PODCAST_CHAT),
    ]]);
    expect(buttons(messageOf(PODCAST_CHAT, podcast.message_id))[1]).toEqual(["👍 1", "🤔 0", "👎 0"]);
    const rows = await f.t.ctx.db.select().from(telegramOutbox).where(eq(telegramOutbox.card_id, podcast.id))
      .orderBy(asc(telegramOutbox.id));
    expect(rows.map((o) => o.status)).toEqual(["sent", "superseded", "sent"]);
  });

  it("an edit refused with 429 is tried again after retry_after", async () => {
    const koster = await cardOf("label_koster");
    await f.call("PUT", `/api/admin/tracks/${trackId}/votes/label_koster`, { json: { vote: 0 } });
    bot.failNext({ kind: "flood", retryAfterS: 7 });
    await sender().runOnce();
    const [row] = await f.t.ctx.db.select().from(telegramOutbox).where(
      and(eq(telegramOutbox.card_id, koster.id), eq(telegramOutbox.status, "pending")),
    );
    expect(row.next_attempt_at.getTime()).toBeGreaterThanOrEqual(clock.now().getTime() + 5_000);
    expect(row.last_error).toMatch(/^429/);
  });
});

describe("the staff cards stay off", () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("without TELEGRAM_BOT_TOKEN: the track completes, no card is written, nothing is sent", async () => {
    t = await createTestApp();
    await t.ctx.db.insert(directionIntake).values({
      direction: "label_koster",
      staff_chat_id: KOSTER_CHAT,
      updated_at: new Date(),
    });
    const artist = await createUser(t.ctx.db);
    const up = await postUpload(t, (await signIn(t.ctx, artist)).headers, [
      dirPart("label_koster"),
      filePart("Test Artist - Amen Study.mp3"),
    ]);
    expect(up.res.status).toBe(200);
    await t.ctx.queue.idle();
    const [row] = await t.ctx.db.select().from(tracks).where(isNotNull(tracks.id));
    expect(row.status).toBe("completed");
    expect(await t.ctx.db.select().from(telegramCards)).toEqual([]);
    expect(await t.ctx.db.select().from(telegramOutbox)).toEqual([]);
  });

  it("for a direction without a chat", async () => {
    bot.calls.length = 0;
    const track = await f.trackWithFile("Test Artist - Amen Study.mp3", { directions: "show_neurogon" });
    expect(await desk().trackCompleted(track.id)).toBe(0);
    await sender().runOnce();
    expect(await f.t.ctx.db.select().from(telegramCards).where(eq(telegramCards.track_id, track.id))).toEqual([]);
    expect(bot.calls.filter((c) => c.method.startsWith("send"))).toEqual([]);
  });
});

describe("a card the chat refuses", () => {
  it("is recorded blocked (403) and never tried again; its edits are not sent", async () => {
    offsetMs += 60_000;
    await sender().runOnce(); // whatever earlier tests left due
    bot.calls.length = 0;
    const track = await f.trackWithFile("Test Artist - Amen Study.mp3", { directions: "podcast_koster" });
    expect(await desk().trackCompleted(track.id)).toBe(1);
    offsetMs += 10_000;
    bot.failNext({ kind: "blocked", description: "Forbidden: bot was kicked from the supergroup chat" });
    await sender().runOnce();
    const [card] = await f.t.ctx.db.select().from(telegramCards).where(eq(telegramCards.track_id, track.id));
    expect(card).toMatchObject({ state: "blocked", message_id: null });
    await f.call("PUT", `/api/admin/tracks/${track.id}/decisions/podcast_koster`, {
      json: { status: "accepted", revision: 0 },
    });
    offsetMs += 10_000;
    bot.calls.length = 0;
    await sender().runOnce();
    expect(bot.calls).toEqual([]);
  });
});

describe("a track whose clip cannot be cut", () => {
  it("gets its card as text, with the same buttons", async () => {
    bot.calls.length = 0;
    offsetMs += 60_000;
    const track = await f.trackWithFile("Text Artist - Not Audio.mp3", { directions: "label_koster" });
    expect(await desk().trackCompleted(track.id)).toBe(1);
    await sender().runOnce();
    expect(bot.calls.map((c) => [c.method, c.body.chat_id])).toEqual([["sendMessage", Number(KOSTER_CHAT)]]);
    expect(String(bot.calls[0].body.text)).toContain("<b>Text Artist</b> — Not Audio");
    expect(buttons(bot.calls[0])[0]).toEqual(["Принять", "В шорт-лист", "Отклонить"]);
    const [card] = await f.t.ctx.db.select().from(telegramCards).where(eq(telegramCards.track_id, track.id));
    expect(card).toMatchObject({ state: "sent", has_audio: false });
    // Its edits are text edits.
    await f.call("PUT", `/api/admin/tracks/${track.id}/decisions/label_koster`, {
      json: { status: "declined", revision: 0 },
    });
    bot.calls.length = 0;
    offsetMs += 10_000;
    await sender().runOnce();
    expect(bot.calls.map((c) => c.method)).toEqual(["editMessageText"]);
    expect(String(bot.calls[0].body.text)).toContain("❌ <b>Отклонён</b>");
  });
});

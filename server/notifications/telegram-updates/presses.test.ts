/**
 * Issue 27: a press of a staff card's button in Telegram (docs/decisions/0263). A linked moderator's
 * Принять records the decision through the web's decision service (history, the artist's message
 * held for DECISION_NOTIFY_HOLD_S); a press by an unlinked account, by a moderator outside the
 * card's direction, with forged data, from another chat, or on a pair already decided changes
 * nothing; Отклонить shows the decline templates as a second row and a template's button declines
 * with it; 👍 🤔 👎 vote. Every press is answered with answerCallbackQuery.
 */
import { and, asc, eq, isNotNull, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  declineTemplates,
  telegramCards,
  telegramOutbox,
  trackDecisionHistory,
  trackDecisions,
  trackVotes,
  type User,
} from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createTrack, createUser } from "../../testing/factories.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../../testing/telegram-bot-double.ts";
import { type BotUpdate, pressUpdate } from "../../testing/telegram-bot-updates.ts";
import { type CallbackAction, callbackSecret, decodeCallback, encodeCallback } from "../telegram-desk/callback-data.ts";
import { REVIEW_TEXTS } from "../../../domain/review.ts";
import { PRESS_TEXTS } from "./presses.ts";
import { parseUpdate } from "./updates.ts";

const HOLD_S = 60;
const CHAT = -1001234567890;
const MOD_TG = 555_000_001;
const OTHER_MOD_TG = 555_000_002;
const STRANGER_TG = 555_000_003;

let nowMs = Date.UTC(2026, 10, 20, 12);
const clock = { now: () => new Date(nowMs) };
let bot: TelegramBotDouble;
let t: TestApp;
let moderator: User;
let artist: User;
let secret: string;
let updateId = 1;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  t = await createTestApp({
    env: {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      DECISION_NOTIFY_HOLD_S: String(HOLD_S),
    },
    clock,
  });
  secret = callbackSecret(t.ctx.config.jwtSecret);
  moderator = await createUser(t.ctx.db, {
    is_moderator: true,
    moderator_categories: "label_koster",
    telegram_id: String(MOD_TG),
  });
  await createUser(t.ctx.db, {
    is_moderator: true,
    moderator_categories: "podcast_koster",
    telegram_id: String(OTHER_MOD_TG),
  });
  artist = await createUser(t.ctx.db, { telegram_id: "700300400" });
});
afterAll(async () => {
  await t.close();
  await bot.stop();
});
beforeEach(() => {
  bot.calls.length = 0;
  nowMs += 10 * 60_000;
});

/** A completed track of the artist's in Лейбл Костёр with its card sent to the staff chat. */
async function cardedTrack() {
  const track = await createTrack(t.ctx.db, {
    directions: "label_koster,podcast_koster",
    user_id: artist.id,
    filename: "Арт Истов - Ночной рейс.mp3",
    status: "completed",
  });
  const markup = {
    inline_keyboard: [
      [{ text: "Принять", callback_data: "x" }, { text: "Отклонить", callback_data: "y" }],
      [{ text: "👍", callback_data: "z" }],
    ],
  };
  // The card as the chat shows it: sent through the double, so its edits find it.
  const sent = await fetch(`${bot.url}/bot${bot.token}/sendMessage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chat_id: CHAT, text: "Карточка", reply_markup: markup }),
  });
  const messageId = (await sent.json()).result.message_id as number;
  bot.calls.length = 0;
  const [card] = await t.ctx.db.insert(telegramCards).values({
    track_id: track.id,
    direction: "label_koster",
    chat_id: String(CHAT),
    message_id: messageId,
    has_audio: false,
    state: "sent",
    shown_markup: JSON.stringify(markup),
  }).returning();
  return { track, card };
}

/** A press as Telegram reports it: on the message of the card its data names, unless `messageId` says otherwise. */
async function press(fromId: number, data: string, chatId = CHAT, messageId?: number) {
  const cardId = decodeCallback(secret, data)?.cardId;
  const [card] = cardId === undefined
    ? []
    : await t.ctx.db.select({ messageId: telegramCards.message_id }).from(telegramCards)
      .where(eq(telegramCards.id, cardId));
  const pressed = messageId ?? card?.messageId ?? 1;
  const update = { ...pressUpdate({ fromId, chatId, messageId: pressed, data }), update_id: updateId++ } as BotUpdate;
  const parsed = parseUpdate(update);
  expect(parsed).not.toBeNull();
  return await t.ctx.telegramUpdates.handleUpdate(parsed!);
}
const data = (cardId: number, action: CallbackAction) => encodeCallback(secret, cardId, action);

/** Every answerCallbackQuery the double received since the test began. */
const answers = () => bot.calls.filter((c) => c.method === "answerCallbackQuery").map((c) => c.body);

/** Everything a press could change about a track: its pairs, their history, votes, messages. */
async function stateOf(trackId: number) {
  const db = t.ctx.db;
  return {
    pairs: await db.select().from(trackDecisions).where(eq(trackDecisions.track_id, trackId))
      .orderBy(asc(trackDecisions.direction)),
    history: await db.select().from(trackDecisionHistory).where(eq(trackDecisionHistory.track_id, trackId)),
    votes: await db.select().from(trackVotes).where(eq(trackVotes.track_id, trackId)),
    // The artist's messages about this track (the cards' own rows have no user).
    messages: await db.select().from(telegramOutbox).where(
      and(eq(telegramOutbox.user_id, artist.id), like(telegramOutbox.key, `decision:${trackId}:%`)),
    ),
  };
}

describe("a press on a staff card", () => {
  it("Принять by a linked moderator records the decision with history and the artist's held message", async () => {
    const { track, card } = await cardedTrack();
    const result = await press(MOD_TG, data(card.id, "a"));
    expect(result?.outcome).toBe("decided");

    const { pairs, history, messages } = await stateOf(track.id);
    const koster = pairs.find((p) => p.direction === "label_koster")!;
    expect(koster).toMatchObject({ status: "accepted", decided_by: moderator.id, revision: 1 });
    // The other direction of the track is not the card's: untouched.
    expect(pairs.find((p) => p.direction === "podcast_koster")?.status ?? "new").toBe("new");
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      direction: "label_koster",
      from_status: "new",
      to_status: "accepted",
      decided_by: moderator.id,
    });
    // The artist's message waits for the hold (undoable on the web meanwhile), then goes once.
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ status: "pending", chat_id: artist.telegram_id });
    expect(messages[0].next_attempt_at.getTime()).toBe(nowMs + HOLD_S * 1000);
    expect(messages[0].text).toContain("Ночной рейс");

    // The web shows it at once, by the moderator.
    const seen = await t.ctx.tracks.get(moderator, track.id);
    expect(seen.decisions.find((d) => d.direction === "label_koster")).toMatchObject({
      status: "accepted",
      decided_by: { id: moderator.id },
    });
    expect(answers()).toEqual([{
      callback_query_id: expect.any(String),
      text: PRESS_TEXTS.decided("accepted", HOLD_S),
    }]);
  });

  it("changes nothing for an unlinked account, a moderator outside the direction, forged data or another chat", async () => {
    const { track, card } = await cardedTrack();
    const before = await stateOf(track.id);
    const forgedSignature = data(card.id, "a").slice(0, -2) + (data(card.id, "a").endsWith("AA") ? "BB" : "AA");
    const cases: Array<[number, string, number, string]> = [
      [STRANGER_TG, data(card.id, "a"), CHAT, PRESS_TEXTS.notLinked],
      [OTHER_MOD_TG, data(card.id, "a"), CHAT, PRESS_TEXTS.outside("label_koster")],
      [OTHER_MOD_TG, data(card.id, "v1"), CHAT, PRESS_TEXTS.outside("label_koster")],
      [MOD_TG, forgedSignature, CHAT, PRESS_TEXTS.forged],
      // Signed with another secret (another site's bot, or a guess).
      [
        MOD_TG,
        encodeCallback(callbackSecret("another-secret-another-secret-0123456789"), card.id, "a"),
        CHAT,
        PRESS_TEXTS.forged,
      ],
      [MOD_TG, `${card.id}.a`, CHAT, PRESS_TEXTS.forged],
      // The right data pressed in a chat the card was never sent to.
      [MOD_TG, data(card.id, "a"), -100999, PRESS_TEXTS.noCard],
      // A card that does not exist, signed properly.
      [MOD_TG, data(card.id + 1000, "a"), CHAT, PRESS_TEXTS.noCard],
    ];
    for (const [from, d, chat, text] of cases) {
      const result = await press(from, d, chat);
      expect(result?.outcome, text).toBe("refused");
    }
    expect(answers().map((a) => a.text)).toEqual(cases.map((c) => c[3]));
    for (const a of answers().slice(0, 3)) expect(String(a.text)).toMatch(/^Нет прав/);
    expect(await stateOf(track.id)).toEqual(before);
  });

  it("a card's data on another message of the chat changes nothing and is answered as stale (issue 32)", async () => {
    const one = await cardedTrack();
    const other = await cardedTrack();
    expect(one.card.message_id).not.toBe(other.card.message_id);
    const before = [await stateOf(one.track.id), await stateOf(other.track.id)];
    // The data of card one, pressed on card two's message (and on a message that is no card).
    for (const action of ["a", "x", "v1"] as CallbackAction[]) {
      expect((await press(MOD_TG, data(one.card.id, action), CHAT, other.card.message_id!))?.outcome).toBe("stale");
    }
    expect((await press(MOD_TG, data(one.card.id, "a"), CHAT, 999_999))?.outcome).toBe("stale");
    expect(answers().map((a) => a.text)).toEqual(Array(4).fill(PRESS_TEXTS.stale));
    // No card was edited, no decision, vote or message written.
    expect(bot.calls.filter((c) => c.method !== "answerCallbackQuery")).toEqual([]);
    expect([await stateOf(one.track.id), await stateOf(other.track.id)]).toEqual(before);
    // The same data on its own card's message decides that card's pair.
    expect((await press(MOD_TG, data(one.card.id, "a")))?.outcome).toBe("decided");
    expect((await stateOf(one.track.id)).pairs.map((p) => p.status)).toEqual(["accepted"]);
    expect((await stateOf(other.track.id)).pairs).toEqual([]);
  });

  it("on a pair already decided changes nothing, and the answer says so", async () => {
    const { track, card } = await cardedTrack();
    await press(MOD_TG, data(card.id, "a"));
    const before = await stateOf(track.id);
    bot.calls.length = 0;
    const [template] = await t.ctx.db.insert(declineTemplates).values({
      title: "Не наш стиль",
      text: "Спасибо, {artist}, но «{title}» не для нас",
      outcome: "declined",
    }).returning();
    for (const action of ["a", "s", "x", `t${template.id}`] as CallbackAction[]) {
      expect((await press(MOD_TG, data(card.id, action)))?.outcome).toBe("unchanged");
    }
    expect(answers().map((a) => a.text)).toEqual(
      Array(4).fill(PRESS_TEXTS.already("accepted", `@${moderator.username}`)),
    );
    expect(String(answers()[0].text)).toMatch(/^Уже решено: Принят/);
    // No templates row was shown either.
    expect(bot.calls.filter((c) => c.method === "editMessageReplyMarkup")).toHaveLength(0);
    expect(await stateOf(track.id)).toEqual(before);
    await t.ctx.db.delete(declineTemplates).where(eq(declineTemplates.id, template.id));
  });

  it("Отклонить shows the decline templates as a second row; a template's button declines with its message", async () => {
    const { track, card } = await cardedTrack();
    const templates = await t.ctx.db.insert(declineTemplates).values([
      { title: "Не наш стиль", text: "Спасибо, {artist}, но «{title}» не для {direction}", outcome: "declined" },
      { title: "Сведение", text: "Доработайте сведение", outcome: "declined" },
      { title: "Берём", text: "Берём!", outcome: "accepted" },
    ]).returning();
    expect((await press(MOD_TG, data(card.id, "x")))?.outcome).toBe("templates");
    const edit = bot.calls.find((c) => c.method === "editMessageReplyMarkup");
    expect(edit?.body).toMatchObject({ chat_id: CHAT, message_id: card.message_id });
    expect(edit?.answer).toBe("ok");
    const rows = (edit!.body.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] })
      .inline_keyboard;
    // The card's decisions first, then the decline templates (only those), then the votes.
    expect(rows.map((r) => r.map((b) => b.text))).toEqual([
      ["Принять", "В шорт-лист", "Отклонить"],
      ["Не наш стиль", "Сведение"],
      ["👍 0", "🤔 0", "👎 0"],
    ]);
    expect(rows[1][0].callback_data).toBe(data(card.id, `t${templates[0].id}`));
    // The card's record knows what the chat shows now.
    const [shown] = await t.ctx.db.select({ markup: telegramCards.shown_markup }).from(telegramCards)
      .where(eq(telegramCards.id, card.id));
    expect(JSON.parse(shown.markup!)).toEqual(edit!.body.reply_markup);
    // Pressed again while the row is shown: the same answer (Telegram refuses the unchanged edit).
    expect((await press(MOD_TG, data(card.id, "x")))?.outcome).toBe("templates");
    // Nothing decided yet.
    expect((await stateOf(track.id)).history).toHaveLength(0);

    expect((await press(MOD_TG, rows[1][0].callback_data))?.outcome).toBe("decided");
    const { pairs, messages } = await stateOf(track.id);
    expect(pairs.find((p) => p.direction === "label_koster")).toMatchObject({
      status: "declined",
      message: "Спасибо, Арт Истов, но «Ночной рейс» не для Лейбл Костёр",
    });
    expect(messages).toHaveLength(1);
    expect(answers().map((a) => a.text)).toEqual([
      PRESS_TEXTS.chooseTemplate,
      PRESS_TEXTS.chooseTemplate,
      PRESS_TEXTS.decided("declined", HOLD_S),
    ]);
    // A template of another outcome, signed properly, is refused by the decision service.
    const other = await cardedTrack();
    expect((await press(MOD_TG, data(other.card.id, `t${templates[2].id}`)))?.outcome).toBe("refused");
    expect((await stateOf(other.track.id)).history).toHaveLength(0);
    expect(answers().map((a) => a.text)).toEqual([REVIEW_TEXTS.templateOtherOutcome]);
    await t.ctx.db.delete(declineTemplates).where(isNotNull(declineTemplates.id));
  });

  it("👍 🤔 👎 go through the votes service; pressing again replaces the vote", async () => {
    const { track, card } = await cardedTrack();
    expect((await press(MOD_TG, data(card.id, "v1")))?.outcome).toBe("voted");
    expect((await press(MOD_TG, data(card.id, "v-1")))?.outcome).toBe("voted");
    const seen = await t.ctx.tracks.get(moderator, track.id);
    expect(seen.votes).toEqual([
      expect.objectContaining({ direction: "label_koster", user_id: moderator.id, vote: -1 }),
    ]);
    expect(answers().map((a) => a.text)).toEqual([PRESS_TEXTS.voted(1), PRESS_TEXTS.voted(-1)]);
  });

  it("a decision made meanwhile on the web wins: the press changes nothing", async () => {
    const { track, card } = await cardedTrack();
    // Another moderator's decision on the web first.
    await t.ctx.review.decide(
      moderator,
      track.id,
      "label_koster",
      { revision: 0, status: "declined", note: undefined, message: undefined, template_id: undefined },
      t.ctx.declineTemplates.templateOf,
    );
    const before = await stateOf(track.id);
    expect((await press(MOD_TG, data(card.id, "s")))?.outcome).toBe("unchanged");
    expect(String(answers()[0].text)).toMatch(/^Уже решено: Отклонён/);
    expect(await stateOf(track.id)).toEqual(before);
  });
});

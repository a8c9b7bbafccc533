/**
 * Issue 31 (docs/decisions/0301): one Telegram message per track and decision batch, listing each
 * direction's outcome. A track sent to two directions and decided in both within the hold gets one
 * message, whether both were decided in one call or by two people a few seconds apart; the Bot API
 * double hears what is sent.
 */
import { isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { telegramOutbox } from "../../db/schema.ts";
import { DIRECTION_LABELS } from "../../domain/directions.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { TELEGRAM_TEXT_LIMIT } from "./message-text.ts";

const HOLD_S = 60;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let bot: TelegramBotDouble;
let f: StaffFixture;
/** A moderator of show_neurogon (the fixture's moderator has label_koster). */
let neurogon: Headers;
let artist: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  bot = await startTelegramBotDouble({ now: () => nowMs });
  f = await staffFixture({
    env: {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      DECISION_NOTIFY_HOLD_S: String(HOLD_S),
      ACCESS_TOKEN_TTL_S: "864000",
    },
    clock,
  });
  neurogon = (await signIn(
    f.t.ctx,
    await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "show_neurogon" }),
  )).headers;
  artist = await createUser(f.t.ctx.db, { telegram_id: "700500600" });
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(async () => {
  bot.calls.length = 0;
  bot.delivered.length = 0;
  nowMs += 5 * HOLD_S * 1000;
  await f.t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
});

const sender = () => f.t.ctx.notifications.sender;
const panelOf = (headers: Headers) => (headers === f.as.admin ? "admin" : "moderator");

const twoDirections = () =>
  createTrack(f.t.ctx.db, {
    directions: "label_koster,show_neurogon",
    user_id: artist.id,
    filename: "Арт Истов - Два пути.mp3",
    status: "completed",
  });

async function revisions(id: number, headers: Headers) {
  const r = await f.call("GET", `/api/${panelOf(headers)}/tracks/${id}`, { headers });
  return Object.fromEntries(
    (r.body.track as { decisions: Array<{ direction: string; revision: number }> }).decisions
      .map((d) => [d.direction, d.revision]),
  );
}

async function decidePair(headers: Headers, id: number, direction: string, json: Record<string, unknown>) {
  const revision = (await revisions(id, headers))[direction];
  const r = await f.call("PUT", `/api/${panelOf(headers)}/tracks/${id}/decisions/${direction}`, {
    headers,
    json: { ...json, revision },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Runs the sender every second for `seconds` of the test's clock. */
async function sendFor(seconds: number) {
  for (let s = 0; s < seconds; s++) {
    await sender().runOnce();
    nowMs += 1_000;
  }
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("one message per track and decision batch", () => {
  it("one call deciding both directions: one message listing each direction's outcome", async () => {
    const tr = await twoDirections();
    const r = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, {
      headers: f.as.admin,
      json: {
        status: "declined",
        message: "Не в этот раз",
        revisions: await revisions(tr.id, f.as.admin),
        overrides: { show_neurogon: { status: "accepted", message: "Берём в эфир" } },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    nowMs += HOLD_S * 1000;
    await sendFor(5);
    expect(bot.delivered).toHaveLength(1);
    const text = String(bot.delivered[0].body.text);
    expect(String(bot.delivered[0].body.chat_id)).toBe(artist.telegram_id);
    expect(count(text, "Арт Истов - Два пути")).toBe(1);
    expect(count(text, "История ваших треков:")).toBe(1);
    // In the directions' order, each with its outcome and its message.
    expect(text).toContain(
      `Направление: ${DIRECTION_LABELS.label_koster}\nСтатус: <b>Отклонён</b>\n\nСообщение:\nНе в этот раз`,
    );
    expect(text).toContain(
      `Направление: ${DIRECTION_LABELS.show_neurogon}\nСтатус: <b>Принят</b>\n\nСообщение:\nБерём в эфир`,
    );
    expect(text.indexOf(DIRECTION_LABELS.label_koster)).toBeLessThan(text.indexOf(DIRECTION_LABELS.show_neurogon));
    expect((await f.t.ctx.db.select().from(telegramOutbox)).map((row) => row.status)).toEqual(["sent", "sent"]);
  });

  it("two people deciding the two directions 20 s apart: one message, when the later hold ends", async () => {
    const tr = await twoDirections();
    await decidePair(f.as.moderator, tr.id, "label_koster", { status: "accepted" });
    nowMs += 20_000;
    await decidePair(neurogon, tr.id, "show_neurogon", { status: "declined" });
    // The first decision's hold is over, the second's is not: the track's message waits for both.
    nowMs += HOLD_S * 1000 - 1;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(0);
    nowMs += 1;
    await sendFor(5);
    expect(bot.delivered).toHaveLength(1);
    const text = String(bot.delivered[0].body.text);
    expect(text).toContain(`Направление: ${DIRECTION_LABELS.label_koster}\nСтатус: <b>Принят</b>`);
    expect(text).toContain(`Направление: ${DIRECTION_LABELS.show_neurogon}\nСтатус: <b>Отклонён</b>`);
  });

  it("a direction decided after the other's message left gets a message of its own", async () => {
    const tr = await twoDirections();
    await decidePair(f.as.moderator, tr.id, "label_koster", { status: "accepted" });
    nowMs += HOLD_S * 1000;
    await sendFor(2);
    await decidePair(neurogon, tr.id, "show_neurogon", { status: "declined" });
    nowMs += HOLD_S * 1000;
    await sendFor(2);
    expect(bot.delivered).toHaveLength(2);
    expect(String(bot.delivered[0].body.text)).not.toContain(DIRECTION_LABELS.show_neurogon);
    expect(String(bot.delivered[1].body.text)).not.toContain(DIRECTION_LABELS.label_koster);
  });

  it("a failed try retries the whole message together", async () => {
    const tr = await twoDirections();
    const r = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, {
      headers: f.as.admin,
      json: { status: "accepted", revisions: await revisions(tr.id, f.as.admin) },
    });
    expect(r.status).toBe(200);
    nowMs += HOLD_S * 1000;
    bot.failNext({ kind: "server" });
    expect(await sender().runOnce()).toMatchObject({ retried: 1, sent: 0 });
    nowMs += 3_600_000;
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
    await sendFor(3);
    expect(bot.delivered).toHaveLength(1);
    expect(count(String(bot.delivered[0].body.text), "Статус: <b>Принят</b>")).toBe(2);
  });

  it("long messages in several directions stay within the Bot API's limit", async () => {
    const tr = await createTrack(f.t.ctx.db, {
      directions: "label_neuropunk,podcast_neuropunk,label_koster,podcast_koster,show_neurogon,radio_k_profit",
      user_id: artist.id,
      filename: "Арт - Шесть.mp3",
      status: "completed",
    });
    const r = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, {
      headers: f.as.admin,
      json: { status: "declined", message: '&<>"'.repeat(250), revisions: await revisions(tr.id, f.as.admin) },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    nowMs += HOLD_S * 1000;
    await sendFor(3);
    expect(bot.delivered).toHaveLength(1);
    const text = String(bot.delivered[0].body.text);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(count(text, "Статус: <b>Отклонён</b>")).toBe(6);
    expect(text).toContain("…");
    // Cut between entities, never inside one.
    for (const piece of text.split("…").slice(0, -1)) expect(piece).toMatch(/(&amp;|&lt;|&gt;|&quot;)$/);
  });
});

/**
 * Issue 20: Telegram tells each change once, in order, at a human pace. Two staff change one
 * decision over and over through the staff API; the Bot API double stamps each call with the test's
 * clock. A message still waiting is replaced by the newer one about the same decision (decision
 * 0200), a chat gets at most one message a second (0201), and a message already being sent is
 * neither lost nor overtaken.
 */
import { isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { telegramOutbox } from "../../db/schema.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { decisionChangeKey, type DecisionNotice, SUPERSEDED_BY_NEWER, SUPERSEDED_SAME_AS_TOLD } from "./outbox.ts";
import { createTelegramSender } from "./sender.ts";

let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let bot: TelegramBotDouble;
let f: StaffFixture;
/** The second member of staff: a moderator of every category. */
let other: Headers;

beforeAll(async () => {
  bot = await startTelegramBotDouble({ now: () => nowMs });
  // Coalescing and pacing without the decision hold (the hold: track-decision.test.ts).
  f = await staffFixture({
    env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url, DECISION_NOTIFY_HOLD_S: "0" },
    clock,
  });
  other =
    (await signIn(f.t.ctx, await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "*" }))).headers;
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(async () => {
  bot.calls.length = 0;
  await f.t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
});

const sender = () => f.t.ctx.notifications.sender;
const rows = async () => await f.t.ctx.db.select().from(telegramOutbox).orderBy(telegramOutbox.id);

async function artistTrack() {
  const artist = await createUser(f.t.ctx.db, { telegram_id: String(800_000_000 + Math.floor(Math.random() * 1e6)) });
  const track = await createTrack(f.t.ctx.db, {
    directions: "label_koster",
    user_id: artist.id,
    filename: "Арт - Раунды.mp3",
  });
  return { artist, track };
}

/** One member of staff opens the track's page and saves a decision from what they read. */
async function decide(headers: Headers, trackId: number, json: Record<string, unknown>) {
  const panel = headers === f.as.admin ? "admin" : "moderator";
  const read = await f.call("GET", `/api/${panel}/tracks/${trackId}`, { headers });
  const revision = (read.body.track as { decisions: Array<{ revision: number }> }).decisions[0].revision;
  const r = await f.call("PUT", `/api/${panel}/tracks/${trackId}/decisions/label_koster`, {
    headers,
    json: { ...json, revision },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Round i: one accepts, the other declines, each with a message of its own. */
async function round(trackId: number, i: number) {
  await decide(f.as.admin, trackId, { status: "accepted", message: `Берём (раунд ${i})` });
  await decide(other, trackId, { status: "declined", message: `Не берём (раунд ${i})` });
}

const roundOf = (text: unknown) => Number(/раунд (\d+)/.exec(String(text))?.[1]);

describe("two staff changing one decision thirty times", () => {
  it("while nothing is sent yet: only the latest outcome reaches the artist, once", async () => {
    const { track, artist } = await artistTrack();
    for (let i = 1; i <= 30; i++) await round(track.id, i);
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
    nowMs += 5_000;
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    expect(bot.delivered).toHaveLength(1);
    expect(String(bot.delivered[0].body.chat_id)).toBe(artist.telegram_id);
    expect(bot.delivered[0].body.text).toContain("Отклонён");
    expect(bot.delivered[0].body.text).toContain("Не берём (раунд 30)");
    // Every change is on record: 59 replaced while waiting, the last one sent.
    const all = await rows();
    expect(all).toHaveLength(60);
    expect(all.filter((r) => r.status === "superseded" && r.last_error === SUPERSEDED_BY_NEWER)).toHaveLength(59);
    expect(all.at(-1)).toMatchObject({ status: "sent" });
  });

  it("with the sender running along: in order, at least a second apart, ending on the latest outcome", async () => {
    const { track } = await artistTrack();
    for (let i = 1; i <= 30; i++) {
      await round(track.id, i);
      // Two changes took 0.2 s; the sender looks after each round.
      nowMs += 200;
      await sender().runOnce();
    }
    // Whatever still waits goes out once its second has come.
    nowMs += 1_000;
    await sender().runOnce();
    const sent = bot.delivered;
    // 6 s of changes: at most one message a second, far from sixty.
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(8);
    for (let k = 1; k < sent.length; k++) {
      expect(sent[k].at - sent[k - 1].at).toBeGreaterThanOrEqual(1_000);
      // Never an older outcome after a newer one.
      expect(roundOf(sent[k].body.text)).toBeGreaterThan(roundOf(sent[k - 1].body.text));
    }
    expect(sent.at(-1)!.body.text).toContain("Не берём (раунд 30)");
    expect((await rows()).filter((r) => r.status === "pending" || r.status === "sending")).toEqual([]);
  });
});

describe("coalescing keeps the outbox's promises", () => {
  const notice = (
    trackId: number,
    userId: number,
    revision: number,
    over: Partial<DecisionNotice> = {},
  ): DecisionNotice => ({
    key: decisionChangeKey(trackId, "label_koster", revision),
    userId,
    trackName: "Арт - Трек",
    direction: "label_koster",
    outcome: "accepted",
    message: `ревизия ${revision}`,
    ...over,
  });

  it("a message being sent is not lost and is not overtaken; if it fails, the newer one goes instead of a retry", async () => {
    const { artist, track } = await artistTrack();
    const outbox = f.t.ctx.notifications.outbox;
    for (const ending of ["ok", "fails"] as const) {
      bot.calls.length = 0;
      const base = ending === "ok" ? 0 : 10;
      await outbox.enqueue(notice(track.id, artist.id, base + 1));
      let answer!: (r: Response) => void;
      let called!: () => void;
      const reached = new Promise<void>((r) => (called = r));
      // Its first call hangs until the test answers (200: then it really goes to the double).
      let first = true;
      const slow = createTelegramSender({
        ...f.t.ctx,
        fetch: (input, init) => {
          if (!first) return fetch(input, init);
          first = false;
          called();
          return new Promise<Response>((r) => (answer = r)).then((r) => (r.status === 200 ? fetch(input, init) : r));
        },
      });
      const out = slow.runOnce();
      await reached;
      // A newer outcome arrives while the first is on its way: the first is left to finish.
      await outbox.enqueue(notice(track.id, artist.id, base + 2, { outcome: "declined" }));
      expect((await rows()).slice(-2).map((r) => r.status)).toEqual(["sending", "pending"]);
      // The chat is busy: nobody sends the newer one meanwhile, even seconds later.
      nowMs += 3_000;
      expect(await sender().runOnce()).toMatchObject({ sent: 0 });
      answer(
        ending === "ok"
          ? new Response("go")
          : new Response(JSON.stringify({ ok: false, error_code: 502 }), { status: 502 }),
      );
      await out;
      nowMs += 1_000;
      await sender().runOnce();
      const texts = bot.delivered.map((c) => String(c.body.text));
      if (ending === "ok") {
        expect(texts).toHaveLength(2);
        expect(texts[0]).toContain(`ревизия ${base + 1}`);
        expect(texts[1]).toContain(`ревизия ${base + 2}`);
      } else {
        // The failed old outcome is not retried after the newer one.
        expect(texts).toHaveLength(1);
        expect(texts[0]).toContain(`ревизия ${base + 2}`);
        expect((await rows()).slice(-2).map((r) => r.status)).toEqual(["superseded", "sent"]);
        nowMs += 3_600_000;
        expect(await sender().runOnce()).toMatchObject({ sent: 0, retried: 0 });
      }
    }
  });

  it("the same outcome as the artist was last told is recorded, not sent again", async () => {
    const { artist, track } = await artistTrack();
    const outbox = f.t.ctx.notifications.outbox;
    await outbox.enqueue(notice(track.id, artist.id, 1, { outcome: "declined", message: "Нет" }));
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
    // Accepted, then declined again with the same words, before anything more went out.
    await outbox.enqueue(notice(track.id, artist.id, 2, { outcome: "accepted", message: "Да" }));
    await outbox.enqueue(notice(track.id, artist.id, 3, { outcome: "declined", message: "Нет" }));
    nowMs += 2_000;
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    expect((await rows()).map((r) => [r.status, r.last_error])).toEqual([
      ["sent", null],
      ["superseded", SUPERSEDED_BY_NEWER],
      ["superseded", SUPERSEDED_SAME_AS_TOLD],
    ]);
    // A different outcome afterwards is news again.
    await outbox.enqueue(notice(track.id, artist.id, 4, { outcome: "accepted", message: "Передумали: берём" }));
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
    expect(bot.delivered).toHaveLength(2);
  });

  it("paces each chat to one message a second, across senders, without holding other chats back", async () => {
    const a = await artistTrack();
    const b = await artistTrack();
    const outbox = f.t.ctx.notifications.outbox;
    const second = createTelegramSender(f.t.ctx);
    // Three different decisions for artist A, one for artist B.
    const other1 = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: a.artist.id });
    const other2 = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: a.artist.id });
    for (const id of [a.track.id, other1.id, other2.id]) await outbox.enqueue(notice(id, a.artist.id, 1));
    await outbox.enqueue(notice(b.track.id, b.artist.id, 1));
    const start = nowMs;
    expect(await sender().runOnce()).toMatchObject({ sent: 2 });
    expect(await second.runOnce()).toMatchObject({ sent: 0 });
    nowMs = start + 999;
    expect(await second.runOnce()).toMatchObject({ sent: 0 });
    nowMs = start + 1_000;
    expect(await second.runOnce()).toMatchObject({ sent: 1 });
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    nowMs = start + 2_000;
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
    const toA = bot.delivered.filter((c) => String(c.body.chat_id) === a.artist.telegram_id).map((c) => c.at - start);
    expect(toA).toEqual([0, 1_000, 2_000]);
    expect(bot.delivered.filter((c) => String(c.body.chat_id) === b.artist.telegram_id)).toHaveLength(1);
  });

  it("still honours a 429's retry_after for the message it was about", async () => {
    const { artist, track } = await artistTrack();
    await f.t.ctx.notifications.outbox.enqueue(notice(track.id, artist.id, 1));
    bot.failNext({ kind: "flood", retryAfterS: 7 });
    const start = nowMs;
    expect(await sender().runOnce()).toMatchObject({ retried: 1 });
    nowMs = start + 6_999;
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    nowMs = start + 7_000;
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
  });
});

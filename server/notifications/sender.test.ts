import { eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDb } from "../../db/client.ts";
import { telegramOutbox, users } from "../../db/schema.ts";
import { DIRECTION_LABELS } from "../../domain/directions.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser } from "../testing/factories.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { createNotifications, type Notifications } from "./notifications.ts";
import { decisionChangeKey, type DecisionNotice } from "./outbox.ts";
import { backoffDelayMs, createTelegramSender, type SenderOptions } from "./sender.ts";

const START = Date.UTC(2025, 2, 1, 12, 0, 0);
let nowMs = START;
const clock = { now: () => new Date(nowMs) };
/** Jitter fixed at the middle: a retry waits exactly ¾ of the doubled delay. */
const SENDER: SenderOptions = { random: () => 0.5, baseDelayMs: 4_000, maxAttempts: 8, leaseMs: 60_000 };

let bot: TelegramBotDouble;
let t: TestApp;
let n: Notifications;
let noticeSeq = 0;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  t = await createTestApp({
    env: {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      PUBLIC_URL: "https://np.example",
      // The sender's own behaviour, without the decision hold (that is track-decision.test.ts).
      DECISION_NOTIFY_HOLD_S: "0",
    },
    clock,
  });
});
afterAll(async () => {
  await t.close();
  await bot.stop();
});
beforeEach(async () => {
  nowMs = START;
  bot.calls.length = 0;
  await t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
  n = createNotifications(t.ctx, SENDER);
});
afterEach(() => n.sender.stop());

async function artist(telegramId: string | null = String(700_000_000 + ++noticeSeq)) {
  return await createUser(t.ctx.db, { telegram_id: telegramId });
}

function notice(userId: number, over: Partial<DecisionNotice> = {}): DecisionNotice {
  noticeSeq++;
  return {
    key: decisionChangeKey(noticeSeq, "label_neuropunk", 1),
    userId,
    trackName: "Artist - Title.mp3",
    direction: "label_neuropunk",
    outcome: "accepted",
    message: "Берём в релиз",
    ...over,
  };
}

async function rows(db: Db = t.ctx.db) {
  return await db.select().from(telegramOutbox).orderBy(telegramOutbox.id);
}
async function onlyRow() {
  const all = await rows();
  expect(all).toHaveLength(1);
  return all[0];
}

describe("the outbox", () => {
  it("writes the message for an artist with a Telegram id, once per change", async () => {
    const a = await artist("5550001");
    const change = notice(a.id);
    expect(await n.outbox.enqueue(change)).toBe(true);
    expect(await n.outbox.enqueue({ ...change, message: "another text" })).toBe(false);
    const row = await onlyRow();
    expect(row).toMatchObject({ key: change.key, user_id: a.id, chat_id: "5550001", status: "pending", attempts: 0 });
    expect(row.next_attempt_at.getTime()).toBe(START);
    expect(row.text).toContain("Берём в релиз");
  });

  it("writes nothing for an artist without a Telegram id", async () => {
    const a = await artist(null);
    expect(await n.outbox.enqueue(notice(a.id))).toBe(false);
    expect(await rows()).toHaveLength(0);
  });

  it("goes into the caller's batch: written with the decision, or not at all", async () => {
    const a = await artist();
    const db = t.ctx.db;
    await db.batch([
      db.update(users).set({ bio: "decided" }).where(eq(users.id, a.id)),
      ...n.outbox.enqueueStatements(notice(a.id)),
    ]);
    expect(await rows()).toHaveLength(1);

    const other = await artist();
    // The batch fails on its last statement (a duplicate username): the message goes with it.
    await expect(db.batch([
      ...n.outbox.enqueueStatements(notice(other.id)),
      db.update(users).set({ username: a.username }).where(eq(users.id, other.id)),
    ])).rejects.toThrow();
    expect(await rows()).toHaveLength(1);
  });
});

describe("the sender", () => {
  it("sends a pending row once, as HTML to the artist's chat, and records it sent", async () => {
    const a = await artist("5550002");
    await n.outbox.enqueue(notice(a.id));
    expect(await n.sender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0, blocked: 0 });
    expect(await n.sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0, blocked: 0 });
    expect(bot.delivered).toHaveLength(1);
    const { body, token } = bot.delivered[0];
    expect(token).toBe(bot.token);
    expect(body.chat_id).toBe(5550002);
    expect(body.parse_mode).toBe("HTML");
    expect(body.text).toContain("<b>Artist - Title</b>");
    expect(body.text).toContain(DIRECTION_LABELS.label_neuropunk);
    expect(body.text).toContain("Принят");
    expect(body.text).toContain("https://np.example/profile");
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null, claim_id: null, lease_until: null });
    expect(row.sent_at?.getTime()).toBe(START);
  });

  it("retries after a 500 with back-off, and sends when the retry falls due", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    bot.failNext({ kind: "server" });
    expect(await n.sender.runOnce()).toMatchObject({ sent: 0, retried: 1 });
    let row = await onlyRow();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.last_error).toContain("500");
    expect(row.next_attempt_at.getTime()).toBe(START + 3_000);

    nowMs = START + 2_999;
    expect(await n.sender.runOnce()).toMatchObject({ sent: 0, retried: 0 });
    nowMs = START + 3_000;
    expect(await n.sender.runOnce()).toMatchObject({ sent: 1 });
    row = await onlyRow();
    expect(row).toMatchObject({ status: "sent", attempts: 2 });
    expect(bot.calls.map((c) => c.answer)).toEqual(["server", "ok"]);
  });

  it("retries after the connection drops mid-answer (the message may have arrived: at least once)", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    bot.failNext({ kind: "drop" });
    expect(await n.sender.runOnce()).toMatchObject({ retried: 1 });
    const row = await onlyRow();
    expect(row.status).toBe("pending");
    expect(row.last_error).toMatch(/^network: /);
    nowMs = row.next_attempt_at.getTime();
    expect(await n.sender.runOnce()).toMatchObject({ sent: 1 });
    expect(bot.calls.map((c) => c.answer)).toEqual(["drop", "ok"]);
  });

  it("retries when the Bot API cannot be reached, and keeps the token out of the recorded error", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closedPort = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const config = {
      ...t.ctx.config,
      telegram: { ...t.ctx.config.telegram!, botApiUrl: `http://127.0.0.1:${closedPort}` },
    };
    const sender = createTelegramSender({ ...t.ctx, config }, SENDER);
    await n.outbox.enqueue(notice((await artist()).id));
    expect(await sender.runOnce()).toMatchObject({ retried: 1 });
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.last_error).toMatch(/^network: /);
    expect(row.last_error).not.toContain(bot.token);
  });

  it("waits the retry_after a 429 gives, without counting it as a failed try", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    bot.failNext({ kind: "flood", retryAfterS: 7 });
    expect(await n.sender.runOnce()).toMatchObject({ retried: 1 });
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
    expect(row.next_attempt_at.getTime()).toBe(START + 7_000);
    expect(row.last_error).toContain("429");

    nowMs = START + 6_999;
    await n.sender.runOnce();
    expect(bot.calls).toHaveLength(1);
    nowMs = START + 7_000;
    expect(await n.sender.runOnce()).toMatchObject({ sent: 1 });
    expect(bot.calls.map((c) => c.answer)).toEqual(["flood", "ok"]);
  });

  it("records a 403 (the artist blocked the bot) and never tries that row again", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    bot.failNext({ kind: "blocked" });
    expect(await n.sender.runOnce()).toMatchObject({ blocked: 1 });
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "blocked", attempts: 1, claim_id: null });
    expect(row.last_error).toBe("403: Forbidden: bot was blocked by the user");
    nowMs = START + 30 * 86_400_000;
    await n.sender.runOnce();
    expect(bot.calls).toHaveLength(1);
  });

  it("does not retry a 400 such as chat not found", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    bot.failNext({ kind: "bad-request" });
    expect(await n.sender.runOnce()).toMatchObject({ failed: 1 });
    expect(await onlyRow()).toMatchObject({ status: "failed", last_error: "400: Bad Request: chat not found" });
    nowMs = START + 86_400_000;
    await n.sender.runOnce();
    expect(bot.calls).toHaveLength(1);
  });

  it("doubles the wait after each failure and gives up after the last attempt", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      bot.failNext({ kind: "server", status: 502 });
      await n.sender.runOnce();
      const row = await onlyRow();
      if (row.status !== "pending") break;
      waits.push(row.next_attempt_at.getTime() - nowMs);
      nowMs = row.next_attempt_at.getTime();
    }
    expect(waits).toEqual([3_000, 6_000, 12_000, 24_000, 48_000, 96_000, 192_000]);
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "failed", attempts: 8 });
    expect(row.last_error).toContain("502");
    nowMs += 86_400_000;
    await n.sender.runOnce();
    expect(bot.calls).toHaveLength(8);
  });

  it("backs off with jitter in the upper half, capped at an hour", () => {
    expect(backoffDelayMs(1, 5_000, 3_600_000, () => 0)).toBe(2_500);
    expect(backoffDelayMs(1, 5_000, 3_600_000, () => 0.999999)).toBe(5_000);
    expect(backoffDelayMs(20, 5_000, 3_600_000, () => 0)).toBe(1_800_000);
    const longest = backoffDelayMs(20, 5_000, 3_600_000, () => 0.999999);
    expect(longest).toBeGreaterThan(3_590_000);
    expect(longest).toBeLessThanOrEqual(3_600_000);
  });

  it("wakes right after a kick once started, and sends rows already waiting when it starts", async () => {
    const a = await artist();
    await n.outbox.enqueue(notice(a.id));
    const sender = createTelegramSender(t.ctx, { ...SENDER, pollIntervalMs: 3_600_000 });
    sender.kick(); // not started: nothing happens
    await sender.idle();
    expect(bot.calls).toHaveLength(0);

    sender.start();
    await sender.idle();
    expect(bot.delivered).toHaveLength(1);

    // The same chat a second later (one message a second per chat, decision 0201).
    nowMs += 1_000;
    await n.outbox.enqueue(notice(a.id));
    sender.kick();
    await sender.idle();
    expect(bot.delivered).toHaveLength(2);

    await sender.stop();
    await n.outbox.enqueue(notice(a.id));
    sender.kick();
    await sender.idle();
    expect(bot.delivered).toHaveLength(2);
    expect((await rows()).map((r) => r.status)).toEqual(["sent", "sent", "pending"]);
  });
});

describe("restarts and several processes", () => {
  let second: Db;
  beforeAll(async () => {
    second = await openDb({ url: t.ctx.config.databaseUrl });
  });
  afterAll(() => second.$client.close());

  it("a new sender over the same database sends what a stopped one left pending", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    await n.sender.stop();
    const restarted = createTelegramSender({ ...t.ctx, db: second }, SENDER);
    expect(await restarted.runOnce()).toMatchObject({ sent: 1 });
    expect(bot.delivered).toHaveLength(1);
  });

  it("a row whose sender died mid-send is sent again once the claim's lease runs out, and the late answer changes nothing", async () => {
    await n.outbox.enqueue(notice((await artist()).id));
    let answer!: (r: Response) => void;
    let called!: () => void;
    const reached = new Promise<void>((r) => (called = r));
    const hanging = createTelegramSender({
      ...t.ctx,
      fetch: () => {
        called();
        return new Promise<Response>((r) => (answer = r));
      },
    }, SENDER);
    const dying = hanging.runOnce();
    await reached;
    expect(await onlyRow()).toMatchObject({ status: "sending", attempts: 1 });

    const other = createTelegramSender({ ...t.ctx, db: second }, SENDER);
    expect(await other.runOnce()).toMatchObject({ sent: 0 });
    expect(bot.calls).toHaveLength(0);

    nowMs = START + 60_000;
    expect(await other.runOnce()).toMatchObject({ sent: 1 });
    expect(await onlyRow()).toMatchObject({ status: "sent", attempts: 2 });

    // The first process's answer arrives late (a failure here): the row it no longer holds stays sent.
    answer(new Response(JSON.stringify({ ok: false, error_code: 500, description: "late" }), { status: 500 }));
    await dying;
    expect(await onlyRow()).toMatchObject({ status: "sent", attempts: 2 });
    expect(bot.delivered).toHaveLength(1);
  });

  it("two senders working the same rows at once send each row once", async () => {
    for (let i = 0; i < 12; i++) await n.outbox.enqueue(notice((await artist()).id));
    const other = createTelegramSender({ ...t.ctx, db: second }, SENDER);
    const [x, y] = await Promise.all([n.sender.runOnce(), other.runOnce()]);
    expect(x.sent + y.sent).toBe(12);
    const chats = bot.delivered.map((c) => c.body.chat_id);
    expect(chats).toHaveLength(12);
    expect(new Set(chats).size).toBe(12);
    expect((await rows()).every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });
});

describe("without TELEGRAM_BOT_TOKEN", () => {
  it("records the message as skipped, sends nothing and fails nothing", async () => {
    const calls: string[] = [];
    const plain = await createTestApp({
      clock,
      fetch: (input) => {
        calls.push(String(input));
        return Promise.resolve(new Response("{}"));
      },
    });
    try {
      const { outbox, sender } = plain.ctx.notifications;
      expect(outbox.enabled).toBe(false);
      const a = await createUser(plain.ctx.db, { telegram_id: "5550009" });
      expect(await outbox.enqueue(notice(a.id))).toBe(true);
      sender.start();
      sender.kick();
      await sender.idle();
      expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0, blocked: 0 });
      const [row] = await plain.ctx.db.select().from(telegramOutbox);
      expect(row).toMatchObject({ status: "skipped", attempts: 0, last_error: "TELEGRAM_BOT_TOKEN is not set" });
      await sender.stop();
      expect(calls).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

/**
 * Issue 27, delivery by long polling (docs/decisions/0262): with an http PUBLIC_URL the server polls
 * `getUpdates` at TELEGRAM_BOT_API_URL once a direction has a staff chat. One instance at a time
 * holds the lease in the database; the offset is stored as each update is handled, so nothing is
 * handled twice. Two real server processes over one database file: exactly one polls (the double
 * never sees two polls open at once, which Telegram would answer with 409), and when it is killed
 * with SIGKILL the other takes over once its lease has run out, within one more lease.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { like } from "drizzle-orm";
import { type Db, openDb } from "../../../db/client.ts";
import { directionIntake, jobLeases } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { type ServerProcess, startServer } from "../../testing/server-process.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../../testing/telegram-bot-double.ts";
import { PRESS_TEXTS } from "./presses.ts";
import { createTelegramUpdates } from "./updates.ts";

/** The poller's row of the job leases (server/leases/), under the names the assertions read. */
const pollLease = async (db: Db) =>
  (await db.select().from(jobLeases).where(like(jobLeases.name, "telegram-updates:%")))
    .map((r) => ({ holder: r.owner, lease_until: r.until, next_offset: r.cursor }));

const CHAT = -1003000;
let bot: TelegramBotDouble;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
});
afterAll(() => bot.stop());

async function until<T>(read: () => Promise<T | null | undefined | false> | T | null | undefined | false, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const answersFor = (queryId: string) =>
  bot.calls.filter((c) => c.method === "answerCallbackQuery" && c.body.callback_query_id === queryId);

describe("one instance", () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it("polls only once a direction has a staff chat, handles each update once and stores the offset", async () => {
    t = await createTestApp({
      env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url, TELEGRAM_POLL_LEASE_S: "3" },
    });
    bot.calls.length = 0;
    t.ctx.telegramUpdates.start();
    await new Promise((r) => setTimeout(r, 300));
    // No staff chat: a bot used only for sign-in is not asked anything.
    expect(bot.calls).toHaveLength(0);

    await t.ctx.db.insert(directionIntake).values({
      direction: "label_koster",
      staff_chat_id: String(CHAT),
      updated_at: new Date(),
    });
    const first = bot.updates.press({ fromId: 1, chatId: CHAT, messageId: 1, data: "not-ours" });
    await until(() => answersFor(first.callback_query!.id).length > 0);
    expect(answersFor(first.callback_query!.id).map((c) => c.body.text)).toEqual([PRESS_TEXTS.forged]);
    // It asks whether the bot has a webhook first (it would not poll then), then polls for presses only.
    const methods = bot.calls.map((c) => c.method);
    expect(methods.indexOf("getWebhookInfo")).toBeGreaterThanOrEqual(0);
    expect(methods.indexOf("getWebhookInfo")).toBeLessThan(methods.indexOf("getUpdates"));
    expect(methods).not.toContain("deleteWebhook");
    expect(bot.calls.find((c) => c.method === "getUpdates")?.body).toMatchObject({
      allowed_updates: ["callback_query"],
    });
    const stored = await until(async () => {
      const [row] = await pollLease(t.ctx.db);
      return row?.next_offset === first.update_id + 1 && row;
    });
    expect(stored.holder).toBe(t.ctx.telegramUpdates.holder);
    expect(t.ctx.telegramUpdates.polling).toBe(true);

    // Stopped: the lease is given up at once; started again it polls from the stored offset.
    await t.ctx.telegramUpdates.stop();
    const [released] = await pollLease(t.ctx.db);
    expect(released.lease_until.getTime()).toBeLessThanOrEqual(Date.now());
    bot.calls.length = 0;
    t.ctx.telegramUpdates.start();
    const second = bot.updates.press({ fromId: 1, chatId: CHAT, messageId: 1, data: "still-not-ours" });
    await until(() => answersFor(second.callback_query!.id).length > 0);
    expect(bot.calls.find((c) => c.method === "getUpdates")?.body.offset).toBeGreaterThanOrEqual(first.update_id + 1);
    expect(answersFor(first.callback_query!.id)).toHaveLength(0);
    expect(bot.updates.conflicts).toBe(0);
  });
});

describe("a webhook another instance set (issue 32, decision 0302)", () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
    await botCall("deleteWebhook", {});
  });

  const botCall = async (method: string, body: Record<string, unknown>) =>
    await (await fetch(`${bot.url}/bot${bot.token}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })).json();

  it("is never deleted: this instance does not poll while it is set, says why once, and polls once it is gone", async () => {
    t = await createTestApp({
      env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url, TELEGRAM_POLL_LEASE_S: "3" },
    });
    expect(t.ctx.config.publicUrl).toMatch(/^http:/);
    await t.ctx.db.insert(directionIntake).values({
      direction: "label_koster",
      staff_chat_id: String(CHAT),
      updated_at: new Date(),
    });
    // The other instance, on an https PUBLIC_URL, has set the webhook.
    const hook = "https://other.example/api/telegram/webhook/PATHKEY";
    expect((await botCall("setWebhook", { url: hook, secret_token: "s3cret" })).ok).toBe(true);
    const logged: Array<{ level: string; msg: string; data?: Record<string, unknown> }> = [];
    const logger = {
      debug: () => {},
      info: (msg: string, data?: Record<string, unknown>) => logged.push({ level: "info", msg, data }),
      warn: (msg: string, data?: Record<string, unknown>) => logged.push({ level: "warn", msg, data }),
      error: (msg: string, data?: Record<string, unknown>) => logged.push({ level: "error", msg, data }),
    };
    const updates = createTelegramUpdates(
      { ...t.ctx, logger, desk: t.ctx.notifications.desk },
      { checkMs: 100, pollTimeoutS: 1 },
    );
    bot.calls.length = 0;
    updates.start();
    try {
      await until(() => bot.calls.filter((c) => c.method === "getWebhookInfo").length >= 3);
      const methods = bot.calls.map((c) => c.method);
      expect(methods).not.toContain("deleteWebhook");
      expect(methods).not.toContain("getUpdates");
      expect(bot.updates.webhook?.url).toBe(hook);
      expect(updates.polling).toBe(false);
      // Said once, with the reason and the webhook's origin (not its secret path).
      const said = logged.filter((l) => l.msg === "telegram updates: not polling");
      expect(said).toHaveLength(1);
      expect(said[0].level).toBe("warn");
      expect(String(said[0].data?.reason)).toContain("webhook set for https://other.example");
      expect(String(said[0].data?.reason)).not.toContain("PATHKEY");

      // The webhook removed (its instance moved to polling, or a person did it): this one polls.
      await botCall("deleteWebhook", {});
      const afterDelete = bot.calls.length;
      const press = bot.updates.press({ fromId: 1, chatId: CHAT, messageId: 1, data: "not-ours" });
      await until(() => answersFor(press.callback_query!.id).length > 0);
      expect(updates.polling).toBe(true);

      // Set again while it polls: the open poll ends, polling stops, the webhook stays.
      expect((await botCall("setWebhook", { url: hook, secret_token: "s3cret" })).ok).toBe(true);
      await until(() => !updates.polling);
      const before = bot.calls.length;
      await until(() => bot.calls.slice(before).filter((c) => c.method === "getWebhookInfo").length >= 2);
      expect(bot.calls.slice(afterDelete).map((c) => c.method)).not.toContain("deleteWebhook");
      expect(bot.calls.slice(before).map((c) => c.method)).not.toContain("getUpdates");
      expect(bot.updates.webhook?.url).toBe(hook);
      expect(logged.filter((l) => l.msg === "telegram updates: not polling")).toHaveLength(2);
    } finally {
      await updates.stop();
    }
  });
});

describe("two server processes over one database", () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it("exactly one polls; killed, the other takes over within the lease, from the stored offset", async () => {
    const LEASE_S = 3;
    const env = {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      TELEGRAM_POLL_LEASE_S: String(LEASE_S),
    };
    const a = await startServer(env);
    servers.push(a);
    const dbUrl = `file:${a.dataDir}/app.db`;
    const b = await startServer({ ...env, DATABASE_URL: dbUrl });
    servers.push(b);
    const db = await openDb({ url: dbUrl });
    try {
      const conflictsBefore = bot.updates.conflicts;
      await db.insert(directionIntake).values({
        direction: "label_koster",
        staff_chat_id: String(CHAT),
        updated_at: new Date(),
      });
      const lease = async () => (await pollLease(db))[0];
      const pidOf = (holder: string) => Number(holder.split(":")[1]);

      // One of the two takes the lease and polls; over two more leases it keeps it, and the double
      // never has two polls open (Telegram would end one with 409 Conflict).
      const held = await until(async () => (await lease())?.lease_until.getTime() > Date.now() && (await lease()));
      const holderPid = pidOf(held.holder);
      expect([a.pid, b.pid]).toContain(holderPid);
      await new Promise((r) => setTimeout(r, 2 * LEASE_S * 1000));
      expect(pidOf((await lease()).holder)).toBe(holderPid);
      // Its long poll is open at the double (nothing came, so it is still the one call).
      expect(bot.updates.openPolls).toBe(1);
      expect(bot.calls.filter((c) => c.method === "getUpdates").length).toBeGreaterThan(0);
      expect(bot.updates.maxOpenPolls).toBe(1);
      expect(bot.updates.conflicts).toBe(conflictsBefore);

      const first = bot.updates.press({ fromId: 2, chatId: CHAT, messageId: 1, data: "forged" });
      await until(() => answersFor(first.callback_query!.id).length > 0);
      await until(async () => (await lease()).next_offset === first.update_id + 1);

      // The holder dies without a word: its lease stays until it runs out, then the other takes it.
      const [holder, other] = holderPid === a.pid ? [a, b] : [b, a];
      const deadUntil = (await lease()).lease_until.getTime();
      await holder.crash();
      const taken = await until(async () => {
        const row = await lease();
        return pidOf(row.holder) === other.pid && row;
      }, 10 * LEASE_S * 1000);
      // Taken once the dead one's lease had run out (never both), within one more lease.
      const takenAt = taken.lease_until.getTime() - LEASE_S * 1000;
      expect(takenAt).toBeGreaterThanOrEqual(deadUntil - 50);
      // (Read from the row, whose renewals only move it later, this is no earlier than the taking.)
      expect(takenAt - deadUntil).toBeLessThanOrEqual(LEASE_S * 1000);

      // The new poller starts after the update already handled: a new press is answered once, the
      // old one never again.
      const second = bot.updates.press({ fromId: 2, chatId: CHAT, messageId: 1, data: "forged-again" });
      await until(() => answersFor(second.callback_query!.id).length > 0);
      await new Promise((r) => setTimeout(r, 500));
      expect(answersFor(second.callback_query!.id)).toHaveLength(1);
      expect(answersFor(first.callback_query!.id)).toHaveLength(1);
      expect(bot.updates.maxOpenPolls).toBe(1);
      expect(bot.updates.conflicts).toBe(conflictsBefore);
    } finally {
      db.$client.close();
    }
  }, 90_000);
});

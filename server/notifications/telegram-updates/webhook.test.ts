/**
 * Issue 27, delivery by webhook (docs/decisions/0262): with an https PUBLIC_URL and a staff chat
 * set, the server calls setWebhook (an unguessable path, a secret_token, callback queries only) and
 * serves that path; a call without the right X-Telegram-Bot-Api-Secret-Token is refused with 401
 * and handles nothing; a wrong path is 404; the right call handles the press. With an http
 * PUBLIC_URL or without a bot token there is no webhook route at all.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directionIntake, telegramCards, trackDecisions } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createTrack, createUser } from "../../testing/factories.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../../testing/telegram-bot-double.ts";
import { pressUpdate } from "../../testing/telegram-bot-updates.ts";
import { callbackSecret, encodeCallback } from "../telegram-desk/callback-data.ts";
import { PRESS_TEXTS } from "./presses.ts";
import { webhookSecrets } from "./updates.ts";
import { WEBHOOK_TEXTS } from "./webhook-routes.ts";

const PUBLIC = "https://desk.example.ru";
const CHAT = -1002000;
const MOD_TG = 556_000_001;

let bot: TelegramBotDouble;
let t: TestApp;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  t = await createTestApp({
    env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url, PUBLIC_URL: PUBLIC },
  });
  await t.ctx.db.insert(directionIntake).values({
    direction: "label_koster",
    staff_chat_id: String(CHAT),
    updated_at: new Date(),
  });
});
afterAll(async () => {
  await t.ctx.telegramUpdates.stop();
  await t.close();
  await bot.stop();
});

/** The app in this process, as the address Telegram posts to. */
const local =
  ((input: string | URL | Request, init?: RequestInit) =>
    Promise.resolve(t.app.request(String(input), init))) as typeof fetch;

async function waitFor<T>(read: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out");
}

describe("the webhook", () => {
  it("is set at start with an unguessable path, a secret_token and callback queries only", async () => {
    expect(t.ctx.telegramUpdates.mode).toBe("webhook");
    t.ctx.telegramUpdates.start();
    const hook = await waitFor(() => bot.updates.webhook);
    const { pathKey, secretToken } = webhookSecrets(t.ctx.config.jwtSecret, bot.token);
    expect(hook).toEqual({
      url: `${PUBLIC}/api/telegram/webhook/${pathKey}`,
      secret_token: secretToken,
      allowed_updates: ["callback_query"],
    });
    expect(pathKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(secretToken.length).toBeGreaterThanOrEqual(32);
    // Never polls meanwhile.
    expect(bot.calls.filter((c) => c.method === "getUpdates")).toHaveLength(0);
  });

  it("refuses a call without the right secret header (401) and handles nothing; a wrong path is 404", async () => {
    const moderator = await createUser(t.ctx.db, {
      is_moderator: true,
      moderator_categories: "label_koster",
      telegram_id: String(MOD_TG),
    });
    const track = await createTrack(t.ctx.db, { directions: "label_koster", user_id: null });
    const [card] = await t.ctx.db.insert(telegramCards).values({
      track_id: track.id,
      direction: "label_koster",
      chat_id: String(CHAT),
      message_id: 9,
      state: "sent",
    }).returning();
    const accept = pressUpdate({
      fromId: MOD_TG,
      chatId: CHAT,
      messageId: 9,
      data: encodeCallback(callbackSecret(t.ctx.config.jwtSecret), card.id, "a"),
    });
    const opts = { fetch: local, origin: "http://localhost" };
    bot.calls.length = 0;
    for (const secret of [null, "", "wrong-secret", `${bot.updates.webhook!.secret_token}x`]) {
      const res = await bot.updates.deliverWebhook(accept, { ...opts, secret });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: WEBHOOK_TEXTS.badSecret });
    }
    // The right secret on another path: no such route.
    const guessed = await bot.updates.deliverWebhook(accept, {
      ...opts,
      url: `${PUBLIC}/api/telegram/webhook/${"A".repeat(32)}`,
    });
    expect(guessed.status).toBe(404);
    expect((await guessed.json()).success).toBe(false);
    expect(bot.calls.filter((c) => c.method === "answerCallbackQuery")).toHaveLength(0);
    expect(await t.ctx.db.select().from(trackDecisions).where(eq(trackDecisions.track_id, track.id))).toEqual([]);

    // A body that is not an update, with the right secret: 400.
    const junk = await local(`http://localhost${new URL(bot.updates.webhook!.url).pathname}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "X-Telegram-Bot-Api-Secret-Token": bot.updates.webhook!.secret_token!,
      },
      body: JSON.stringify({ hello: 1 }),
    });
    expect(junk.status).toBe(400);
    expect(await junk.json()).toEqual({ success: false, error: WEBHOOK_TEXTS.badUpdate });

    // As Telegram sends it: handled and answered before the 200.
    const res = await bot.updates.deliverWebhook(accept, opts);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const [pair] = await t.ctx.db.select().from(trackDecisions).where(eq(trackDecisions.track_id, track.id));
    expect(pair).toMatchObject({ status: "accepted", decided_by: moderator.id });
    expect(bot.calls.filter((c) => c.method === "answerCallbackQuery").map((c) => c.body.text)).toEqual([
      PRESS_TEXTS.decided("accepted", t.ctx.config.decisionNotifyHoldS),
    ]);
  });
});

describe("without a webhook", () => {
  it("an http PUBLIC_URL polls instead: no route; no bot token: nothing runs", async () => {
    const polling = await createTestApp({
      env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url, PUBLIC_URL: "http://localhost:8000" },
    });
    const off = await createTestApp({ env: { PUBLIC_URL: PUBLIC } });
    try {
      expect(polling.ctx.telegramUpdates.mode).toBe("polling");
      expect(off.ctx.telegramUpdates.mode).toBe("off");
      for (const app of [polling, off]) {
        const { pathKey, secretToken } = webhookSecrets(app.ctx.config.jwtSecret, bot.token);
        const res = await app.app.request(`/api/telegram/webhook/${pathKey}`, {
          method: "POST",
          headers: { "content-type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secretToken },
          body: JSON.stringify({ update_id: 1 }),
        });
        expect(res.status).toBe(404);
      }
      bot.calls.length = 0;
      off.ctx.telegramUpdates.start();
      await new Promise((r) => setTimeout(r, 100));
      expect(bot.calls).toHaveLength(0);
    } finally {
      await off.ctx.telegramUpdates.stop();
      await polling.close();
      await off.close();
    }
  });
});

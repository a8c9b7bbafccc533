import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import type { AppContext } from "../../wiring.ts";
import { badRequest, notFound, unauthorized } from "../../lib/http-error.ts";
import { parseUpdate, WEBHOOK_ROUTE } from "./updates.ts";

/** Refusals of the webhook route (decision 0262). */
export const WEBHOOK_TEXTS = {
  badSecret: "Неверный секретный токен Telegram",
  badUpdate: "Некорректное обновление Telegram",
} as const;

const same = (a: string, b: string) => {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * POST /api/telegram/webhook/{key} (issue 27, docs/decisions/0262): Telegram's calls with the bot's
 * updates, served only in webhook mode (https PUBLIC_URL with a bot token). A key other than the
 * derived one is 404, as for any path that does not exist; a call without the right
 * `X-Telegram-Bot-Api-Secret-Token` is 401 and nothing is read; an update is handled before the
 * answer, so a press is answered (answerCallbackQuery) by the time Telegram hears 200.
 */
export function createTelegramWebhookRoutes(ctx: Pick<AppContext, "telegramUpdates">) {
  return new Hono<AppEnv>().post(`${WEBHOOK_ROUTE}/:key`, async (c) => {
    const hook = ctx.telegramUpdates.webhook;
    if (!hook || !same(c.req.param("key"), hook.pathKey)) throw notFound();
    if (!same(c.req.header("X-Telegram-Bot-Api-Secret-Token") ?? "", hook.secretToken)) {
      throw unauthorized(WEBHOOK_TEXTS.badSecret);
    }
    const update = parseUpdate(await c.req.json().catch(() => null));
    if (!update) throw badRequest(WEBHOOK_TEXTS.badUpdate);
    await ctx.telegramUpdates.handleUpdate(update);
    return c.json({ success: true as const }, 200);
  });
}

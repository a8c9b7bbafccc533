import { type Context, Hono } from "hono";
import { LinkRefused, linkTelegram, normalizePhone, telegramIdentity } from "../auth/accounts.ts";
import { publicAddresses } from "../http/public-static.ts";
import { userView } from "../auth/user-view.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { badRequest, conflict, unauthorized } from "../lib/http-error.ts";

const EMPTY = "Укажите номер телефона или данные авторизации Telegram";

async function readBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    return await c.req.parseBody().catch(() => ({}));
  }
  const text = (await c.req.text()).trim();
  if (!text) return {};
  try {
    const body = JSON.parse(text);
    if (body && typeof body === "object" && !Array.isArray(body)) return body;
  } catch { /* reported below */ }
  throw badRequest("Некорректные данные запроса");
}

/**
 * POST /api/profile/link-accounts (spec 1 §7). Nothing is linked on a claim alone: a Telegram
 * identity needs a valid signed result, used once (docs/decisions/0017); a phone only waits until
 * this account's own signed-in session starts a VK sign-in (the profile) whose VK-verified phone
 * matches, for a VK identity that has no account here yet, and never moves or deletes an existing
 * account (docs/decisions/0011, 0018, 0204).
 */
export function createLinkAccountsRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().post("/link-accounts", ctx.guards.user, async (c) => {
    const body = await readBody(c);
    const action = typeof body.action === "string" ? body.action : "";
    const current = c.get("user");

    if (action === "link_vk_to_telegram") {
      const raw = body.telegram_hash ?? body.tgAuthResult;
      if (raw === undefined || raw === null || raw === "") throw badRequest(EMPTY);
      const identity = await telegramIdentity(ctx, raw);
      try {
        const user = await linkTelegram(ctx, current, identity);
        return c.json({
          success: true,
          message: "Telegram успешно привязан к вашему аккаунту",
          user: userView(user, publicAddresses(ctx.publicStorage)),
        });
      } catch (err) {
        if (err instanceof LinkRefused) throw conflict(err.message);
        throw err;
      }
    }

    if (action === "link_telegram_to_vk") {
      const raw = typeof body.phone_number === "string" ? body.phone_number.trim() : "";
      if (!raw) throw badRequest(EMPTY);
      const phone = normalizePhone(raw);
      if (!phone) throw badRequest("Некорректный номер телефона");
      if (current.vk_id) throw conflict("К вашему аккаунту уже привязан ВКонтакте.");
      if (await ctx.users.phoneClaimedByAnother(phone, current.id)) {
        throw conflict("Этот номер уже ожидает привязки к другому аккаунту. Обратитесь к администратору.");
      }
      const user = await ctx.users.update(current.id, { pending_vk_link_phone: phone });
      // Deleted by an administrator a moment ago: the session is gone with it.
      if (!user) throw unauthorized("Недействительный или истёкший токен");
      return c.json({
        success: true,
        message:
          "Номер сохранён. Войдите через ВКонтакте с аккаунтом, к которому привязан этот номер, — аккаунты будут связаны.",
        user: userView(user, publicAddresses(ctx.publicStorage)),
      });
    }

    if (!action && body.phone_number === undefined && body.telegram_hash === undefined) throw badRequest(EMPTY);
    throw badRequest("Неизвестное действие: ожидается link_vk_to_telegram или link_telegram_to_vk");
  });
}

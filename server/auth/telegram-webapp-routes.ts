import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { ApiError } from "../lib/http-error.ts";
import { accountForIdentity, startSession } from "./accounts.ts";
import { banError } from "./guards.ts";
import { parseWebAppLaunch, verifyWebAppInitData } from "./telegram-webapp.ts";
import { userView } from "./user-view.ts";
import { publicAddresses } from "../http/public-static.ts";

/** POST /api/auth/telegram/webapp's body: the Mini App's launch data as Telegram gave it. */
export const webAppBody = z.object({
  init_data: z.string({ error: "Не переданы данные запуска Telegram" })
    .min(1, "Не переданы данные запуска Telegram")
    .max(8192, "Некорректные данные запуска Telegram"),
});

/** PUT /api/auth/telegram/webapp/write-access: what `requestWriteAccess` answered in the Mini App. */
export const writeAccessBody = z.object({ allowed: z.boolean({ error: "Укажите allowed: true или false" }) });

/**
 * POST /api/auth/telegram/webapp (issue 36): a Telegram Mini App launch signs in as the same account
 * as the Telegram login for that id (created if new; 403 when banned), with the same tokens and
 * rate limit as the other sign-ins. The launch data is checked, never logged or echoed back.
 */
export async function webAppSignIn(ctx: AppContext, c: Context<AppEnv>, initData: string) {
  // Malformed data is the person's mistake whatever the configuration (400 before 503).
  const parsed = parseWebAppLaunch(initData);
  const tg = ctx.config.telegram;
  if (!tg) throw new ApiError(503, "Вход через Telegram не настроен");
  const launch = await verifyWebAppInitData(parsed, {
    botToken: tg.botToken,
    maxAgeS: tg.maxAgeS,
    nowS: Math.floor(ctx.clock.now().getTime() / 1000),
  });
  const found = await accountForIdentity(ctx, {
    provider: "telegram",
    id: launch.id,
    first_name: launch.first_name,
    last_name: launch.last_name,
    username: launch.username,
  });
  if (found.user.is_banned) throw banError(found.user);
  const user = found.user.allows_write_to_pm === launch.allows_write_to_pm
    ? found.user
    : (await ctx.users.update(found.user.id, { allows_write_to_pm: launch.allows_write_to_pm })) ?? found.user;
  const tokens = await startSession(ctx, user, c.req.header("user-agent"));
  c.header("Cache-Control", "no-store");
  return c.json({
    success: true as const,
    ...tokens,
    user: userView(user, publicAddresses(ctx.publicStorage)),
    allows_write_to_pm: Boolean(user.allows_write_to_pm),
  });
}

/** PUT /api/auth/telegram/webapp/write-access: stores the signed-in person's answer. */
export async function storeWriteAccess(ctx: AppContext, c: Context<AppEnv>, allowed: boolean) {
  const user = c.get("user");
  if (!user.telegram_id) throw new ApiError(409, "К аккаунту не привязан Telegram");
  await ctx.users.update(user.id, { allows_write_to_pm: allowed });
  return c.json({ success: true as const, allows_write_to_pm: allowed });
}

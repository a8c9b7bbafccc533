import type { Context, MiddlewareHandler } from "hono";
import { bearerToken } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { linkSigner, LISTEN_PREFIX, verifyDownloadToken } from "../tracks/downloads/token.ts";
import { ApiError } from "../lib/http-error.ts";

/** The maintenance screen's words (spec 1 §2, spec 2 "Maintenance mode"), as the API says them. */
export const MAINTENANCE_MESSAGE = "Ведутся технические работы. Сайт временно недоступен, пожалуйста, зайдите позже.";

/**
 * What the maintenance screen and an administrator's sign-in need, open to everyone while
 * maintenance is on (docs/decisions/0090-maintenance-mode-on-the-server.md): the public config (the
 * client's maintenance flag), health checks, the sign-in calls of both providers, the token calls and
 * the account check that tells the client whether the person is an administrator.
 */
export const MAINTENANCE_OPEN_PATHS: ReadonlySet<string> = new Set([
  "/api/config",
  "/api/health",
  "/api/auth/oauth/urls",
  "/api/auth/oauth/vk/callback",
  "/api/auth/oauth/login-code",
  "/api/auth/oauth/telegram/complete",
  "/api/auth/refresh",
  "/api/auth/logout",
  "/api/auth/me",
]);

/**
 * Whether an `/api` path is answered for everyone at this moment: maintenance off, or one of the
 * open paths. The gate and the lanes in front of the router (decisions 0180, 0186) both ask this.
 */
export function openToAll(config: { maintenance: boolean }, path: string): boolean {
  return !config.maintenance || MAINTENANCE_OPEN_PATHS.has(path);
}

const DOWNLOAD_PREFIX = "/api/downloads/";

/**
 * While `MAINTENANCE_MODE` is on, every `/api` call but the open ones answers 503 with the maintenance
 * text unless it comes from a signed-in administrator. A bearer token is checked by the very guard
 * every signed-in route uses, so an expired token is a 401 (the client renews it and asks again) and
 * a banned account gets its ban text, exactly as outside maintenance. A download or listening link
 * carries no bearer: its signer decides.
 */
export function maintenanceGate(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const closed = () => new ApiError(503, MAINTENANCE_MESSAGE, { maintenance: true });

  async function isAdminCall(c: Context<AppEnv>): Promise<boolean> {
    if (bearerToken(c.req.header("authorization"))) {
      await ctx.guards.user(c, () => Promise.resolve());
      return c.get("user")?.is_admin === true;
    }
    const link = c.req.path.startsWith(DOWNLOAD_PREFIX)
      ? { token: c.req.path.slice(DOWNLOAD_PREFIX.length), typ: "download" as const }
      : c.req.path.startsWith(LISTEN_PREFIX)
      ? { token: c.req.path.slice(LISTEN_PREFIX.length), typ: "listen" as const }
      : null;
    if (link) {
      const claims = await verifyDownloadToken(ctx, link.token, link.typ);
      if (!claims) return false;
      const signer = await linkSigner(ctx, claims);
      return Boolean(signer?.is_admin);
    }
    return false;
  }

  return async (c, next) => {
    const path = c.req.path.length > 1 && c.req.path.endsWith("/") ? c.req.path.slice(0, -1) : c.req.path;
    if (openToAll(ctx.config, path)) return await next();
    if (!(await isAdminCall(c))) throw closed();
    await next();
  };
}

import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { eq, lt } from "drizzle-orm";
import { loginCodes, type OauthSession, oauthSessions, telegramAuthUses, type User } from "../../db/schema.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";

/**
 * What the sign-in flow must remember between its steps, kept in the database so that sign-in works
 * whether or not the status store answers (docs/decisions/0016, 0017):
 * - the sign-in sessions a browser started (VK state and PKCE verifier), bound to that browser by an
 *   HttpOnly cookie, and taken once;
 * - the Telegram results already used, so that one signed result makes one sign-in or link.
 */

/** Lifetime of a started sign-in (VK state, verifier, browser binding). */
export const OAUTH_STATE_TTL_S = 600;

/** The cookie that ties a started sign-in to the browser that started it. */
export const BROWSER_COOKIE = "oauth_browser";
const BROWSER_COOKIE_PATH = "/api/auth/oauth";
const BROWSER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Told to the person when a sign-in was not started in this browser, has expired or was used. */
export const SIGN_IN_SESSION_INVALID = "Сессия авторизации истекла или недействительна. Попробуйте войти снова.";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function newBrowserToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The hash of this request's browser-binding cookie; null when it carries none. */
export async function browserHashOf(c: Context<AppEnv>): Promise<string | null> {
  const token = getCookie(c, BROWSER_COOKIE);
  return token && BROWSER_TOKEN.test(token) ? await sha256Hex(token) : null;
}

/**
 * The browser's binding: the cookie it already has, or a new one. The cookie is set again each time
 * so that it outlives every sign-in started with it. One value per browser, not per attempt: the
 * page fetches a fresh set of addresses right after opening a provider window, and a new value then
 * would orphan the attempt in progress.
 */
async function bindBrowser(ctx: AppContext, c: Context<AppEnv>): Promise<string> {
  const existing = getCookie(c, BROWSER_COOKIE);
  const token = existing && BROWSER_TOKEN.test(existing) ? existing : newBrowserToken();
  setCookie(c, BROWSER_COOKIE, token, {
    path: BROWSER_COOKIE_PATH,
    httpOnly: true,
    // Lax: the cookie must come along when VK sends the browser back to /login, a top-level
    // navigation from another site.
    sameSite: "Lax",
    secure: new URL(ctx.config.publicUrl).protocol === "https:",
    maxAge: OAUTH_STATE_TTL_S,
  });
  return await sha256Hex(token);
}

/** Records a sign-in this browser starts; expired ones are swept in the same batch. */
export async function startSignIn(
  ctx: AppContext,
  c: Context<AppEnv>,
  p: { sessionId: string; vkState: string | null; vkVerifier: string | null; linkUserId?: number | null },
): Promise<void> {
  const browserHash = await bindBrowser(ctx, c);
  const now = ctx.clock.now();
  await ctx.db.batch([
    ctx.db.delete(oauthSessions).where(lt(oauthSessions.expires_at, now)),
    ctx.db.insert(oauthSessions).values({
      id: p.sessionId,
      vk_state: p.vkState,
      vk_verifier: p.vkVerifier,
      browser_hash: browserHash,
      link_user_id: p.linkUserId ?? null,
      expires_at: new Date(now.getTime() + OAUTH_STATE_TTL_S * 1000),
      created_at: now,
    }),
  ]);
}

/**
 * Takes (reads and deletes in one statement) the sign-in `sessionId` names. Null, and a warning in
 * the log, when there is none, it has expired, or this request does not come from the browser that
 * started it. Taken even then: a session shown to the wrong browser is not tried again.
 */
export async function takeSignIn(ctx: AppContext, c: Context<AppEnv>, sessionId: string): Promise<OauthSession | null> {
  if (!sessionId) return null;
  const [row] = await ctx.db.delete(oauthSessions).where(eq(oauthSessions.id, sessionId)).returning();
  if (!row) return null;
  if (row.expires_at.getTime() <= ctx.clock.now().getTime()) return null;
  if (row.browser_hash !== await browserHashOf(c)) {
    ctx.logger.warn("sign-in refused: started in another browser", { session: sessionId.slice(0, 8) });
    return null;
  }
  return row;
}

/**
 * Marks a verified Telegram result as used. False when it was used before (a replay). The record is
 * kept until `auth_date + maxAgeS`, after which the result is refused as too old anyway.
 */
export async function spendTelegramResult(
  ctx: AppContext,
  result: { hash: string; id: string; auth_date: number },
  maxAgeS: number,
): Promise<boolean> {
  const now = ctx.clock.now();
  const [, inserted] = await ctx.db.batch([
    ctx.db.delete(telegramAuthUses).where(lt(telegramAuthUses.expires_at, now)),
    ctx.db.insert(telegramAuthUses).values({
      hash: result.hash.toLowerCase(),
      telegram_id: result.id,
      expires_at: new Date((result.auth_date + maxAgeS + 1) * 1000),
      created_at: now,
    }).onConflictDoNothing().returning({ hash: telegramAuthUses.hash }),
  ]);
  return inserted.length === 1;
}

/** Lifetime of a login code: the page exchanges it as soon as it loads. */
export const LOGIN_CODE_TTL_S = 60;
const LOGIN_CODE = /^[A-Za-z0-9_-]{43}$/;

/** Told to the person when a login code is unknown, used, expired or brought by another browser. */
export const LOGIN_CODE_INVALID = "Код входа недействителен или устарел. Попробуйте войти снова.";

/**
 * A one-time code for `user`, for the browser that started the sign-in (its binding hash): what the
 * VK callback puts in the address instead of tokens, so no proxy's access log keeps a session
 * (decision 0202). Only the code's hash is stored; expired codes are swept in the same batch.
 */
export async function issueLoginCode(
  ctx: AppContext,
  p: { user: User; browserHash: string; userAgent?: string | null },
): Promise<string> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const code = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const now = ctx.clock.now();
  await ctx.db.batch([
    ctx.db.delete(loginCodes).where(lt(loginCodes.expires_at, now)),
    ctx.db.insert(loginCodes).values({
      code_hash: await sha256Hex(code),
      user_id: p.user.id,
      browser_hash: p.browserHash,
      user_agent: p.userAgent?.slice(0, 300) ?? null,
      expires_at: new Date(now.getTime() + LOGIN_CODE_TTL_S * 1000),
      created_at: now,
    }),
  ]);
  return code;
}

/**
 * Takes (reads and deletes in one statement) a login code: the user id and user agent it was made
 * for, or null when it is malformed, unknown, used, expired, or this request does not come from the
 * browser that started the sign-in. Taken even then, so a code is tried once.
 */
export async function takeLoginCode(
  ctx: AppContext,
  c: Context<AppEnv>,
  code: string,
): Promise<{ userId: number; userAgent: string | null } | null> {
  if (!LOGIN_CODE.test(code)) return null;
  const [row] = await ctx.db.delete(loginCodes).where(eq(loginCodes.code_hash, await sha256Hex(code))).returning();
  if (!row) return null;
  if (row.expires_at.getTime() <= ctx.clock.now().getTime()) return null;
  if (row.browser_hash !== await browserHashOf(c)) {
    ctx.logger.warn("login code refused: brought by another browser", { user_id: row.user_id });
    return null;
  }
  return { userId: row.user_id, userAgent: row.user_agent };
}

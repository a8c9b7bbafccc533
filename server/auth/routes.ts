import { Hono } from "hono";
import type { Context } from "hono";
import type { User } from "../../db/schema.ts";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { badRequest, unauthorized } from "../lib/http-error.ts";
import { validate } from "../http/validate.ts";
import { accountForIdentity, LinkRefused, linkVk, startSession, telegramIdentity } from "./accounts.ts";
import { acceptedSession, banError, banMessage, bannedOwner, bearerToken } from "./guards.ts";
import { clientAddress, perAddressLimit, perAddressLimiter, RATE_LIMIT_MESSAGE, rateLimit } from "./rate-limit.ts";
import {
  issueLoginCode,
  LOGIN_CODE_INVALID,
  SIGN_IN_SESSION_INVALID,
  startSignIn,
  takeLoginCode,
  takeSignIn,
} from "./sign-in-store.ts";
import { EMPTY_AUTH_DATA } from "./telegram.ts";
import { publicAddresses } from "../http/public-static.ts";
import { jsonBytes, laneOf, signedInUser } from "../http/lanes.ts";
import { COMPRESS_JSON_MIN } from "../http/edge-middleware.ts";
import { meAnswer, userView } from "./user-view.ts";
import { storeWriteAccess, webAppBody, webAppSignIn, writeAccessBody } from "./telegram-webapp-routes.ts";
import { createPkce, exchangeVkCode, fetchVkUser, randomToken, vkAuthorizeUrl, VkError } from "./vk.ts";

const SESSION_ID_LENGTH = 32;
const newSessionId = () =>
  [...crypto.getRandomValues(new Uint8Array(SESSION_ID_LENGTH / 2))].map((b) => b.toString(16).padStart(2, "0")).join(
    "",
  );

/**
 * The state starts with the session id, so the callback (which VK reaches with code, state and
 * device_id only) finds the verifier even when the browser lost its `oauth_session_id`.
 */
const sessionIdOfState = (state: string) => new RegExp(`^[0-9a-f]{${SESSION_ID_LENGTH}}`).exec(state)?.[0] ?? null;

const VK_STATE_INVALID = SIGN_IN_SESSION_INVALID;
const VK_MISSING = "Отсутствуют необходимые данные для авторизации. Пожалуйста, попробуйте снова.";

const vkCallbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  device_id: z.string().max(512).optional(),
  frontend_redirect: z.string().max(2048).optional(),
  error: z.string().max(512).optional(),
  error_description: z.string().max(1024).optional(),
});

const loginCodeBody = z.object({
  login_code: z.string({ error: "Не указан код входа" }).min(1, "Не указан код входа").max(
    128,
    "Некорректный код входа",
  ),
});

/** Reads a JSON or form body without failing on an empty or non-JSON one. */
async function readLooseBody(c: Context<AppEnv>): Promise<Record<string, unknown> | string | null> {
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const form = await c.req.parseBody().catch(() => ({}));
    return Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string"));
  }
  const text = (await c.req.text()).trim();
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? value
      : typeof value === "string"
      ? value
      : text;
  } catch {
    return text;
  }
}

/** The Telegram result from a body: `{ tgAuthResult }`, the bare fields, or the raw string. */
export function tgAuthFromBody(body: Record<string, unknown> | string | null, key = "tgAuthResult"): unknown {
  if (body === null || typeof body === "string") return body;
  if (key in body) return body[key];
  if ("hash" in body || "id" in body) {
    // The sign-in's session id travels beside the fields; it is not one of Telegram's.
    const { session_id: _session, ...fields } = body;
    return fields;
  }
  return undefined;
}

/** The sign-in session a Telegram completion names (`session_id` beside the result). */
const sessionIdFromBody = (body: Record<string, unknown> | string | null): string => {
  const id = body && typeof body === "object" ? body.session_id : undefined;
  return typeof id === "string" && /^[0-9a-f]{32}$/.test(id) ? id : "";
};

const utf8 = new TextEncoder();

/**
 * GET /api/auth/me (every page load of a signed-in user) and its lane in front of the router
 * (server/http/lanes.ts, decision 0186): the route's answer (`meAnswer`, `no-store`) for a live token
 * of a user who is not banned (`signedInUser`, the guard's first path); anything else goes to the
 * route. It stays open in maintenance, as the gate keeps it. The session cache hands out one user
 * object until that user or session changes (tokens.ts): the lane serialises its answer once per object.
 */
export const meLane = laneOf((ctx) => {
  const address = publicAddresses(ctx.publicStorage);
  const bodies = new WeakMap<User, Uint8Array>();
  const answer = (_req: Request, _id: number, user: User): Response | null => {
    let body = bodies.get(user);
    if (!body) {
      body = utf8.encode(JSON.stringify(meAnswer(user, address)));
      // Long enough to go compressed: the route sends it.
      if (body.byteLength >= COMPRESS_JSON_MIN) return null;
      bodies.set(user, body);
    }
    return jsonBytes(body);
  };
  return {
    name: "signed-in user",
    path: "/me",
    head: false,
    checks: ["signedIn"],
    route: (c: Context<AppEnv>) => {
      c.header("Cache-Control", "no-store");
      return c.json(meAnswer(c.get("user"), address));
    },
    answer: (req, id) => signedInUser(ctx, req, id, answer),
  };
});

/** GET /api/auth/oauth/urls: a new sign-in session and the providers' addresses to start it at. */
export async function oauthUrls(ctx: AppContext, c: Context<AppEnv>, publicOrigin: string) {
  c.header("Cache-Control", "no-store");
  const sessionId = newSessionId();
  let vk: string | null = null;
  let vkState: string | null = null;
  let vkVerifier: string | null = null;
  if (ctx.config.vk) {
    const { verifier, challenge } = await createPkce();
    vkState = sessionId + randomToken(32);
    vkVerifier = verifier;
    vk = vkAuthorizeUrl(ctx.config.vk, { state: vkState, challenge });
  }
  // Asked from a signed-in session (the profile): a VK sign-in started here links VK to that
  // account instead of signing anyone in (decision 0204). A stale or bad token is a plain start.
  const bearer = bearerToken(c.req.header("authorization"));
  const signedIn = bearer && ctx.config.vk ? await acceptedSession(ctx.tokens, bearer) : null;
  // Kept in the database, bound to this browser: sign-in does not wait on the status store
  // (docs/decisions/0016).
  if (ctx.config.vk || ctx.config.telegram) {
    await startSignIn(ctx, c, { sessionId, vkState, vkVerifier, linkUserId: signedIn?.user.id ?? null });
  }
  let telegram: string | null = null;
  if (ctx.config.telegram) {
    const url = new URL(`${ctx.config.telegram.oauthUrl}/auth`);
    url.search = new URLSearchParams({
      bot_id: ctx.config.telegram.botId,
      origin: publicOrigin,
      request_access: "write",
      return_to: `${publicOrigin}/auth/telegram/callback`,
    }).toString();
    telegram = url.toString();
  }
  return c.json({ success: true, vk, telegram, session_id: sessionId });
}

/**
 * GET /api/auth/oauth/vk/callback: VK's answer, back to the front end at `target` with a one-time
 * login code (or the link made, a ban's message, an error).
 */
export async function vkCallback(
  ctx: AppContext,
  c: Context<AppEnv>,
  q: z.infer<typeof vkCallbackQuery>,
  limiter: ReturnType<typeof perAddressLimiter>,
  target: URL,
) {
  const back = (params: Record<string, string>) => {
    const url = new URL(target);
    for (
      const k of [
        "access_token",
        "refresh_token",
        "login_code",
        "vk_linked",
        "ban_message",
        "error",
        "code",
        "state",
        "device_id",
      ]
    ) {
      url.searchParams.delete(k);
    }
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(url.toString(), 302);
  };

  if (!(await limiter.hit(clientAddress(c, ctx.config.trustedProxyHops))).ok) {
    return back({ error: RATE_LIMIT_MESSAGE });
  }
  if (!ctx.config.vk) return back({ error: "Вход через ВКонтакте не настроен" });
  if (q.error) return back({ error: q.error_description || q.error });
  if (!q.code || !q.state || !q.device_id) return back({ error: VK_MISSING });

  // The state must be one this browser started (its binding cookie), unexpired and unused: a
  // code and state started elsewhere sign nobody in here.
  const sessionId = sessionIdOfState(q.state);
  const record = sessionId ? await takeSignIn(ctx, c, sessionId) : null;
  if (!record?.vk_state || !record.vk_verifier || record.vk_state !== q.state) {
    return back({ error: VK_STATE_INVALID });
  }

  try {
    const vkToken = await exchangeVkCode(ctx.fetch, ctx.config.vk, {
      code: q.code,
      verifier: record.vk_verifier,
      deviceId: q.device_id,
      state: q.state,
    });
    const vkUser = await fetchVkUser(ctx.fetch, ctx.config.vk, vkToken);
    const identity = {
      provider: "vk" as const,
      id: vkUser.user_id,
      first_name: vkUser.first_name,
      last_name: vkUser.last_name,
      phone: vkUser.phone,
    };
    // Started from a signed-in account's profile: link, sign nobody in (decision 0204).
    if (record.link_user_id !== null) {
      await linkVk(ctx, record.link_user_id, identity);
      await bindVkMessages(ctx, record.link_user_id, vkUser.user_id);
      return back({ vk_linked: "1" });
    }
    const { user } = await accountForIdentity(ctx, identity);
    if (user.is_banned) return back({ ban_message: banMessage(user) });
    await bindVkMessages(ctx, user.id, vkUser.user_id);
    // No tokens in the address, where access logs keep it: a one-time code the page exchanges
    // (decision 0202).
    const loginCode = await issueLoginCode(ctx, {
      user,
      browserHash: record.browser_hash,
      userAgent: c.req.header("user-agent"),
    });
    return back({ login_code: loginCode });
  } catch (err) {
    if (err instanceof VkError) {
      ctx.logger.warn("vk sign-in failed", { reason: err.message });
      return back({ error: err.message });
    }
    if (err instanceof LinkRefused) return back({ error: err.message });
    throw err;
  }
}

/**
 * Issue 36: an artist signed in with VK ID is the VK user the community writes to, at once; VK says
 * whether they allow it (`messages.isMessagesFromGroupAllowed`). Never stops the sign-in.
 */
async function bindVkMessages(ctx: AppContext, userId: number, vkId: string) {
  try {
    await ctx.notifications.vk.bindSignedIn(userId, vkId);
  } catch (err) {
    ctx.logger.warn("vk messages: binding at sign-in failed", { err });
  }
}

/** Sign-in, tokens and sessions: /api/auth/*. */
export function createAuthRoutes(ctx: AppContext) {
  const me = meLane(ctx);
  // Sign-in calls share one count per address; token renewal has its own (perAddressLimit below).
  const limiter = perAddressLimiter(ctx, "signin");
  const limited = rateLimit(limiter, ctx.config.trustedProxyHops);
  const publicOrigin = new URL(ctx.config.publicUrl).origin;

  /** The front-end address to come back to; only PUBLIC_URL's origin (no open redirect). */
  const frontendTarget = (raw: string | undefined): URL => {
    if (!raw) return new URL("/auth/vk/callback", publicOrigin);
    let url: URL;
    try {
      url = new URL(raw, publicOrigin);
    } catch {
      throw badRequest("Недопустимый адрес возврата");
    }
    if (url.origin !== publicOrigin || !["http:", "https:"].includes(url.protocol)) {
      throw badRequest("Недопустимый адрес возврата");
    }
    return url;
  };

  return new Hono<AppEnv>()
    .get("/oauth/urls", limited, (c) => oauthUrls(ctx, c, publicOrigin))
    .get(
      "/oauth/vk/callback",
      validate("query", vkCallbackQuery),
      (c) => vkCallback(ctx, c, c.req.valid("query"), limiter, frontendTarget(c.req.valid("query").frontend_redirect)),
    )
    .post("/oauth/login-code", limited, validate("json", loginCodeBody), async (c) => {
      // The VK callback's one-time code, exchanged once, by the browser that started the sign-in,
      // for the session (decision 0202).
      const taken = await takeLoginCode(ctx, c, c.req.valid("json").login_code);
      if (!taken) throw unauthorized(LOGIN_CODE_INVALID);
      const user = await ctx.users.byId(taken.userId);
      if (!user) throw unauthorized(LOGIN_CODE_INVALID);
      if (user.is_banned) throw banError(user);
      const tokens = await startSession(ctx, user, taken.userAgent ?? c.req.header("user-agent"));
      return c.json({ success: true, ...tokens, user: userView(user, publicAddresses(ctx.publicStorage)) });
    })
    .post("/oauth/telegram/complete", limited, async (c) => {
      // Empty input is the person's mistake whatever the configuration (spec 1 §5).
      const body = await readLooseBody(c);
      const input = tgAuthFromBody(body);
      if (input === undefined) throw badRequest(EMPTY_AUTH_DATA);
      const identity = await telegramIdentity(ctx, input);
      // Only in the browser that started a Telegram sign-in moments before (docs/decisions/0017).
      if (!(await takeSignIn(ctx, c, sessionIdFromBody(body)))) throw unauthorized(SIGN_IN_SESSION_INVALID);
      const { user } = await accountForIdentity(ctx, identity);
      if (user.is_banned) throw banError(user);
      const tokens = await startSession(ctx, user, c.req.header("user-agent"));
      return c.json({ success: true, ...tokens, user: userView(user, publicAddresses(ctx.publicStorage)) });
    })
    // The Telegram Mini App (issue 36): its launch data signs in; the bot's write access stored.
    .post(
      "/telegram/webapp",
      limited,
      validate("json", webAppBody),
      (c) => webAppSignIn(ctx, c, c.req.valid("json").init_data),
    )
    .put(
      "/telegram/webapp/write-access",
      ctx.guards.user,
      validate("json", writeAccessBody),
      (c) => storeWriteAccess(ctx, c, c.req.valid("json").allowed),
    )
    .post("/refresh", perAddressLimit(ctx, "refresh"), async (c) => {
      const token = bearerToken(c.req.header("authorization"));
      if (!token) throw unauthorized("Требуется токен обновления");
      const result = await ctx.tokens.refresh(token);
      if (!result) {
        const banned = await bannedOwner(ctx, token);
        if (banned) throw banError(banned);
        throw unauthorized("Недействительный или истёкший токен обновления");
      }
      if (result.user.is_banned) throw banError(result.user);
      return c.json({ success: true, access_token: result.access_token, refresh_token: result.refresh_token });
    })
    .post("/logout", async (c) => {
      const token = bearerToken(c.req.header("authorization"));
      if (!token) throw unauthorized();
      // A banned user may still end their session, so this does not go through the user guard.
      if (!(await ctx.tokens.revokeByToken(token))) throw unauthorized("Недействительный или истёкший токен");
      return c.json({ success: true, message: "Вы успешно вышли из системы." });
    })
    .get(me.path, ctx.guards.user, me.route);
}

import { createMiddleware } from "hono/factory";
import { banMessage as banText } from "../../domain/ban.ts";
import { scopeOf } from "../../domain/scope.ts";
import type { User } from "../../db/schema.ts";
import type { AppEnv } from "../deps.ts";
import { forbidden, unauthorized } from "../lib/http-error.ts";
import type { UsersService } from "../users/service.ts";
import type { TokenService } from "./tokens.ts";

export function bearerToken(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}

export function banMessage(user: Pick<User, "ban_reason">): string {
  return banText(user.ban_reason);
}

export function banError(user: Pick<User, "ban_reason">) {
  const message = banMessage(user);
  return forbidden(message, { ban_reason: message, banned: true });
}

/** Staff flags as the guards and moderator checks see them. Admins count as moderators of `*`. */
export function roleOf(user: User) {
  return { isAdmin: user.is_admin, isModerator: user.is_admin || user.is_moderator, categories: scopeOf(user) };
}

/**
 * The owner of a genuine, unexpired token when that owner is banned, even if the ban revoked the
 * session: so the person is told about the ban rather than silently signed out.
 */
export async function bannedOwner(
  ctx: { tokens: Pick<TokenService, "ownerOf">; users: Pick<UsersService, "byId"> },
  token: string,
): Promise<User | null> {
  const id = await ctx.tokens.ownerOf(token);
  const owner = id === null ? undefined : await ctx.users.byId(id);
  return owner?.is_banned ? owner : null;
}

type Accepted = { user: User; sessionId: string };

/**
 * The one test of a bearer token every signed-in path applies (the guard and the lanes in front of
 * the router, decisions 0180, 0186): a live session of a user who is not banned, or null. Without a
 * promise when the token and its session are answered from memory (decision 0188).
 */
export function acceptedSession(
  tokens: Pick<TokenService, "authenticate" | "authenticateCached">,
  token: string,
): Accepted | null | Promise<Accepted | null> {
  const ok = (found: Accepted | null | undefined) => (found && !found.user.is_banned ? found : null);
  const cached = tokens.authenticateCached(token);
  return cached ? ok(cached) : tokens.authenticate(token).then(ok);
}

export function createGuards(tokens: TokenService, users: Pick<UsersService, "byId">) {
  /** Signed in and not banned; sets `user` and `sessionId`. */
  const user = createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw unauthorized("Требуется авторизация");
    const found = await acceptedSession(tokens, token);
    if (!found) {
      // Refused: a banned owner is told about the ban (their session may still be live, or revoked by it).
      const banned = await bannedOwner({ tokens, users }, token);
      if (banned) throw banError(banned);
      throw unauthorized("Недействительный или истёкший токен");
    }
    c.set("user", found.user);
    c.set("sessionId", found.sessionId);
    await next();
  });

  const admin = createMiddleware<AppEnv>(async (c, next) => {
    if (!c.get("user")?.is_admin) throw forbidden("Доступ только для администраторов");
    await next();
  });

  /** Moderators and admins. */
  const staff = createMiddleware<AppEnv>(async (c, next) => {
    const u = c.get("user");
    if (!u || !(u.is_admin || u.is_moderator)) throw forbidden("Доступ только для модераторов");
    await next();
  });

  return { user, admin, staff };
}

export type Guards = ReturnType<typeof createGuards>;

import { and, eq, isNull } from "drizzle-orm";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../db/client.ts";
import { sessions, type User, users } from "../../db/schema.ts";

/**
 * Access and refresh tokens (jose, HS256 pinned). Both carry the session id `sid`; a session row
 * makes logout, bans and refresh rotation take effect at once.
 */
export type TokenType = "access" | "refresh";

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

export interface TokenService {
  issue(userId: number, userAgent?: string | null): Promise<TokenPair>;
  /** Verifies an access token and loads its live session and user; null when it is not valid. */
  authenticate(token: string): Promise<{ user: User; sessionId: string } | null>;
  /**
   * `authenticate` without a promise when its answer is an acceptance from the caches alone (the
   * token verified before and unexpired, its live session cached): then the same answer. Undefined
   * in every other case, where the caller asks `authenticate` (decision 0188).
   */
  authenticateCached(token: string): { user: User; sessionId: string } | undefined;
  /**
   * The user of a live session (not signed out, revoked or expired), from the session cache when it
   * is fresh: what a signed download or listening link checks on every use (decision 0203).
   */
  sessionUser(sessionId: string): Promise<User | null>;
  /** Rotates: the old refresh token stops working. Null when the token is not a live refresh token. */
  refresh(token: string): Promise<(TokenPair & { user: User }) | null>;
  revokeSession(sessionId: string): Promise<void>;
  /**
   * Ends the session an access token or the current refresh token belongs to (logout works even
   * when the access token has just expired). False when the token names no live session.
   */
  revokeByToken(token: string): Promise<boolean>;
  revokeUser(userId: number): Promise<void>;
  /** Drops cached sessions of a user whose row changed, so the next call sees the change. */
  forgetUser(userId: number): void;
  /**
   * The user id a genuine, unexpired access or refresh token names, whether or not its session is
   * still live: a ban revokes the session, and the person should still be told about the ban
   * (`bannedOwner` in guards.ts) rather than silently signed out.
   */
  ownerOf(token: string): Promise<number | null>;
}

const ALG = "HS256";
const ISSUER = "neuropunk-demo";

/**
 * Sessions and verified tokens are cached briefly in the process: the status page polls, staff
 * pages fire several calls at once, and a database round trip plus an HMAC check per call was most
 * of each request's cost (bench/hot-paths.bench.ts). Every write that matters (logout, ban, role or
 * profile change, refresh) drops the entry at once; the TTL only bounds staleness for writes made
 * by another process sharing a remote database.
 */
const SESSION_CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

function boundedSet<K, V>(map: Map<K, V>, key: K, value: V) {
  if (map.size >= CACHE_MAX) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

type Claims = { sid: string; jti: string; userId: number; typ: unknown; exp: number };

/**
 * Signs tokens and verifies them, keeping the claims of tokens verified before (bounded) so a token
 * seen again costs no HMAC.
 */
export function createTokenSigner(opts: { secret: string; now: () => Date }) {
  // Imported once: jose would otherwise import the raw secret on every call.
  const key = crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(opts.secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const verified = new Map<string, Claims>();
  const nowS = () => Math.floor(opts.now().getTime() / 1000);

  const sign = async (typ: TokenType, userId: number, sid: string, jti: string, ttl: number) =>
    new SignJWT({ typ, sid })
      .setProtectedHeader({ alg: ALG, typ: "JWT" })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setJti(jti)
      .setIssuedAt(nowS())
      .setExpirationTime(nowS() + ttl)
      .sign(await key);

  /**
   * The claims of a token verified before: undefined when not cached, null when expired (and then
   * forgotten) or of another type. `verify` and `authenticateCached` both decide through this.
   */
  const cachedClaims = (token: string, typ: TokenType) => {
    const claims = verified.get(token);
    if (!claims) return undefined;
    return checkedClaims(token, claims, typ);
  };
  const checkedClaims = (token: string, claims: NonNullable<ReturnType<typeof verified.get>>, typ: TokenType) => {
    if (claims.exp <= opts.now().getTime() / 1000) {
      verified.delete(token);
      return null;
    }
    if (claims.typ !== typ) return null;
    return { sid: claims.sid, jti: claims.jti, userId: claims.userId };
  };

  const verify = async (token: string, typ: TokenType) => {
    if (!token || token.length > 4096) return null;
    const known = cachedClaims(token, typ);
    if (known !== undefined) return known;
    let claims;
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: [ALG],
        issuer: ISSUER,
        currentDate: opts.now(),
      });
      if (typeof payload.sid !== "string" || !payload.jti || !payload.sub || !payload.exp) return null;
      claims = { sid: payload.sid, jti: payload.jti, userId: Number(payload.sub), typ: payload.typ, exp: payload.exp };
      boundedSet(verified, token, claims);
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
    return checkedClaims(token, claims, typ);
  };

  return { sign, verify, cachedClaims };
}

export function createTokenService(opts: {
  db: Db;
  secret: string;
  accessTtlS: number;
  refreshTtlS: number;
  now: () => Date;
}): TokenService {
  const { sign, verify, cachedClaims } = createTokenSigner(opts);
  type Row = { session: typeof sessions.$inferSelect; user: User };
  const sessionCache = new Map<string, { row: Row; until: number }>();

  /**
   * The session and its user, unless revoked or expired. `fresh` skips the cache (refresh, logout).
   * The one read of `users` outside the users service: joined to the session, authentication stays
   * one round trip, and this is the cache every write of that service drops (docs/decisions/0120).
   */
  /** The cached session row while the cache entry is fresh: null when it has expired, undefined when not cached. */
  const cachedSession = (sid: string): Row | null | undefined => {
    const hit = sessionCache.get(sid);
    if (!hit || hit.until <= Date.now()) return undefined;
    return unexpired(hit.row);
  };
  const unexpired = (
    row: Row | undefined,
  ) => (!row || row.session.expires_at.getTime() <= opts.now().getTime() ? null : row);

  const liveSession = async (sid: string, fresh = false): Promise<Row | null> => {
    const cached = fresh ? undefined : cachedSession(sid);
    if (cached !== undefined) return cached;
    const rows = await opts.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.user_id))
      .where(and(eq(sessions.id, sid), isNull(sessions.revoked_at)))
      .limit(1);
    const row: Row | undefined = rows[0];
    if (row) boundedSet(sessionCache, sid, { row, until: Date.now() + SESSION_CACHE_MS });
    else sessionCache.delete(sid);
    return unexpired(row);
  };

  const forgetUser = (userId: number) => {
    for (const [sid, entry] of sessionCache) if (entry.row.user.id === userId) sessionCache.delete(sid);
  };

  const pair = async (userId: number, sid: string, refreshJti: string): Promise<TokenPair> => ({
    access_token: await sign("access", userId, sid, crypto.randomUUID(), opts.accessTtlS),
    refresh_token: await sign("refresh", userId, sid, refreshJti, opts.refreshTtlS),
  });

  const revokeSession = async (sessionId: string) => {
    sessionCache.delete(sessionId);
    await opts.db.update(sessions).set({ revoked_at: opts.now() }).where(
      and(eq(sessions.id, sessionId), isNull(sessions.revoked_at)),
    );
  };

  return {
    async issue(userId, userAgent) {
      const sid = crypto.randomUUID();
      const refreshJti = crypto.randomUUID();
      const now = opts.now();
      await opts.db.insert(sessions).values({
        id: sid,
        user_id: userId,
        refresh_jti: refreshJti,
        expires_at: new Date(now.getTime() + opts.refreshTtlS * 1000),
        user_agent: userAgent?.slice(0, 300) ?? null,
        created_at: now,
        updated_at: now,
      });
      return pair(userId, sid, refreshJti);
    },
    authenticateCached(token) {
      // The cached halves of `authenticate`'s own checks; anything it would have to look up (or
      // refuse) is left to it.
      const claims = cachedClaims(token, "access");
      if (!claims) return undefined;
      const row = cachedSession(claims.sid);
      if (!row || row.user.id !== claims.userId) return undefined;
      return { user: row.user, sessionId: claims.sid };
    },
    async authenticate(token) {
      const claims = await verify(token, "access");
      if (!claims) return null;
      const row = await liveSession(claims.sid);
      if (!row || row.user.id !== claims.userId) return null;
      return { user: row.user, sessionId: claims.sid };
    },
    async sessionUser(sessionId) {
      if (!sessionId || sessionId.length > 64) return null;
      return (await liveSession(sessionId))?.user ?? null;
    },
    async refresh(token) {
      const claims = await verify(token, "refresh");
      if (!claims) return null;
      const row = await liveSession(claims.sid, true);
      if (!row || row.user.id !== claims.userId || row.session.refresh_jti !== claims.jti) return null;
      const nextJti = crypto.randomUUID();
      const now = opts.now();
      // Compare-and-set on the jti so two concurrent refreshes cannot both win.
      const updated = await opts.db
        .update(sessions)
        .set({
          refresh_jti: nextJti,
          expires_at: new Date(now.getTime() + opts.refreshTtlS * 1000),
          updated_at: now,
        })
        .where(and(eq(sessions.id, claims.sid), eq(sessions.refresh_jti, claims.jti)))
        .returning({ id: sessions.id });
      sessionCache.delete(claims.sid);
      if (updated.length === 0) return null;
      return { ...(await pair(row.user.id, claims.sid, nextJti)), user: row.user };
    },
    revokeSession,
    async revokeByToken(token) {
      const access = await verify(token, "access");
      const refresh = access ? null : await verify(token, "refresh");
      const claims = access ?? refresh;
      if (!claims) return false;
      const row = await liveSession(claims.sid, true);
      if (!row || row.user.id !== claims.userId) return false;
      if (refresh && row.session.refresh_jti !== refresh.jti) return false;
      await revokeSession(claims.sid);
      return true;
    },
    async ownerOf(token) {
      const claims = (await verify(token, "access")) ?? (await verify(token, "refresh"));
      if (!claims || !Number.isSafeInteger(claims.userId)) return null;
      return claims.userId;
    },
    forgetUser,
    async revokeUser(userId) {
      await opts.db.update(sessions).set({ revoked_at: opts.now() }).where(
        and(eq(sessions.user_id, userId), isNull(sessions.revoked_at)),
      );
      // After the write, so a request racing it cannot re-cache the session as live.
      forgetUser(userId);
    },
  };
}

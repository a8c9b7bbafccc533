import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { User } from "../../../db/schema.ts";
import type { AppDeps } from "../../deps.ts";
import type { AppContext } from "../../wiring.ts";

/**
 * Download links: a short-lived JWT in the path, scoped to track ids and to the staff member who
 * asked for it. A browser tab opened on the link carries no Authorization header, so the link itself
 * is the credential; its own `typ` keeps it from being accepted as an access token and vice versa.
 * Each link names the signer's session (`sid`) and the moment it was made (`at`, ms): it dies with
 * that session, and with any change of the signer's rights made after it (decision 0203).
 */
export const DOWNLOAD_TOKEN_TTL_S = 5 * 60;
/**
 * Listening links (the player's `<audio src>`) are made the same way with their own `typ`, so neither
 * kind opens the other's door. They live longer: the player asks for byte ranges whenever the person
 * seeks, for as long as the track stays open (docs/decisions/0102-listening-links.md).
 */
export const LISTEN_TOKEN_TTL_S = 30 * 60;
const ALG = "HS256";
const ISSUER = "neuropunk-demo";
/**
 * `own-listen`: an artist's link to their own file (the history's player, decision 0232), made and
 * checked like a staff listening link but opening only the signer's own tracks.
 */
type LinkTyp = "download" | "listen" | "own-listen";
const TTL_S: Record<LinkTyp, number> = {
  download: DOWNLOAD_TOKEN_TTL_S,
  listen: LISTEN_TOKEN_TTL_S,
  "own-listen": LISTEN_TOKEN_TTL_S,
};

type Ctx = Pick<AppDeps, "config" | "clock">;

/** Who signs a link: the staff member and the session they are signed in with. */
export interface LinkSigner {
  userId: number;
  sessionId: string;
}

export interface LinkClaims extends LinkSigner {
  trackIds: number[];
  /** When the link was made, in ms. */
  issuedAtMs: number;
}

/** The signing key, made once per configuration: every seek of the player verifies a link. */
const keys = new WeakMap<object, Uint8Array>();
function keyOf(ctx: Ctx): Uint8Array {
  let key = keys.get(ctx.config);
  if (!key) keys.set(ctx.config, key = new TextEncoder().encode(ctx.config.jwtSecret));
  return key;
}

export async function signDownloadToken(
  ctx: Ctx,
  signer: LinkSigner,
  trackIds: readonly number[],
  typ: LinkTyp = "download",
): Promise<string> {
  // One reading of the clock: the issue time, the expiry and `at` (checked against rights changes) agree.
  const now = ctx.clock.now().getTime();
  const issuedS = Math.floor(now / 1000);
  return await new SignJWT({ typ, tids: [...trackIds], sid: signer.sessionId, at: now })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(String(signer.userId))
    .setIssuer(ISSUER)
    .setJti(crypto.randomUUID())
    .setIssuedAt(issuedS)
    .setExpirationTime(issuedS + TTL_S[typ])
    .sign(keyOf(ctx));
}

/** The signer and the tracks of a valid token; null when forged, expired or not a download token. */
export async function verifyDownloadToken(
  ctx: Ctx,
  token: string,
  typ: LinkTyp = "download",
): Promise<LinkClaims | null> {
  if (!token || token.length > 8192) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(ctx), {
      algorithms: [ALG],
      issuer: ISSUER,
      currentDate: ctx.clock.now(),
    });
    const tids = payload.tids;
    const userId = Number(payload.sub);
    if (payload.typ !== typ || !Number.isSafeInteger(userId) || !Array.isArray(tids) || tids.length === 0) return null;
    if (!tids.every((n) => Number.isSafeInteger(n) && n > 0)) return null;
    const { sid, at } = payload;
    if (typeof sid !== "string" || !sid || typeof at !== "number" || !Number.isSafeInteger(at)) return null;
    return { userId, sessionId: sid, trackIds: tids as number[], issuedAtMs: at };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
}

/**
 * The signer of a link as they are now, or null when the link must be refused: the session it was
 * made in has ended (signed out, revoked by a ban, expired), the signer is banned or no longer staff,
 * or their rights changed after the link was made (a demotion stays final for the link even when
 * the rights come back within its lifetime). The session comes from the token service's cache, so a
 * player's seeks cost no database round trip (decisions 0172, 0203).
 */
export async function linkSigner(ctx: Pick<AppContext, "tokens">, claims: LinkClaims): Promise<User | null> {
  const signer = await ctx.tokens.sessionUser(claims.sessionId);
  if (!signer || signer.id !== claims.userId || signer.is_banned || !(signer.is_admin || signer.is_moderator)) {
    return null;
  }
  if (signer.rights_changed_at && signer.rights_changed_at.getTime() >= claims.issuedAtMs) return null;
  return signer;
}

/**
 * The signer of an artist's own listening link as they are now, or null: the same rules as
 * `linkSigner` without the staff role (the track's owner is checked when the file is read).
 */
export async function ownLinkSigner(ctx: Pick<AppContext, "tokens">, claims: LinkClaims): Promise<User | null> {
  const signer = await ctx.tokens.sessionUser(claims.sessionId);
  if (!signer || signer.id !== claims.userId || signer.is_banned) return null;
  if (signer.rights_changed_at && signer.rights_changed_at.getTime() >= claims.issuedAtMs) return null;
  return signer;
}

export function downloadUrl(token: string): string {
  return `/api/downloads/${token}`;
}

export const LISTEN_PREFIX = "/api/listen/";

export function listenUrl(token: string): string {
  return `${LISTEN_PREFIX}${token}`;
}

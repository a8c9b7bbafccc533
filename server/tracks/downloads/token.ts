import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { AppContext } from "../../deps.ts";

/**
 * Download links: a short-lived JWT in the path, scoped to track ids and to the staff member who
 * asked for it. A browser tab opened on the link carries no Authorization header, so the link itself
 * is the credential; its own `typ` keeps it from being accepted as an access token and vice versa.
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
type LinkTyp = "download" | "listen";
const TTL_S: Record<LinkTyp, number> = { download: DOWNLOAD_TOKEN_TTL_S, listen: LISTEN_TOKEN_TTL_S };

type Ctx = Pick<AppContext, "config" | "clock">;

const keyOf = (ctx: Ctx) => new TextEncoder().encode(ctx.config.jwtSecret);
const nowS = (ctx: Ctx) => Math.floor(ctx.clock.now().getTime() / 1000);

export async function signDownloadToken(
  ctx: Ctx,
  userId: number,
  trackIds: readonly number[],
  typ: LinkTyp = "download",
): Promise<string> {
  return await new SignJWT({ typ, tids: [...trackIds] })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setJti(crypto.randomUUID())
    .setIssuedAt(nowS(ctx))
    .setExpirationTime(nowS(ctx) + TTL_S[typ])
    .sign(keyOf(ctx));
}

/** The signer and the tracks of a valid token; null when forged, expired or not a download token. */
export async function verifyDownloadToken(
  ctx: Ctx,
  token: string,
  typ: LinkTyp = "download",
): Promise<{ userId: number; trackIds: number[] } | null> {
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
    return { userId, trackIds: tids as number[] };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
}

export function downloadUrl(token: string): string {
  return `/api/downloads/${token}`;
}

export const LISTEN_PREFIX = "/api/listen/";

export function listenUrl(token: string): string {
  return `${LISTEN_PREFIX}${token}`;
}

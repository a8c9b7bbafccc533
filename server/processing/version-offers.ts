import { and, desc, eq, ne } from "drizzle-orm";
import { trackFingerprints, tracks, trackVersions, versionOffers } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import {
  bitErrorRate,
  codesFromBytes,
  FINGERPRINT_VERSION,
  HOP_SECONDS,
  MATCH_MAX_BER,
  MATCH_MIN_CODES,
} from "../audio/fingerprint.ts";

/**
 * The automatic offer of a new version (issue 37, docs/decisions/0407): a completed upload whose
 * audio is close to an earlier completed track of the same artist but is not the same recording is
 * offered to them as its new version. Built on the existing fingerprint's bit error rate (the
 * speed-robust "partial match" of issue 38 was not on main when this was written): at the best
 * offset within ±`SEARCH_S`, over at least MATCH_MIN_CODES codes, a rate up to MATCH_MAX_BER is the
 * same recording (the duplicate check's own rule: it stays a duplicate), one up to `SIMILAR_MAX_BER`
 * is similar, anything above is another piece (unrelated audio sits near 0.5).
 */
export const SIMILAR_MAX_BER = 0.32;
/** How far a new intro or a cut may shift the version against the earlier track. */
export const SEARCH_S = 12;
/** The artist's most recent tracks compared (an artist has few; this bounds a prolific one). */
const MAX_COMPARED = 50;

export type VersionRelation = "identical" | "similar" | null;

/** The best bit error rate of `query` against `stored` at any offset within ±SEARCH_S. */
export function bestRate(stored: Uint32Array, query: Uint32Array): number | null {
  const span = Math.ceil(SEARCH_S / HOP_SECONDS);
  let best: number | null = null;
  for (let o = -span; o <= span; o++) {
    const { ber, compared } = bitErrorRate(stored, query, o);
    if (compared >= MATCH_MIN_CODES && (best === null || ber < best)) best = ber;
  }
  return best;
}

export function versionRelation(stored: Uint32Array, query: Uint32Array): VersionRelation {
  const ber = bestRate(stored, query);
  if (ber === null) return null;
  if (ber <= MATCH_MAX_BER) return "identical";
  return ber <= SIMILAR_MAX_BER ? "similar" : null;
}

/**
 * After a completion: the closest similar earlier track of the same artist, recorded as an offer
 * (nothing for a track already sent as a version, a guest's, or one with no similar track).
 */
export async function offerVersion(db: Db, trackId: number, codes: Uint32Array, at: Date): Promise<number | null> {
  const [self] = await db.select({ user: tracks.user_id }).from(tracks).where(eq(tracks.id, trackId));
  if (!self?.user) return null;
  const [linked] = await db.select({ id: trackVersions.track_id }).from(trackVersions)
    .where(eq(trackVersions.track_id, trackId));
  if (linked) return null;
  const earlier = await db.select({ id: tracks.id, codes: trackFingerprints.codes }).from(tracks)
    .innerJoin(trackFingerprints, eq(trackFingerprints.track_id, tracks.id))
    .where(and(
      eq(tracks.user_id, self.user),
      ne(tracks.id, trackId),
      eq(tracks.status, "completed"),
      eq(trackFingerprints.version, FINGERPRINT_VERSION),
    ))
    .orderBy(desc(tracks.upload_date)).limit(MAX_COMPARED);
  let best: { id: number; ber: number } | null = null;
  for (const e of earlier) {
    const ber = bestRate(codesFromBytes(e.codes), codes);
    if (ber === null || ber <= MATCH_MAX_BER || ber > SIMILAR_MAX_BER) continue;
    if (!best || ber < best.ber) best = { id: e.id, ber };
  }
  if (!best) return null;
  await db.insert(versionOffers).values({ track_id: trackId, similar_to: best.id, ber: best.ber, created_at: at })
    .onConflictDoNothing();
  return best.id;
}

import { and, desc, eq, ne } from "drizzle-orm";
import { trackFingerprints, tracks, trackVersions, versionOffers } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { FINGERPRINT_VERSION, HOP_SECONDS, type PrintCodes } from "../audio/fingerprint-codes.ts";
import { audioMatchKind, compare } from "../audio/fingerprint-compare.ts";
import { printFromBytes } from "../audio/fingerprint-index.ts";

/**
 * The automatic offer of a new version (issue 37, docs/decisions/0407): a completed upload that is
 * another version of an earlier track of the same artist (an edit, a remix, a new mixdown), not the
 * same recording, is offered to them as its new version. First issue 38's lookup (`matches`, kind
 * "version"); when it finds none, the artist's own recent tracks are laid on the new one at every
 * offset within ±SEARCH_S (a new intro shifts it by a fraction of a hop, which the index's single
 * offset misses): a bit error rate up to SIMILAR_MAX_BER that is not "same" is similar. The same
 * recording stays a duplicate: the lookup's "same" fails the upload before it completes.
 */
export const SIMILAR_MAX_BER = 0.32;
export const SEARCH_S = 12;
const MAX_COMPARED = 50;

/** "same", "similar" or null: the closest relation of `query` to `stored` within ±SEARCH_S. */
export function versionRelation(stored: PrintCodes, query: PrintCodes): "same" | "similar" | null {
  const span = Math.ceil(SEARCH_S / HOP_SECONDS);
  let similar = false;
  for (let near = -span; near <= span; near++) {
    const c = compare(stored, query, near);
    if (!c) continue;
    if (audioMatchKind(c) === "same") return "same";
    if (c.ber <= SIMILAR_MAX_BER) similar = true;
  }
  return similar ? "similar" : null;
}

/** The artist's recent completed track the new one is similar to, or null. */
async function similarOwnTrack(db: Db, trackId: number, print: PrintCodes): Promise<number | null> {
  const [self] = await db.select({ user: tracks.user_id }).from(tracks).where(eq(tracks.id, trackId));
  if (!self?.user) return null;
  const earlier = await db.select({ id: tracks.id, codes: trackFingerprints.codes }).from(tracks)
    .innerJoin(trackFingerprints, eq(trackFingerprints.track_id, tracks.id))
    .where(and(
      eq(tracks.user_id, self.user),
      ne(tracks.id, trackId),
      eq(tracks.status, "completed"),
      eq(trackFingerprints.version, FINGERPRINT_VERSION),
    ))
    .orderBy(desc(tracks.upload_date)).limit(MAX_COMPARED);
  for (const e of earlier) {
    if (versionRelation(printFromBytes(e.codes), print) === "similar") return e.id;
  }
  return null;
}

/** After a completion: records the offer (none for a track sent as a version already). */
export async function offerVersion(
  db: Db,
  trackId: number,
  found: { versionOf: { trackId: number; sameOwner: boolean } | null },
  print: PrintCodes,
  at: Date,
): Promise<number | null> {
  const [linked] = await db.select({ id: trackVersions.track_id }).from(trackVersions)
    .where(eq(trackVersions.track_id, trackId));
  if (linked) return null;
  const similarTo = found.versionOf?.sameOwner ? found.versionOf.trackId : await similarOwnTrack(db, trackId, print);
  if (similarTo === null) return null;
  await db.insert(versionOffers).values({ track_id: trackId, similar_to: similarTo, created_at: at })
    .onConflictDoNothing();
  return similarTo;
}

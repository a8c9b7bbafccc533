import { Buffer } from "node:buffer";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { fingerprintSegments, trackFingerprints, tracks } from "../../db/schema.ts";
import {
  codesFromBytes,
  codesToBytes,
  FINGERPRINT_VERSION,
  indexedPositions,
  isSegment,
  matchAt,
  segmentHash,
} from "../audio/fingerprint.ts";

/**
 * The stored audio fingerprints and their segment index (issue 25, docs/decisions/0247, 0248):
 * processing looks a new track's fingerprint up among the completed tracks', and stores it once the
 * track is completed.
 */

/** Tracks whose fingerprint is read and compared bit by bit, the most voted first. */
const MAX_CANDIDATES = 10;
/** Index rows read at most per lookup (a hash shared by very many tracks cannot make it slow). */
const MAX_ROWS = 20_000;

export interface AudioMatches {
  /** The earliest completed track of the same owner with this audio; null when none. */
  sameOwner: number | null;
  /** The earliest completed track of another owner with this audio; null when none. */
  otherOwner: number | null;
}

export function createFingerprints(ctx: { db: Db }) {
  const { db } = ctx;
  return {
    /**
     * The completed tracks (other than `trackId`) whose fingerprint matches `codes`: candidates are
     * the tracks the query's segment hashes hit most at one consistent offset; each is then compared
     * bit by bit at that offset (`matchAt`). "Same owner" as for identical bytes (0206): the same
     * `user_id`, two tracks without one counting as the same.
     */
    async matches(trackId: number, codes: Uint32Array): Promise<AudioMatches> {
      const none = { sameOwner: null, otherOwner: null };
      // Query positions by hash: the codes that are segments (as on the stored side) are looked up.
      const positions = new Map<number, number[]>();
      for (let j = 0; j < codes.length; j++) {
        if (!isSegment(codes[j])) continue;
        const h = segmentHash(codes[j]);
        const list = positions.get(h);
        if (list) list.push(j);
        else positions.set(h, [j]);
      }
      if (positions.size === 0) return none;
      const rows = await db
        .select({
          hash: fingerprintSegments.hash,
          track: fingerprintSegments.track_id,
          at: fingerprintSegments.position,
        })
        .from(fingerprintSegments)
        .where(
          sql`${fingerprintSegments.hash} IN (SELECT value FROM json_each(${JSON.stringify([...positions.keys()])}))`,
        )
        .limit(MAX_ROWS);
      // Votes per track and offset (stored position minus query position).
      const votes = new Map<number, Map<number, number>>();
      for (const r of rows) {
        if (r.track === trackId) continue;
        let byOffset = votes.get(r.track);
        if (!byOffset) votes.set(r.track, byOffset = new Map());
        for (const j of positions.get(r.hash) ?? []) {
          const o = r.at - j;
          byOffset.set(o, (byOffset.get(o) ?? 0) + 1);
        }
      }
      // Each track's best offset, neighbours counted with it (frames fall a fraction of a hop apart).
      const candidates: { track: number; offset: number; score: number }[] = [];
      for (const [track, byOffset] of votes) {
        let best = { offset: 0, score: 0 };
        for (const o of byOffset.keys()) {
          const score = (byOffset.get(o - 1) ?? 0) + byOffset.get(o)! + (byOffset.get(o + 1) ?? 0);
          if (score > best.score) best = { offset: o, score };
        }
        candidates.push({ track, ...best });
      }
      candidates.sort((a, b) => b.score - a.score || a.track - b.track);
      const chosen = candidates.slice(0, MAX_CANDIDATES);
      if (chosen.length === 0) return none;
      const [self] = await db.select({ user: tracks.user_id }).from(tracks).where(eq(tracks.id, trackId));
      const stored = await db
        .select({ track: trackFingerprints.track_id, codes: trackFingerprints.codes, user: tracks.user_id })
        .from(trackFingerprints)
        .innerJoin(tracks, eq(tracks.id, trackFingerprints.track_id))
        .where(
          and(
            inArray(trackFingerprints.track_id, chosen.map((c) => c.track)),
            eq(trackFingerprints.version, FINGERPRINT_VERSION),
            eq(tracks.status, "completed"),
          ),
        );
      const result: AudioMatches = { sameOwner: null, otherOwner: null };
      const earliest = (a: number | null, b: number) => (a === null ? b : Math.min(a, b));
      for (const s of stored) {
        const c = chosen.find((x) => x.track === s.track)!;
        if (matchAt(codesFromBytes(s.codes), codes, c.offset) === null) continue;
        if ((s.user ?? null) === (self?.user ?? null)) result.sameOwner = earliest(result.sameOwner, s.track);
        else result.otherOwner = earliest(result.otherOwner, s.track);
      }
      return result;
    },

    /** Stores a completed track's fingerprint and its index rows (replacing any it had). */
    async save(trackId: number, codes: Uint32Array): Promise<void> {
      const segments = indexedPositions(codes).map((p) => ({
        hash: segmentHash(codes[p]),
        track_id: trackId,
        position: p,
      }));
      await db.batch([
        db.delete(fingerprintSegments).where(eq(fingerprintSegments.track_id, trackId)),
        db.insert(trackFingerprints)
          .values({ track_id: trackId, codes: Buffer.from(codesToBytes(codes)), version: FINGERPRINT_VERSION })
          .onConflictDoUpdate({
            target: trackFingerprints.track_id,
            set: { codes: Buffer.from(codesToBytes(codes)), version: FINGERPRINT_VERSION },
          }),
        ...(segments.length ? [db.insert(fingerprintSegments).values(segments)] : []),
      ]);
    },
  };
}

export type Fingerprints = ReturnType<typeof createFingerprints>;

import { Buffer } from "node:buffer";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { fingerprintSegments, trackFingerprints, tracks } from "../../db/schema.ts";
import type { Fingerprint } from "../audio/fingerprint.ts";
import { FINGERPRINT_VERSION, HOP_SECONDS, type PrintCodes } from "../audio/fingerprint-codes.ts";
import { type AudioMatchKind, audioMatchKind, compare, type Comparison } from "../audio/fingerprint-compare.ts";
import {
  indexedPositions,
  isSegmentHash,
  printFromBytes,
  printToBytes,
  segmentHashAt,
} from "../audio/fingerprint-index.ts";
import type { SpeedReading } from "../audio/fingerprint-speeds.ts";

export type { AudioMatchKind } from "../audio/fingerprint-compare.ts";

/**
 * The stored audio fingerprints and their segment index (issue 25, docs/decisions/0247, 0248; speed
 * and versions: issue 38, 0420–0423): processing looks a new track's fingerprint up among the
 * completed tracks', and stores it once the track is completed.
 */

/** Tracks whose fingerprint is read and compared bit by bit, the most voted first. */
const MAX_CANDIDATES = 10;
/**
 * Votes (segment hashes agreeing on one offset) a track needs to be compared at all: one hash in
 * common is what any unrelated track shares by chance (a bucket holds about 0.4 rows at 100,000
 * tracks), and reading and comparing those was most of an unknown track's lookup time.
 */
const MIN_VOTES = 2;
/** Index rows read at most per lookup (a hash shared by very many tracks cannot make it slow). */
const MAX_ROWS = 20_000;
/**
 * The other speeds' codes are looked up over the first minute only, and only every other speed
 * (2 % apart: the segment hash's steady bits still agree 1 % off, and `bestComparison` lays the
 * speeds next to the voted one): about 30 hashes each, 240 in all with speed 1's 60.
 */
const SPEED_LOOKUP_CODES = Math.round(60 / HOP_SECONDS);
const probed = (speed: number) => Math.round(speed * 100) % 2 === 0;

/** One completed track a lookup found (issue 38). */
export interface AudioMatch {
  trackId: number;
  /** "same": the same recording (re-encoded, louder, later, cut, at another speed); "version": another version of it. */
  kind: AudioMatchKind;
  /** Of the same owner, as 0206 counts it (two tracks without an owner are the same owner's). */
  sameOwner: boolean;
  /** The query is that track played at this speed (1: as it is; 1.02: 2 % faster and higher). */
  speed: number;
  ber: number;
  mixDb: number;
}

export interface AudioMatches {
  /** The earliest completed track of the same owner with this recording; null when none. */
  sameOwner: number | null;
  /** The earliest completed track of another owner with this recording; null when none. */
  otherOwner: number | null;
  /**
   * The track this one is another version of (issue 38: an instrumental, a vocal, an edit, another
   * mix or take), not the same recording: the same owner's earliest, else another owner's earliest;
   * null when none.
   */
  versionOf: { trackId: number; sameOwner: boolean } | null;
}

/** What `matches` answers from a lookup's list. */
export function summariseMatches(found: AudioMatch[]): AudioMatches {
  const earliest = (list: AudioMatch[]) =>
    list.reduce<number | null>((a, m) => (a === null ? m.trackId : Math.min(a, m.trackId)), null);
  const same = found.filter((m) => m.kind === "same");
  const versions = found.filter((m) => m.kind === "version");
  const ownVersion = earliest(versions.filter((m) => m.sameOwner));
  const otherVersion = earliest(versions.filter((m) => !m.sameOwner));
  return {
    sameOwner: earliest(same.filter((m) => m.sameOwner)),
    otherOwner: earliest(same.filter((m) => !m.sameOwner)),
    versionOf: ownVersion !== null
      ? { trackId: ownVersion, sameOwner: true }
      : otherVersion !== null
      ? { trackId: otherVersion, sameOwner: false }
      : null,
  };
}

/** The readings of a query: as heard first, then the other speeds. */
const readingsOf = (print: Fingerprint): SpeedReading[] => [
  { speed: 1, codes: print.codes, mix: print.mix },
  ...print.speeds(),
];

/** A candidate: a track, and the reading and offset the index voted for. */
interface Candidate {
  track: number;
  reading: number;
  offset: number;
  score: number;
}

/**
 * Each track's best (reading, offset) from the index rows hit: the stored rows voting for each
 * (reading, offset) (stored position minus query position), neighbouring offsets counted with it. A
 * row counts once however many query positions share its hash (a steady passage repeats a hash at
 * neighbouring positions, and neighbouring speeds read the same one), so one stray row never
 * outvotes two that agree.
 */
function vote(
  rows: { hash: number; track: number; at: number }[],
  positions: Map<number, [number, number][]>,
  self: number,
): Candidate[] {
  // Per track: (reading * 4096 + offset + 2048) → the rows (by index) voting for it.
  const votes = new Map<number, Map<number, Set<number>>>();
  rows.forEach((r, i) => {
    if (r.track === self) return;
    let byKey = votes.get(r.track);
    if (!byKey) votes.set(r.track, byKey = new Map());
    for (const [reading, j] of positions.get(r.hash) ?? []) {
      const key = reading * 4096 + (r.at - j + 2048);
      const set = byKey.get(key);
      if (set) set.add(i);
      else byKey.set(key, new Set([i]));
    }
  });
  const candidates: Candidate[] = [];
  for (const [track, byKey] of votes) {
    let best = { key: 0, score: 0 };
    for (const [key, set] of byKey) {
      const near = new Set(set);
      for (const i of byKey.get(key - 1) ?? []) near.add(i);
      for (const i of byKey.get(key + 1) ?? []) near.add(i);
      if (near.size > best.score || (near.size === best.score && key < best.key)) best = { key, score: near.size };
    }
    candidates.push({
      track,
      reading: Math.floor(best.key / 4096),
      offset: (best.key % 4096) - 2048,
      score: best.score,
    });
  }
  candidates.sort((a, b) => b.score - a.score || a.track - b.track);
  return candidates.filter((c) => c.score >= MIN_VOTES).slice(0, MAX_CANDIDATES);
}

/** The best comparison of a candidate: at its reading's speed and the speeds next to it, the lowest bit error rate. */
function bestComparison(stored: PrintCodes, readings: SpeedReading[], c: Candidate) {
  const voted = readings[c.reading].speed;
  let best: (Comparison & { speed: number }) | null = null;
  for (const reading of readings) {
    if (Math.abs(reading.speed - voted) > 0.011) continue;
    const cmp = compare(stored, reading, c.offset);
    if (cmp && (best === null || cmp.ber < best.ber)) best = { ...cmp, speed: reading.speed };
  }
  return best;
}

export function createFingerprints(ctx: { db: Db }) {
  const { db } = ctx;

  /**
   * The completed tracks (other than `trackId`) related to `print`: candidates are the tracks the
   * query's segment hashes (at every reading of `SPEEDS`) hit most at one consistent offset; each is
   * then laid on the query at that reading and offset (`compare`) and judged (`audioMatchKind`).
   */
  async function lookup(trackId: number, print: Fingerprint): Promise<AudioMatch[]> {
    const readings = readingsOf(print);
    // Query positions by hash: the codes that are segments (as on the stored side) are looked up.
    const positions = new Map<number, [number, number][]>();
    readings.forEach((reading, r) => {
      if (r > 0 && !probed(reading.speed)) return;
      const upTo = r === 0 ? reading.codes.length : Math.min(reading.codes.length, SPEED_LOOKUP_CODES);
      for (let j = 0; j < upTo; j++) {
        const h = segmentHashAt(reading.codes, j);
        if (!isSegmentHash(h)) continue;
        const list = positions.get(h);
        if (list) list.push([r, j]);
        else positions.set(h, [[r, j]]);
      }
    });
    if (positions.size === 0) return [];
    const rows = await db
      .select({ hash: fingerprintSegments.hash, track: fingerprintSegments.track_id, at: fingerprintSegments.position })
      .from(fingerprintSegments)
      .where(
        sql`${fingerprintSegments.hash} IN (SELECT value FROM json_each(${JSON.stringify([...positions.keys()])}))`,
      )
      .limit(MAX_ROWS);
    const chosen = vote(rows, positions, trackId);
    if (chosen.length === 0) return [];
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
    const found: AudioMatch[] = [];
    for (const s of stored) {
      const c = chosen.find((x) => x.track === s.track)!;
      const cmp = bestComparison(printFromBytes(s.codes), readings, c);
      const kind = audioMatchKind(cmp);
      if (!cmp || !kind) continue;
      found.push({
        trackId: s.track,
        kind,
        sameOwner: (s.user ?? null) === (self?.user ?? null),
        speed: cmp.speed,
        ber: cmp.ber,
        mixDb: cmp.mixDb,
      });
    }
    return found.sort((a, b) => a.trackId - b.trackId);
  }

  return {
    lookup,

    /**
     * The lookup summed up (docs/decisions/0248, 0422): the same recording by the same owner (the
     * upload fails as a duplicate), by another (noted for staff), and another version of a track
     * (noted for staff as «похоже на другую версию трека #N»).
     */
    async matches(trackId: number, print: Fingerprint): Promise<AudioMatches> {
      return summariseMatches(await lookup(trackId, print));
    },

    /** Stores a completed track's fingerprint (codes and mix at speed 1) and its index rows (replacing any it had). */
    async save(trackId: number, print: PrintCodes): Promise<void> {
      const segments = indexedPositions(print.codes).map((p) => ({
        hash: segmentHashAt(print.codes, p),
        track_id: trackId,
        position: p,
      }));
      const bytes = Buffer.from(printToBytes(print));
      await db.batch([
        db.delete(fingerprintSegments).where(eq(fingerprintSegments.track_id, trackId)),
        db.insert(trackFingerprints)
          .values({ track_id: trackId, codes: bytes, version: FINGERPRINT_VERSION })
          .onConflictDoUpdate({
            target: trackFingerprints.track_id,
            set: { codes: bytes, version: FINGERPRINT_VERSION },
          }),
        ...(segments.length ? [db.insert(fingerprintSegments).values(segments)] : []),
      ]);
    },
  };
}

export type Fingerprints = ReturnType<typeof createFingerprints>;

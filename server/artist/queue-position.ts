import { sql } from "drizzle-orm";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { DAY_MS, promiseCutoffMs } from "../../domain/response-promise.ts";
import { HEARD_MIN_S, HEARD_SLACK_S } from "../../domain/listening.ts";
import { trackAnalysis, trackDecisions, trackListens, trackPairFacts, tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { trackLengthS } from "../processing/analysis.ts";

/**
 * The artist's place in each direction's queue (issue 36, docs/decisions/0383): for every pair of the
 * artist's that is still undecided as the artist sees it (not accepted or declined, a change within
 * the notification hold not counted yet: 0223), its 1-based position among that direction's undecided
 * pairs in the moderator's queue order — overdue first (new or listened past the direction's promise,
 * strictly, to the millisecond: domain/response-promise.ts), then the oldest upload first, then the
 * lower id —, the queue's length, how many pairs the direction decided over the last 30 days (its
 * pace) and how many staff members have heard the track past the listen threshold (no names).
 *
 * One statement for the whole artist, whatever their number of pairs: the queue ranked by window
 * functions, the pace grouped once from `track_pair_facts`, the listeners counted per own pair.
 */

export interface QueueFigures {
  /** 1-based; null on a decided pair. */
  queue_position: number | null;
  queue_length: number | null;
  /** ISO 8601: the day the position is reached at the direction's pace; null without a decision in 30 days. */
  expected_by: string | null;
  /** Staff members who have heard the track past the listen threshold; null on a decided pair. */
  heard_by: number | null;
}

export const NO_QUEUE: QueueFigures = { queue_position: null, queue_length: null, expected_by: null, heard_by: null };

/** The pace is read over this many days. */
export const PACE_DAYS = 30;

/** The day the `position`-th pair is reached when `decided` pairs were decided over PACE_DAYS days; null at no pace. */
export function expectedBy(position: number, decided: number, now: Date): string | null {
  if (decided <= 0) return null;
  // The position-th decision falls on the first day the pace has made that many.
  const days = Math.ceil((position * PACE_DAYS) / decided);
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

interface QueueRow {
  track_id: number;
  direction: string;
  pos: number;
  len: number;
  decided: number;
  heard: number;
}

/** The listen threshold of domain/listening.ts `heardThreshold`, over the track's length (SQL). */
const thresholdSql = sql`(CASE WHEN ${trackLengthS} IS NULL OR ${trackLengthS} <= 0 THEN ${HEARD_MIN_S}
  ELSE min(${HEARD_MIN_S}, max(${trackLengthS} - ${HEARD_SLACK_S}, ${trackLengthS} / 2.0)) END)`;

/**
 * The figures of each undecided pair of `userId`'s, keyed `trackId:direction`. `shownBefore`: the
 * start of the notification hold (ms); `promise`: each direction's promise in days.
 */
export async function queueFigures(
  db: Db,
  args: { userId: number; now: Date; shownBefore: number; promise: Readonly<Record<Direction, number>> },
): Promise<Map<string, QueueFigures>> {
  const { now } = args;
  const dirs = sql.join(
    DIRECTIONS.map((d) => sql`(${d}, ${promiseCutoffMs(now, args.promise[d])})`),
    sql`, `,
  );
  const held = sql`coalesce(${trackDecisions.decided_at} > ${args.shownBefore}, 0)`;
  const shown = sql`CASE WHEN ${held} THEN coalesce(${trackDecisions.shown_status}, 'new')
    ELSE coalesce(${trackDecisions.status}, 'new') END`;
  const since = now.getTime() - PACE_DAYS * DAY_MS;
  const rows = await db.all<QueueRow>(sql`
    WITH dirs(direction, cutoff) AS (VALUES ${dirs}),
    mine AS (
      SELECT DISTINCT dirs.direction FROM ${tracks} JOIN dirs
        ON instr(',' || ${tracks.directions} || ',', ',' || dirs.direction || ',') > 0
      WHERE ${tracks.user_id} = ${args.userId} AND ${tracks.status} <> 'failed'
    ),
    pairs AS (
      SELECT ${tracks.id} AS track_id, ${tracks.user_id} AS user_id, ${tracks.upload_date} AS upload_date,
        dirs.direction AS direction, dirs.cutoff AS cutoff, ${shown} AS st
      FROM ${tracks}
        JOIN dirs ON instr(',' || ${tracks.directions} || ',', ',' || dirs.direction || ',') > 0
        LEFT JOIN ${trackDecisions} ON ${trackDecisions.track_id} = ${tracks.id}
          AND ${trackDecisions.direction} = dirs.direction
      WHERE ${tracks.status} <> 'failed' AND dirs.direction IN (SELECT direction FROM mine)
    ),
    queue AS (
      SELECT track_id, user_id, direction,
        row_number() OVER (PARTITION BY direction
          ORDER BY (st IN ('new', 'listened') AND upload_date < cutoff) DESC, upload_date, track_id) AS pos,
        count(*) OVER (PARTITION BY direction) AS len
      FROM pairs WHERE st NOT IN ('accepted', 'declined')
    ),
    pace AS (
      SELECT ${trackPairFacts.direction} AS direction, count(*) AS n FROM ${trackPairFacts}
      WHERE ${trackPairFacts.decide_ms} IS NOT NULL
        AND ${trackPairFacts.upload_date} + ${trackPairFacts.decide_ms} >= ${since}
        AND ${trackPairFacts.direction} IN (SELECT direction FROM mine)
      GROUP BY ${trackPairFacts.direction}
    )
    SELECT queue.track_id AS track_id, queue.direction AS direction, queue.pos AS pos, queue.len AS len,
      coalesce(pace.n, 0) AS decided,
      (SELECT count(*) FROM ${trackListens} JOIN ${tracks} ON ${tracks.id} = ${trackListens.track_id}
        LEFT JOIN ${trackAnalysis} ON ${trackAnalysis.track_id} = ${tracks.id}
        WHERE ${trackListens.track_id} = queue.track_id AND ${trackListens.heard_s} > 0
          AND ${trackListens.heard_s} >= ${thresholdSql}) AS heard
    FROM queue LEFT JOIN pace ON pace.direction = queue.direction
    WHERE queue.user_id = ${args.userId}`);
  const out = new Map<string, QueueFigures>();
  for (const r of rows) {
    const pos = Number(r.pos);
    out.set(`${r.track_id}:${r.direction}`, {
      queue_position: pos,
      queue_length: Number(r.len),
      expected_by: expectedBy(pos, Number(r.decided), now),
      heard_by: Number(r.heard),
    });
  }
  return out;
}

/** Adds each decision's queue figures (NO_QUEUE on a decided pair). */
export function withQueue<D extends { direction: string }>(
  trackId: number,
  decisions: readonly D[],
  figures: ReadonlyMap<string, QueueFigures>,
): (D & QueueFigures)[] {
  return decisions.map((d) => ({ ...d, ...(figures.get(`${trackId}:${d.direction}`) ?? NO_QUEUE) }));
}

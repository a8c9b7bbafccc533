import { and, count, eq, gte, ne, sql } from "drizzle-orm";
import { type Direction, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { isAwaitingDecision, isReviewStatus } from "../../domain/review.ts";
import { inScope, type Scope } from "../../domain/scope.ts";
import { trackCounts, trackDecisionHistory, trackDecisions, tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { promiseDays } from "../intake/rules.ts";
import { promiseCutoffMs } from "../../domain/response-promise.ts";

/**
 * The dashboards' work per direction (issue 23): `review_queue`, for each direction in the caller's
 * scope, how many of its tracks are new, shortlisted, and overdue (awaiting a decision, `new` or
 * `listened`, past the direction's response promise, issue 25: server/intake/rules.ts). Failed
 * uploads are never under review (decision 0152).
 *
 * Fast at 100,000 tracks without a scan of them all: new, shortlisted and awaiting come from the
 * running counts `track_counts` (decision 0190, a few hundred rows); overdue is awaiting minus the
 * awaiting uploaded within the promise, one range over the `upload_date` index per distinct promise
 * (usually one: every direction keeps the default 14 days).
 */
export interface ReviewQueueEntry {
  direction: Direction;
  new: number;
  shortlisted: number;
  overdue: number;
  /**
   * Pairs whose current answer is the automatic decline of a promise not kept (issue 25): declined
   * by the sweep and not changed by anyone since.
   */
  auto_declined: number;
}

/** Adds each group's `n` to its directions' tally of the states `pick` names. */
function tally(
  groups: readonly { directions: string; review: string; n: number }[],
  into: Map<Direction, { new: number; shortlisted: number; awaiting: number }>,
  sign: 1 | -1,
) {
  for (const g of groups) {
    const n = Number(g.n);
    if (n <= 0) continue;
    const states = new Map(g.review.split(",").map((entry) => entry.split(":") as [string, string]));
    for (const d of parseDirections(g.directions)) {
      const t = into.get(d);
      if (!t) continue;
      const raw = states.get(d);
      const state = isReviewStatus(raw) ? raw : "new";
      if (sign === 1) {
        if (state === "new") t.new += n;
        if (state === "shortlisted") t.shortlisted += n;
      }
      if (isAwaitingDecision(state)) t.awaiting += sign * n;
    }
  }
}

export async function reviewQueue(db: Db, scope: Scope, now: Date): Promise<ReviewQueueEntry[]> {
  const mine = DIRECTIONS.filter((d) => inScope(d, scope));
  const per = new Map(mine.map((d) => [d, { new: 0, shortlisted: 0, awaiting: 0 }]));
  const all = await db.select().from(trackCounts);
  tally(all.filter((g) => !Number(g.failed)), per, 1);
  const promise = await promiseDays(db);
  for (const days of new Set(mine.map((d) => promise[d]))) {
    const group = new Map(mine.filter((d) => promise[d] === days).map((d) => [d, per.get(d)!]));
    // Uploaded at or after this, a track is not overdue yet in these directions (strictly past the promise).
    const cutoff = new Date(promiseCutoffMs(now, days));
    const recent = await db
      .select({ directions: tracks.directions, review: tracks.review, n: count() })
      .from(tracks)
      .where(and(gte(tracks.upload_date, cutoff), ne(tracks.status, "failed")))
      .groupBy(tracks.directions, tracks.review);
    tally(recent, group, -1);
  }
  // The automatic declines still standing: the few history entries marked automatic (a partial
  // index), each joined to its pair at the same revision.
  const h = trackDecisionHistory;
  const autoRows = await db
    .select({ direction: h.direction, n: count() })
    .from(h)
    .innerJoin(
      trackDecisions,
      and(
        eq(trackDecisions.track_id, h.track_id),
        eq(trackDecisions.direction, h.direction),
        eq(trackDecisions.revision, h.revision),
      ),
    )
    .where(sql`${h.automatic} = 1`)
    .groupBy(h.direction);
  const auto = new Map(autoRows.map((r) => [r.direction, Number(r.n)]));
  return mine.map((d) => {
    const t = per.get(d)!;
    return {
      direction: d,
      new: t.new,
      shortlisted: t.shortlisted,
      overdue: Math.max(0, t.awaiting),
      auto_declined: auto.get(d) ?? 0,
    };
  });
}

import { and, count, gte, ne } from "drizzle-orm";
import { type Direction, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { isAwaitingDecision, isReviewStatus, OVERDUE_AFTER_DAYS } from "../../domain/review.ts";
import { inScope, type Scope } from "../../domain/scope.ts";
import { trackCounts, tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";

/**
 * The dashboards' work per direction (issue 23): `review_queue`, for each direction in the caller's
 * scope, how many of its tracks are new, shortlisted, and overdue (awaiting a decision, `new` or
 * `listened`, for more than OVERDUE_AFTER_DAYS: domain/review.ts `isOverdue`). Failed uploads are
 * never under review (decision 0152).
 *
 * Fast at 100,000 tracks without a scan of them all: new, shortlisted and awaiting come from the
 * running counts `track_counts` (decision 0190, a few hundred rows); overdue is awaiting minus the
 * awaiting uploaded within the last 14 days, one range over the `upload_date` index.
 */
export interface ReviewQueueEntry {
  direction: Direction;
  new: number;
  shortlisted: number;
  overdue: number;
}

const DAY_MS = 86_400_000;

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
  // Uploaded at or after this, a track is not overdue yet (isOverdue: strictly more than 14 days).
  const cutoff = new Date(now.getTime() - OVERDUE_AFTER_DAYS * DAY_MS);
  const recent = await db
    .select({ directions: tracks.directions, review: tracks.review, n: count() })
    .from(tracks)
    .where(and(gte(tracks.upload_date, cutoff), ne(tracks.status, "failed")))
    .groupBy(tracks.directions, tracks.review);
  tally(recent, per, -1);
  return mine.map((d) => {
    const t = per.get(d)!;
    return { direction: d, new: t.new, shortlisted: t.shortlisted, overdue: Math.max(0, t.awaiting) };
  });
}

import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { DECLINE_REASONS, type DeclineReason, reasonsFromJson } from "../../domain/decline-reasons.ts";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { inScope, type Scope } from "../../domain/scope.ts";
import type { FiguresWindow, ResponseFigures } from "./response-figures.ts";

/**
 * The feedback's figures on the dashboards (issue 37, docs/decisions/0403), beside the response
 * figures, per direction and per staff member:
 * - `reasons`: of the pairs of the period's tracks (uploaded in it) now declined by a person, how
 *   many name at least one reason, their share, and the reasons named most (top three);
 * - `ratings`: the artists' ratings of the feedback given in the period (rated in it): how many
 *   and their average (to 0.1). Words are only for the administrator (`rating_words`).
 */

export interface ReasonFigures {
  declines: number;
  with_reasons: number;
  /** with_reasons / declines, 0..1 to 0.001; null without declines. */
  share: number | null;
  top: Array<{ reason: DeclineReason; count: number }>;
}

export interface RatingFigures {
  count: number;
  /** 1..5 to 0.1; null without ratings. */
  average: number | null;
}

export interface RatingWords {
  track_id: number;
  direction: Direction;
  staff_id: number | null;
  rating: number;
  words: string;
  rated_at: string;
}

export type WithFeedback<T> = T & { reasons: ReasonFigures; ratings: RatingFigures };

export type FeedbackResponseFigures = Omit<ResponseFigures, "by_direction" | "by_staff"> & {
  by_direction: WithFeedback<ResponseFigures["by_direction"][number]>[];
  by_staff: WithFeedback<ResponseFigures["by_staff"][number]>[];
  /** The administrator's view only: each rating with words, newest first (at most 50). */
  rating_words?: RatingWords[];
};

interface Tally {
  declines: number;
  withReasons: number;
  counts: Map<DeclineReason, number>;
  ratings: number;
  ratingSum: number;
}

const tally = (): Tally => ({ declines: 0, withReasons: 0, counts: new Map(), ratings: 0, ratingSum: 0 });

function reasonFigures(t: Tally | undefined): ReasonFigures {
  if (!t) return { declines: 0, with_reasons: 0, share: null, top: [] };
  const top = DECLINE_REASONS.map((reason) => ({ reason, count: t.counts.get(reason) ?? 0 }))
    .filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, 3);
  return {
    declines: t.declines,
    with_reasons: t.withReasons,
    share: t.declines > 0 ? Math.round((t.withReasons / t.declines) * 1000) / 1000 : null,
    top,
  };
}

const ratingFigures = (t: Tally | undefined): RatingFigures =>
  !t || t.ratings === 0
    ? { count: 0, average: null }
    : { count: t.ratings, average: Math.round((t.ratingSum / t.ratings) * 10) / 10 };

/** `figures` with the feedback's figures added; `words` adds the ratings' words (administrators). */
export async function withFeedbackFigures(
  db: Db,
  figures: ResponseFigures,
  scope: Scope,
  window: FiguresWindow,
  words: boolean,
): Promise<FeedbackResponseFigures> {
  const mine = DIRECTIONS.filter((d) => inScope(d, scope));
  const byDirection = new Map<string, Tally>();
  const byStaff = new Map<number, Tally>();
  const of = <K>(m: Map<K, Tally>, k: K) => m.get(k) ?? m.set(k, tally()).get(k)!;
  const from = window.from.getTime();
  const to = window.to.getTime();
  if (mine.length > 0) {
    const dirs = sql.join(mine.map((d) => sql`${d}`), sql`, `);
    const declines = await db.all<{ direction: string; decided_by: number; reasons: string | null }>(sql`
      SELECT d.direction, d.decided_by,
        (SELECT r.reasons FROM track_pair_reasons r
          WHERE r.track_id = d.track_id AND r.direction = d.direction AND r.revision = d.revision) AS reasons
      FROM track_decisions d JOIN tracks t ON t.id = d.track_id
      WHERE d.status = 'declined' AND d.decided_by IS NOT NULL AND d.direction IN (${dirs})
        AND t.upload_date >= ${from} AND t.upload_date < ${to}`);
    for (const row of declines) {
      const reasons = reasonsFromJson(row.reasons);
      for (const t of [of(byDirection, row.direction), of(byStaff, Number(row.decided_by))]) {
        t.declines++;
        if (reasons.length > 0) t.withReasons++;
        for (const r of reasons) t.counts.set(r, (t.counts.get(r) ?? 0) + 1);
      }
    }
    const ratings = await db.all<{ direction: string; staff_id: number | null; rating: number }>(sql`
      SELECT direction, staff_id, rating FROM feedback_ratings
      WHERE rated_at >= ${from} AND rated_at < ${to} AND direction IN (${dirs})`);
    for (const row of ratings) {
      const targets = [of(byDirection, row.direction)];
      if (row.staff_id !== null) targets.push(of(byStaff, Number(row.staff_id)));
      for (const t of targets) {
        t.ratings++;
        t.ratingSum += Number(row.rating);
      }
    }
  }
  const answer: FeedbackResponseFigures = {
    ...figures,
    by_direction: figures.by_direction.map((f) => ({
      ...f,
      reasons: reasonFigures(byDirection.get(f.direction)),
      ratings: ratingFigures(byDirection.get(f.direction)),
    })),
    by_staff: figures.by_staff.map((f) => ({
      ...f,
      reasons: reasonFigures(byStaff.get(f.user.id)),
      ratings: ratingFigures(byStaff.get(f.user.id)),
    })),
  };
  if (words && mine.length > 0) {
    const rows = await db.all<Omit<RatingWords, "rated_at"> & { rated_at: number }>(sql`
      SELECT track_id, direction, staff_id, rating, words, rated_at FROM feedback_ratings
      WHERE rated_at >= ${from} AND rated_at < ${to} AND words IS NOT NULL AND words <> ''
      ORDER BY rated_at DESC LIMIT 50`);
    answer.rating_words = rows.map((r) => ({
      track_id: Number(r.track_id),
      direction: r.direction,
      staff_id: r.staff_id === null ? null : Number(r.staff_id),
      rating: Number(r.rating),
      words: r.words,
      rated_at: new Date(Number(r.rated_at)).toISOString(),
    }));
  }
  return answer;
}

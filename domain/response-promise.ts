import { type Direction, DIRECTIONS } from "./directions.ts";
import { INTAKE_DEFAULTS } from "./intake-rules.ts";

/**
 * The response promise (issue 25, decisions 0239, 0241): when a pair is to be answered, when it is
 * overdue and when the automatic decline is due, over plain values. One home (issue 33): the
 * artist's «ответ до», the staff's `overdue`, the list's overdue filter and order, the dashboards'
 * count, the sweep and the response figures all ask these; the server's SQL twin is
 * server/tracks/promise-sql.ts.
 *
 * The days themselves are each direction's `promise_days` (default in domain/intake-rules.ts); a
 * pair is overdue strictly after its promise, to the millisecond (14 days and 1 ms is overdue).
 */

/** A day in milliseconds: the one declaration every day count uses. */
export const DAY_MS = 86_400_000;

/** A promise of `days` in milliseconds. */
export function promiseMs(days: number): number {
  return days * DAY_MS;
}

/** When a pair of a track uploaded at `uploadMs` is to be answered, by a promise of `days`. */
export function respondBy(uploadMs: number, days: number): Date {
  return new Date(uploadMs + promiseMs(days));
}

/**
 * The upload time (ms) before which a promise of `days` has passed at `now`: a track uploaded
 * strictly before it is past its promise, one uploaded at or after it is not yet.
 */
export function promiseCutoffMs(now: Date, days: number): number {
  return now.getTime() - promiseMs(days);
}

/**
 * Past a promise of `days` (the default promise unless given), strictly, to the millisecond, at
 * `now`. Whether the pair still awaits a decision is asked separately (domain/review.ts
 * `isAwaitingDecision`).
 */
export function isOverdue(
  uploadDate: Date | string | number,
  now: Date,
  days: number = INTAKE_DEFAULTS.promise_days,
): boolean {
  return new Date(uploadDate).getTime() < promiseCutoffMs(now, days);
}

/** The automatic decline (0241) is due this many days after the upload: the promise plus the grace. */
export function autoDeclineDays(rule: { promise_days: number; auto_decline_after_days: number }): number {
  return rule.promise_days + rule.auto_decline_after_days;
}

/** `autoDeclineDays` of each direction. */
export function autoDeclineDaysOf(
  rules: Readonly<Record<Direction, { promise_days: number; auto_decline_after_days: number }>>,
): Record<Direction, number> {
  return Object.fromEntries(DIRECTIONS.map((d) => [d, autoDeclineDays(rules[d])])) as Record<Direction, number>;
}

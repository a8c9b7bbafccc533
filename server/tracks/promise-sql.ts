import { type SQL, sql } from "drizzle-orm";
import type { Direction } from "../../domain/directions.ts";
import { promiseCutoffMs } from "../../domain/response-promise.ts";
import { tracks } from "../../db/schema.ts";
import { reviewFilterSql } from "../review/decisions.ts";

/**
 * The response promise's SQL twin: the rule itself (when a pair is past its promise, strictly, to the
 * millisecond) lives in domain/response-promise.ts; here it becomes conditions over the tracks row.
 */

/** SQL: the track was uploaded before a promise of `days` passed at `now`. */
export function uploadedPastSql(days: number, now: Date): SQL {
  return sql`${tracks.upload_date} < ${promiseCutoffMs(now, days)}`;
}

/** SQL: the pair in `direction` is past a promise of `days` and still awaits a decision (new or listened). */
export function pairPastSql(direction: Direction, days: number, now: Date): SQL {
  return sql`(${uploadedPastSql(days, now)} AND (${reviewFilterSql("new", [direction])} OR ${
    reviewFilterSql("listened", [direction])
  }))`;
}

import { and, asc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { tracks, uploadSessions } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { reviewFilterSql } from "../review/decisions.ts";
import { DAY_MS } from "../intake/rules.ts";

/**
 * The track rows the intake rules read (issue 25), kept inside the tracks service's boundary
 * (decision 0120): an artist's recent submissions for the cap and the cooldown, and the pairs the
 * response promise's sweep declines.
 */

/**
 * The artist's submissions after `since`: their tracks, failed uploads left out (never submitted),
 * and their resumable uploads started and not yet finished (issue 26: a batch starts every file
 * before any byte moves, so each start counts as the track it will become).
 */
export async function recentSubmissions(db: Db, userId: number, since: Date) {
  const made = await db
    .select({ directions: tracks.directions, at: tracks.upload_date })
    .from(tracks)
    .where(and(eq(tracks.user_id, userId), gt(tracks.upload_date, since), ne(tracks.status, "failed")));
  const started = await db
    .select({ directions: uploadSessions.directions, at: uploadSessions.created_at })
    .from(uploadSessions)
    .where(and(
      eq(uploadSessions.user_id, userId),
      gt(uploadSessions.created_at, since),
      inArray(uploadSessions.state, ["open", "completing"]),
    ));
  return [...made, ...started];
}

/**
 * Tracks with a pair past `dueDays[d]` days since the upload (strictly, to the millisecond) and still
 * awaiting a decision (new or listened), failed uploads never; the oldest first, at most `limit`.
 */
export async function pairsPastDue(
  db: Db,
  dueDays: Readonly<Record<Direction, number>>,
  now: Date,
  limit: number,
): Promise<{ id: number; filename: string; upload_date: Date; directions: string; review: string }[]> {
  const pair = (d: Direction) =>
    sql`(${tracks.upload_date} < ${now.getTime() - dueDays[d] * DAY_MS} AND (${reviewFilterSql("new", [d])} OR ${
      reviewFilterSql("listened", [d])
    }))`;
  return await db
    .select({
      id: tracks.id,
      filename: tracks.filename,
      upload_date: tracks.upload_date,
      directions: tracks.directions,
      review: tracks.review,
    })
    .from(tracks)
    .where(sql`(${sql.join(DIRECTIONS.map(pair), sql` OR `)})`)
    .orderBy(asc(tracks.upload_date), asc(tracks.id))
    .limit(limit);
}

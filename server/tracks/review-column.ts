import { eq, sql } from "drizzle-orm";
import { trackDecisions, tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";

/**
 * Rewrites `tracks.review` from the stored pairs of the track's current directions. The last
 * statement of every batch that changes a pair or the track's directions, so the copy never
 * differs from `track_decisions` after a commit.
 */
export function syncReviewStatement(db: Db, trackId: number) {
  return db
    .update(tracks)
    .set({
      review: sql`coalesce((SELECT group_concat(${trackDecisions.direction} || ':' || ${trackDecisions.status}, ',')
        FROM ${trackDecisions} WHERE ${trackDecisions.track_id} = ${tracks.id} AND ${trackDecisions.status} <> 'new'
          AND instr(',' || ${tracks.directions} || ',', ',' || ${trackDecisions.direction} || ',') > 0), '')`,
    })
    .where(eq(tracks.id, trackId));
}

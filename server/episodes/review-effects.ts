import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client.ts";
import { episodeNotices, episodes, episodeTracks } from "../../db/schema.ts";
import { isShowDirection } from "../../domain/episodes.ts";
import type { PairChange } from "../review/decisions.ts";
import type { PairsChanged, ReviewEventsFactory } from "../review/events.ts";

/**
 * The pool kept true (issue 35): a pair of a show direction that stops being accepted (an undo
 * within the hold, a decline, a move back to the shortlist) leaves every unaired episode of that
 * direction in the same batch as the change, and each such episode records a notice its page
 * shows to staff. The pool itself is read from the pairs (reads.ts `poolOf`), so the track leaves
 * it by the change alone. Aired episodes keep their tracks: what aired, aired.
 */
export function leavingStatements(db: Db, event: PairsChanged): BatchItem<"sqlite">[] {
  const leaving = event.changes.filter((c: PairChange) =>
    isShowDirection(c.direction) && c.before.status === "accepted" && c.after.status !== "accepted"
  );
  return leaving.flatMap((c) => {
    const unaired = db.select({ id: episodes.id }).from(episodes)
      .where(and(eq(episodes.direction, c.direction), isNull(episodes.aired_at)));
    const holding = and(
      eq(episodeTracks.track_id, c.trackId),
      eq(episodeTracks.direction, c.direction),
      inArray(episodeTracks.episode_id, unaired),
    );
    const reason = event.undo ? "undone" : c.after.status;
    const held = sql`SELECT ${episodeTracks.episode_id} FROM ${episodeTracks} WHERE ${holding}`;
    return [
      db.insert(episodeNotices).select(
        db.select({
          id: sql<number>`NULL`.as("id"),
          episode_id: episodeTracks.episode_id,
          track_id: episodeTracks.track_id,
          filename: sql<string>`${event.track.filename}`.as("filename"),
          reason: sql<string>`${reason}`.as("reason"),
          created_at: sql<number>`${c.at.getTime()}`.as("created_at"),
        }).from(episodeTracks).where(holding),
      ),
      db.update(episodes).set({ revision: sql`${episodes.revision} + 1`, updated_at: c.at })
        .where(sql`${episodes.id} IN (${held})`),
      db.delete(episodeTracks).where(holding),
    ];
  });
}

/** Review's subscriber with the episode desk's statements added to each pair change's batch. */
export function withEpisodeEffects(db: Db, base: ReviewEventsFactory): ReviewEventsFactory {
  return (parts) => {
    const events = base(parts);
    return {
      ...events,
      async pairsChanged(event) {
        const answer = await events.pairsChanged(event);
        return { ...answer, statements: [...answer.statements, ...leavingStatements(db, event)] };
      },
    };
  };
}

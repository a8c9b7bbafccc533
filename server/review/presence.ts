import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { trackPresence, tracks, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Scope } from "../../domain/scope.ts";
import { PRESENCE_WINDOW_S } from "../../domain/assignment.ts";
import { scopeSql } from "../tracks/scope.ts";
import { displayName } from "../tracks/views.ts";

/**
 * Who is listening now (issue 24, docs/decisions/0234): each staff member's last played moment, kept
 * in the database (one row per person: one hears one track at a time), so every instance sharing the
 * database sees it. Every listening report of the player (POST …/listened, every few seconds of
 * playing and on pause) writes it; a track someone played within PRESENCE_WINDOW_S shows
 * «Слушает @name». Opening the listening link writes nothing: the desk fetches the next track's
 * link ahead (decision 0225), which is not listening.
 */

export interface PresenceView {
  track_id: number;
  user: { id: number; username: string; name: string };
  /** ISO 8601: the listener's latest report. */
  at: string;
}

/** The member now plays `trackId` (their row moves to it). */
export async function recordPresence(db: Db, userId: number, trackId: number, at: Date): Promise<void> {
  await db.insert(trackPresence).values({ user_id: userId, track_id: trackId, at })
    .onConflictDoUpdate({ target: trackPresence.user_id, set: { track_id: trackId, at } });
}

/**
 * Who else played one of `ids` within the window: only tracks within the caller's sight (others are
 * left out, not refused: a poll outlives a track leaving one's categories), never the caller.
 */
export async function presenceOf(
  db: Db,
  scope: Scope,
  ids: readonly number[],
  me: number,
  now: Date,
): Promise<PresenceView[]> {
  if (ids.length === 0) return [];
  const since = new Date(now.getTime() - PRESENCE_WINDOW_S * 1000);
  const rows = await db
    .select({
      track_id: trackPresence.track_id,
      at: trackPresence.at,
      id: users.id,
      username: users.username,
      first_name: users.first_name,
      last_name: users.last_name,
    })
    .from(trackPresence)
    .innerJoin(tracks, eq(tracks.id, trackPresence.track_id))
    .innerJoin(users, eq(users.id, trackPresence.user_id))
    .where(and(
      inArray(trackPresence.track_id, [...ids]),
      gte(trackPresence.at, since),
      ne(trackPresence.user_id, me),
      scopeSql(scope),
    ))
    .orderBy(trackPresence.track_id, sql`${trackPresence.at} DESC`);
  return rows.map((r) => ({
    track_id: r.track_id,
    user: { id: r.id, username: r.username, name: displayName(r) },
    at: r.at.toISOString(),
  }));
}

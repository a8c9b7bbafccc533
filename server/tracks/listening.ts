import { and, desc, eq, gt, sql } from "drizzle-orm";
import { trackAnalysis, trackListens, tracks, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Namer, PersonView } from "./decisions.ts";

/**
 * Listening receipts (issue 20, docs/decisions/0197): how much of a track each staff member has
 * played. The player reports played time; the server never trusts a single jump. Each report is
 * capped by the wall-clock time since the member's previous report of the track (or their opening
 * of its listening link) plus `LISTEN_REPORT_TOLERANCE_S`, and the total by the track's length.
 * Who may report is decided by the tracks service, the only caller.
 */

/** What a report may exceed the elapsed wall-clock time by: network jitter between two reports. */
export const LISTEN_REPORT_TOLERANCE_S = 2;

/** One colleague's listening, as the track's panel shows it. */
export interface ListenView {
  user: PersonView;
  /** Played seconds, one decimal. */
  heard_s: number;
}

/**
 * Opening a track's listening link starts the member's clock: a report right after it can claim
 * only the seconds since. What they heard before stays.
 */
export async function openListen(db: Db, trackId: number, userId: number, at: Date): Promise<void> {
  await db
    .insert(trackListens)
    .values({ track_id: trackId, user_id: userId, heard_s: 0, last_at: at })
    .onConflictDoUpdate({ target: [trackListens.track_id, trackListens.user_id], set: { last_at: at } });
}

/** The track's length: its audio report's, else the stored one; null while neither is known. */
export async function trackDuration(db: Db, trackId: number): Promise<number | null> {
  const [row] = await db
    .select({ d: sql<number | null>`coalesce(${trackAnalysis.duration_s}, ${tracks.duration} / 1000.0)` })
    .from(tracks)
    .leftJoin(trackAnalysis, eq(trackAnalysis.track_id, tracks.id))
    .where(eq(tracks.id, trackId))
    .limit(1);
  return row?.d ?? null;
}

/**
 * Adds a report of `seconds` played to the member's total in one statement (two reports at once
 * cannot both spend the same elapsed time) and answers the new total. Without an earlier open or
 * report, only the tolerance is granted.
 */
export async function addPlayed(
  db: Db,
  r: { trackId: number; userId: number; seconds: number; at: Date; durationS: number | null },
): Promise<number> {
  const total = r.durationS !== null && r.durationS > 0 ? r.durationS : Number.MAX_SAFE_INTEGER;
  const first = Math.min(r.seconds, LISTEN_REPORT_TOLERANCE_S, total);
  const atMs = r.at.getTime();
  const [row] = await db
    .insert(trackListens)
    .values({ track_id: r.trackId, user_id: r.userId, heard_s: first, last_at: r.at })
    .onConflictDoUpdate({
      target: [trackListens.track_id, trackListens.user_id],
      set: {
        heard_s: sql`min(${total}, ${trackListens.heard_s} + min(${r.seconds},
          max(0, (${atMs} - ${trackListens.last_at}) / 1000.0) + ${LISTEN_REPORT_TOLERANCE_S}))`,
        last_at: r.at,
      },
    })
    .returning({ heard_s: trackListens.heard_s });
  return row.heard_s;
}

/** Every member who has played some of the track, the most heard first. */
export async function listensOf(db: Db, trackId: number, name: Namer): Promise<ListenView[]> {
  const rows = await db
    .select({
      heard_s: trackListens.heard_s,
      id: users.id,
      username: users.username,
      first_name: users.first_name,
      last_name: users.last_name,
    })
    .from(trackListens)
    .innerJoin(users, eq(users.id, trackListens.user_id))
    .where(and(eq(trackListens.track_id, trackId), gt(trackListens.heard_s, 0)))
    .orderBy(desc(trackListens.heard_s), users.id);
  return rows.map((r) => ({
    user: { id: r.id, username: r.username, name: name(r) },
    heard_s: Math.floor(r.heard_s * 10) / 10,
  }));
}

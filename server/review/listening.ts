import { and, desc, eq, gt, sql } from "drizzle-orm";
import { trackAnalysis, trackListens, tracks, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Namer, PersonView } from "./decisions.ts";
import { analysisJoin, trackLengthS } from "../processing/analysis.ts";

/**
 * Listening receipts (issue 20, docs/decisions/0197): how much of a track each staff member has
 * played. The player reports played time; the server never trusts a single jump. Only a track whose
 * listening link the member opened counts (issue 32); each report is capped by the wall-clock time
 * since the member's previous report or opening (at most `LISTEN_IDLE_WINDOW_S` back) plus
 * `LISTEN_REPORT_TOLERANCE_S`, and the total by the track's length. Who may report is decided by
 * the tracks service, the only caller.
 */

/** What a report may exceed the elapsed wall-clock time by: network jitter between two reports. */
export const LISTEN_REPORT_TOLERANCE_S = 2;

/**
 * How far behind now the listening clock is ever taken to be: two of the player's report periods
 * (it reports every 5 s of playing, client/features/staff-review/player/use-listen-reports.ts). A
 * pause longer than this earns nothing (docs/decisions/0307).
 */
export const LISTEN_IDLE_WINDOW_S = 10;

/** One colleague's listening, as the track's panel shows it. */
export interface ListenView {
  user: PersonView;
  /** Played seconds, one decimal. */
  heard_s: number;
}

/**
 * Opening a track's listening link starts the member's clock if it is behind: a report right after
 * it can claim only the seconds since. An opening never moves the clock back, and what they heard
 * before stays.
 */
export async function openListen(db: Db, trackId: number, userId: number, at: Date): Promise<void> {
  await db
    .insert(trackListens)
    .values({ track_id: trackId, user_id: userId, heard_s: 0, last_at: at })
    .onConflictDoUpdate({
      target: [trackListens.track_id, trackListens.user_id],
      set: { last_at: sql`max(${trackListens.last_at}, ${at.getTime()})` },
    });
}

/** The track's length by the one rule (`trackLengthS`); null while it is not known. */
export async function trackDuration(db: Db, trackId: number): Promise<number | null> {
  const [row] = await db
    .select({ d: trackLengthS })
    .from(tracks)
    .leftJoin(trackAnalysis, analysisJoin)
    .where(eq(tracks.id, trackId))
    .limit(1);
  return row?.d ?? null;
}

/**
 * Adds a report of `seconds` played to the member's total of a track they opened, in one statement
 * (two reports at once cannot both spend the same time), and answers the new total; 0, with
 * nothing written, when the member never opened the track's listening link (issue 32,
 * docs/decisions/0307): a receipt needs a listen.
 *
 * One clock per member, not per track: a person hears one thing at a time. The clock is the latest
 * `last_at` of their rows, and opening a track sets its row's `last_at` to the opening, so a report
 * is never worth time from before the track's own opening. A report is granted at most the
 * wall-clock time from that clock to now, plus `LISTEN_REPORT_TOLERANCE_S`, and the clock moves on
 * by what was granted. So the tolerance is spent once, not on every report (ten reports at once
 * earn two seconds, not twenty), and opening several tracks and reporting on each earns the
 * wall-clock time once, not once per track. Idle time is never banked: the clock is never taken to
 * be more than `LISTEN_IDLE_WINDOW_S` behind now, so after a pause a report is worth at most that
 * window, whatever it claims.
 */
export async function addPlayed(
  db: Db,
  r: { trackId: number; userId: number; seconds: number; at: Date; durationS: number | null },
): Promise<number> {
  const total = r.durationS !== null && r.durationS > 0 ? r.durationS : Number.MAX_SAFE_INTEGER;
  const atMs = r.at.getTime();
  const latest = sql`(select max(l.last_at) from track_listens l where l.user_id = ${r.userId})`;
  const clock = sql`max(${latest}, ${atMs - LISTEN_IDLE_WINDOW_S * 1000})`;
  // What the report may add: never negative, never more than claimed or than the clock allows.
  const granted = sql`max(0, min(${r.seconds}, (${atMs} + ${LISTEN_REPORT_TOLERANCE_S * 1000} - ${clock}) / 1000.0))`;
  const [row] = await db
    .update(trackListens)
    .set({
      heard_s: sql`min(${total}, ${trackListens.heard_s} + ${granted})`,
      last_at: sql`${clock} + 1000 * ${granted}`,
    })
    .where(and(eq(trackListens.track_id, r.trackId), eq(trackListens.user_id, r.userId)))
    .returning({ heard_s: trackListens.heard_s });
  return row?.heard_s ?? 0;
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

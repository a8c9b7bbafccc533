import { and, asc, desc, eq, inArray, isNotNull, max, notInArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { tracks, uploadSessions } from "../../db/schema.ts";

/**
 * Which tracks make the user's batch, the processing page's list (issue 31, docs/decisions/0285).
 *
 * POST /api/upload stores every file of a request in one insert: the rows share their upload time.
 * The upload page sends each file as a resumable upload of its own: it starts every file first, then
 * sends and completes them one after another, so each becomes a track at its own time. A track of a
 * resumable upload therefore continues the user's current batch when its upload was started before
 * that batch's newest track was stored (it was started with it, or resumed after it was cut); one
 * started after it begins a new batch.
 */

/** One of the user's uploaded tracks: when it was stored and, for a resumable upload, started (ms). */
export interface BatchCandidate {
  id: number;
  storedAt: number;
  startedAt: number | null;
}

/** How many of the newest uploads the database's reading of the rule looks back over. */
export const BATCH_LOOKBACK = 200;

/**
 * The newest batch among `newestFirst` (ordered by stored time, newest first): walking back, an
 * older track belongs with the newer one when both were stored at once (one request), or when the
 * newer one's upload was started before the older one was stored. Ids ascending.
 */
export function chainBatch(newestFirst: readonly BatchCandidate[]): number[] {
  if (newestFirst.length === 0) return [];
  const ids = [newestFirst[0].id];
  for (let i = 1; i < newestFirst.length; i++) {
    const newer = newestFirst[i - 1];
    const older = newestFirst[i];
    const together = older.storedAt === newer.storedAt ||
      (newer.startedAt !== null && newer.startedAt < older.storedAt);
    if (!together) break;
    ids.push(older.id);
  }
  return ids.sort((a, b) => a - b);
}

/** Uploads only: tracks staff add by hand have no size. */
const uploadedBy = (userId: number) => and(eq(tracks.user_id, userId), isNotNull(tracks.size));

/**
 * The user's latest batch read from the database, by `chainBatch`. A resumable upload's start is
 * read from its upload row, kept a day past its expiry (about two days): after that its track counts
 * as a batch of its own, as the status keys (24 h) are gone by then too. `without`: tracks left out
 * (a track being added, whose upload row is not marked completed yet).
 */
export async function latestBatchFromDb(db: Db, userId: number, without: readonly number[] = []): Promise<number[]> {
  const recent = await db
    .select({ id: tracks.id, upload_date: tracks.upload_date })
    .from(tracks)
    .where(without.length ? and(uploadedBy(userId), notInArray(tracks.id, [...without])) : uploadedBy(userId))
    .orderBy(desc(tracks.upload_date), desc(tracks.id))
    .limit(BATCH_LOOKBACK);
  if (recent.length === 0) return [];
  const starts = await db
    .select({ track_id: uploadSessions.track_id, created_at: uploadSessions.created_at })
    .from(uploadSessions)
    .where(and(
      eq(uploadSessions.user_id, userId),
      eq(uploadSessions.state, "completed"),
      inArray(uploadSessions.track_id, recent.map((r) => r.id)),
    ));
  const startedAt = new Map(starts.map((s) => [s.track_id, s.created_at.getTime()]));
  return chainBatch(recent.map((r) => ({
    id: r.id,
    storedAt: r.upload_date.getTime(),
    startedAt: startedAt.get(r.id) ?? null,
  })));
}

/** Does an upload started at `startedAt` continue the batch `ids` (started before its newest track was stored)? */
export async function continuesBatch(db: Db, ids: readonly number[], startedAt: Date): Promise<boolean> {
  if (ids.length === 0) return false;
  const [row] = await db.select({ newest: max(tracks.upload_date) }).from(tracks).where(inArray(tracks.id, [...ids]));
  const newest = row?.newest;
  return newest !== null && newest !== undefined && startedAt.getTime() < new Date(newest).getTime();
}

/** The batch's rows for its error lines and success text. */
export async function batchRows(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return await db
    .select({ id: tracks.id, status: tracks.status, filename: tracks.filename, error: tracks.error })
    .from(tracks)
    .where(inArray(tracks.id, ids))
    .orderBy(asc(tracks.id));
}

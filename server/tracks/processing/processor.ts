import { and, asc, eq, isNotNull, ne, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { tracks } from "../../../db/schema.ts";
import type { AppDeps } from "../../deps.ts";
import { analyseTrack, PROCESSING_ERRORS, type Verdict } from "./analyse-track.ts";
import { createStatusKeys, STATUS_COLUMNS, type StatusKeys } from "./status-keys.ts";

/**
 * Track processing on the deferred task queue: each stored upload is checked (really MPEG layer III,
 * its facts and SHA-256 recorded) after the upload has answered. The database row is the record of
 * truth; the status keys follow it.
 */
export interface Processor {
  /** Queues a stored track for processing (a track already queued or running is not queued twice). */
  enqueue(trackId: number): void;
  /** Queues every track still `processing` in the database (start-up after a restart). */
  resume(): Promise<number>;
  /** The status keys the upload and the read calls share. */
  readonly status: StatusKeys;
}

export interface ProcessorOptions {
  /** Pause before a retry grows with each attempt: attempt × this. */
  retryDelayMs?: number;
}

const otherTracks = alias(tracks, "other_tracks");

export function createProcessor(deps: AppDeps, opts: ProcessorOptions = {}): Processor {
  const { db, storage, queue, logger, clock } = deps;
  const maxAttempts = deps.config.processingMaxAttempts;
  const retryDelayMs = opts.retryDelayMs ?? 500;
  const status = createStatusKeys(deps);
  /** Ids queued or running in this process. */
  const active = new Set<number>();

  async function loadStatusRow(id: number) {
    const [row] = await db.select(STATUS_COLUMNS).from(tracks).where(eq(tracks.id, id)).limit(1);
    return row;
  }

  /** Records a final verdict, unless the track has left `processing` meanwhile (deleted, or ended). */
  async function record(id: number, storageKey: string | null, verdict: Verdict): Promise<void> {
    const now = clock.now();
    if (verdict.status === "completed") {
      const f = verdict.facts;
      // One statement: the duplicate check and the completion cannot interleave with another job's,
      // so two copies of one file in flight cannot both end `completed`.
      const done = await db
        .update(tracks)
        .set({ ...f, status: "completed", error: null, processed_at: now, updated_at: now })
        .where(
          and(
            eq(tracks.id, id),
            eq(tracks.status, "processing"),
            notExists(
              db
                .select({ one: sql`1` })
                .from(otherTracks)
                .where(
                  and(
                    eq(otherTracks.checksum, f.checksum),
                    ne(otherTracks.id, id),
                    eq(otherTracks.status, "completed"),
                  ),
                ),
            ),
          ),
        )
        .returning({ id: tracks.id });
      if (done.length === 0) {
        const row = await loadStatusRow(id);
        if (!row || row.status !== "processing") return;
        verdict = {
          status: "failed",
          error: PROCESSING_ERRORS.duplicate,
          discard: true,
          size: f.size,
          checksum: f.checksum,
        };
      }
    }
    if (verdict.status === "failed") {
      const updated = await db
        .update(tracks)
        .set({
          status: "failed",
          error: verdict.error,
          ...(verdict.size !== undefined ? { size: verdict.size } : {}),
          ...(verdict.checksum !== undefined ? { checksum: verdict.checksum } : {}),
          // The file of an upload that is not usable audio is not kept (decision 0021).
          ...(verdict.discard ? { storage_key: null } : {}),
          processed_at: now,
          updated_at: now,
        })
        .where(and(eq(tracks.id, id), eq(tracks.status, "processing")))
        .returning({ id: tracks.id });
      if (updated.length === 0) return;
      if (verdict.discard && storageKey) {
        await storage.delete(storageKey).catch((err) => logger.warn("could not delete a failed upload", { id, err }));
      }
    }
    const row = await loadStatusRow(id);
    if (row) await status.trackFinished(row);
  }

  /** One attempt. The attempt is counted in the row before work starts, so a crash counts too. */
  async function attempt(id: number): Promise<void> {
    const [row] = await db
      .select({ status: tracks.status, attempts: tracks.attempts, storage_key: tracks.storage_key })
      .from(tracks)
      .where(eq(tracks.id, id))
      .limit(1);
    // A row without a stored file (created by staff) has nothing to check.
    if (!row || row.status !== "processing" || !row.storage_key) return;
    if (row.attempts >= maxAttempts) {
      await record(id, row.storage_key, {
        status: "failed",
        error: PROCESSING_ERRORS.exhausted(row.attempts),
        discard: false,
      });
      return;
    }
    await db
      .update(tracks)
      .set({ attempts: row.attempts + 1, updated_at: clock.now() })
      .where(eq(tracks.id, id));
    const verdict = await analyseTrack(storage, row.storage_key);
    await record(id, row.storage_key, verdict);
  }

  /** A job: an attempt, retried on a thrown error up to the limit, then the track is failed. */
  function job(id: number, tries: number) {
    return async () => {
      try {
        await attempt(id);
        active.delete(id);
      } catch (err) {
        const made = tries + 1;
        logger.warn("track processing attempt failed", { trackId: id, attempt: made, err });
        if (made < maxAttempts) {
          // The retry waits inside this job, so the queue never looks idle between attempts.
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs * made));
          active.delete(id);
          enqueueJob(id, made);
          return;
        }
        active.delete(id);
        try {
          const [row] = await db
            .select({ storage_key: tracks.storage_key })
            .from(tracks)
            .where(eq(tracks.id, id))
            .limit(1);
          if (row) {
            await record(id, row.storage_key, {
              status: "failed",
              error: PROCESSING_ERRORS.exhausted(made),
              discard: false,
            });
          }
        } catch (finalErr) {
          // Still `processing` in the database: the next start-up picks it up again.
          logger.error("could not mark a track failed", { trackId: id, err: finalErr });
        }
      }
    };
  }

  function enqueueJob(id: number, tries: number) {
    if (active.has(id)) return;
    active.add(id);
    queue.push(job(id, tries));
  }

  return {
    status,
    enqueue(trackId) {
      enqueueJob(trackId, 0);
    },
    async resume() {
      const rows = await db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(eq(tracks.status, "processing"), isNotNull(tracks.storage_key)))
        .orderBy(asc(tracks.id));
      for (const r of rows) enqueueJob(r.id, 0);
      return rows.length;
    },
  };
}

import type { AppDeps } from "../../deps.ts";
import type { TracksService } from "../service.ts";
import { AudioDecodeError } from "../../audio/analyse-mp3.ts";
import { analyseStored, analyseTrack, PROCESSING_ERRORS, type Verdict } from "./analyse-track.ts";
import type { StatusKeys } from "./status-keys.ts";

/**
 * Track processing on the deferred task queue: each stored upload is checked (really MPEG layer III,
 * its facts and SHA-256 recorded) after the upload has answered. The database row is the record of
 * truth, read and written through the tracks service; the status keys follow it.
 */
export interface Processor {
  /** Queues a stored track for processing (a track already queued or running is not queued twice). */
  enqueue(trackId: number): void;
  /** Queues every track still `processing` in the database (start-up after a restart). */
  resume(): Promise<number>;
  /**
   * Gives every completed track without an audio report one (tracks processed before the analysis
   * existed): one track at a time on the processing queue, so uploads' jobs take turns with it and
   * no request waits for it. Resolves with the number of tracks found, before they are analysed.
   */
  analyseOlder(): Promise<number>;
  /** The status keys the upload and the read calls share. */
  readonly status: StatusKeys;
}

export interface ProcessorOptions {
  /** Pause before a retry grows with each attempt: attempt × this. */
  retryDelayMs?: number;
}

export function createProcessor(deps: AppDeps & { tracks: TracksService }, opts: ProcessorOptions = {}): Processor {
  const { tracks, storage, queue, logger } = deps;
  const maxAttempts = deps.config.processingMaxAttempts;
  const retryDelayMs = opts.retryDelayMs ?? 500;
  const status = tracks.status;
  /** Ids queued or running in this process. */
  const active = new Set<number>();

  /** Records a final verdict, unless the track has left `processing` meanwhile (deleted, or ended). */
  async function record(id: number, storageKey: string | null, verdict: Verdict): Promise<void> {
    if (verdict.status === "completed") {
      const f = verdict.facts;
      if (await tracks.complete(id, f)) {
        // After the completion: a duplicate never gets a report. Should this write fail, the
        // start-up pass (`analyseOlder`) gives the track its report later.
        await tracks.analysis.save(id, verdict.analysis);
      } else {
        const row = await tracks.statusRow(id);
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
      if (!(await tracks.fail(id, verdict))) return;
      // The file of an upload that is not usable audio is not kept (decision 0021).
      if (verdict.discard && storageKey) {
        await storage.delete(storageKey).catch((err) => logger.warn("could not delete a failed upload", { id, err }));
      }
    }
    const row = await tracks.statusRow(id);
    if (row) await status.trackFinished(row);
  }

  /**
   * The report of one track completed before the analysis existed. Content the decoder refuses (or a
   * file that is gone) is remembered with its reason, so later starts do not try it again; the track
   * itself stays completed: it was accepted, and staff still see it.
   */
  async function analyseOlderTrack(id: number): Promise<void> {
    const key = await tracks.analysis.fileToAnalyse(id);
    if (!key) return;
    if (!(await storage.stat(key))) return await tracks.analysis.saveError(id, PROCESSING_ERRORS.missing);
    try {
      await tracks.analysis.save(id, await analyseStored(storage, key));
    } catch (err) {
      if (!(err instanceof AudioDecodeError)) throw err;
      await tracks.analysis.saveError(id, err.message);
    }
  }

  /** One attempt. The attempt is counted in the row before work starts, so a crash counts too. */
  async function attempt(id: number): Promise<void> {
    const row = await tracks.processingState(id);
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
    await tracks.countAttempt(id, row.attempts + 1);
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
          const row = await tracks.processingState(id);
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
      const ids = await tracks.unfinishedIds();
      for (const id of ids) enqueueJob(id, 0);
      return ids.length;
    },
    async analyseOlder() {
      const ids = await tracks.analysis.unanalysedIds();
      let next = 0;
      // Each job queues the next before it ends, so the queue is never idle in between.
      const queueNext = () => {
        if (next >= ids.length) return;
        const id = ids[next++];
        queue.push(async () => {
          try {
            await analyseOlderTrack(id);
          } catch (err) {
            // A storage or database fault: the track keeps no report and is tried at the next start.
            logger.warn("could not analyse an older track", { trackId: id, err });
          } finally {
            queueNext();
          }
        });
      };
      queueNext();
      return ids.length;
    },
  };
}

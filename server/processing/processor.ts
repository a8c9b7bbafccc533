import type { AppDeps } from "../deps.ts";
import type { ProcessingService } from "../track-services.ts";
import { AudioDecodeError } from "../audio/analyse-mp3.ts";
import { analyseStored, analyseTrack, PROCESSING_ERRORS, type Verdict } from "./analyse-track.ts";
import type { StatusKeys } from "./status-keys.ts";
import { applyTempoWindow } from "../intake/check.ts";
import { parseDirections } from "../../domain/directions.ts";
import type { TelegramDesk } from "../notifications/telegram-desk/desk.ts";
import type { TelegramSender } from "../notifications/sender.ts";

/**
 * Track processing on the deferred task queue: each stored upload is checked (really MPEG layer III,
 * its facts and SHA-256 recorded) after the upload has answered. The database row is the record of
 * truth, read and written through the tracks service; the status keys follow it.
 *
 * Several instances may share one database (docs/decisions/0170): a job first takes the track's
 * lease in the row (one atomic UPDATE), renews it every lease/3 while it works, and records its
 * verdict only while it still holds it. A track whose holder died is free again once the lease has
 * ended, and the sweep of any instance takes it: at start, every lease/3 (at most 5 s apart), when
 * the earliest held lease ends, and after each job.
 *
 * Jobs are taken fairly across artists (docs/decisions/0195): a queued job does not stand for one
 * track; when it starts it claims the next track by `processing.claimNext` (the artist with the fewest
 * tracks in flight on any instance, then the one served least recently), so one artist's batch
 * delays another artist's first track by at most the jobs already running.
 */
export interface Processor {
  /**
   * Queues a job for a stored track (none when it is running here already). The job takes the
   * next track in the fair order when it starts, which may be another artist's: every waiting track
   * is taken by some job or sweep (docs/decisions/0195).
   */
  enqueue(trackId: number): void;
  /**
   * Queues every track waiting for processing that nobody holds (left by a previous run, or whose
   * holder's lease has ended), without starting the sweep (tests). The number queued.
   */
  resume(): Promise<number>;
  /**
   * The idle sweep: one pass now, then one every lease/3 (at most SWEEP_MAX_MS apart), when the
   * earliest lease another holds ends, and after each job; each pass queues as many free tracks as this instance has free job
   * slots (PROCESSING_CONCURRENCY), and each finished job's freed slot takes the next. Its timer
   * does not keep the process alive. The number the first pass queued (tracks left by the last run).
   */
  start(): Promise<number>;
  /** One pass of the sweep (what the timer runs). The number queued. */
  sweep(): Promise<number>;
  /**
   * Shutting down: stops the sweep and claims, closes the processing queue (running jobs get
   * `drainMs` to end, queued ones are dropped) and gives up the leases of tracks not finished, so
   * another instance takes them at once instead of after the lease.
   */
  stop(drainMs?: number): Promise<void>;
  /**
   * Gives every completed track without an audio report one (tracks processed before the analysis
   * existed): one track at a time on the processing queue, so uploads' jobs take turns with it and
   * no request waits for it. Resolves with the number of tracks found, before they are analysed.
   */
  analyseOlder(): Promise<number>;
  /** The status keys the upload and the read calls share. */
  readonly status: StatusKeys;
  /** This instance's name in `tracks.lease_owner`. */
  readonly owner: string;
}

/** The longest time between two sweeps of an instance, whatever the lease. */
const SWEEP_MAX_MS = 5_000;

export interface ProcessorOptions {
  /** Pause before a retry grows with each attempt: attempt × this. */
  retryDelayMs?: number;
  /** The lease holder's name; a new random one by default (one per process). */
  owner?: string;
  /** Time between sweeps; lease/3, at most SWEEP_MAX_MS, by default. */
  sweepIntervalMs?: number;
}

export function createProcessor(
  deps: AppDeps & {
    processing: ProcessingService;
    /** The staff cards in Telegram (issue 27): a completed track's cards are queued. */
    desk?: Pick<TelegramDesk, "trackCompleted">;
    /** Nudged once cards are queued. */
    sender?: Pick<TelegramSender, "kick">;
  },
  opts: ProcessorOptions = {},
): Processor {
  const { processing, storage, queue, logger, clock } = deps;
  const maxAttempts = deps.config.processingMaxAttempts;
  const concurrency = deps.config.processingConcurrency;
  const retryDelayMs = opts.retryDelayMs ?? 500;
  const leaseMs = deps.config.processingLeaseS * 1000;
  const renewEveryMs = Math.max(100, Math.floor(leaseMs / 3));
  // At most SWEEP_MAX_MS apart: a lease given up at shutdown is taken that soon by another instance.
  const sweepEveryMs = opts.sweepIntervalMs ?? Math.min(renewEveryMs, SWEEP_MAX_MS);
  const owner = opts.owner ?? `${Deno.pid}-${crypto.randomUUID()}`;
  const status = processing.status;
  /** Ids claimed and running (or waiting to retry) in this process. */
  const active = new Set<number>();
  /** Jobs queued that have not started yet; each claims the next track in the fair order. */
  let waiting = 0;
  /** Ids whose lease this process took and has not let go yet. */
  const held = new Set<number>();
  let renewTimer: ReturnType<typeof setInterval> | undefined;
  let sweepTimer: ReturnType<typeof setTimeout> | undefined;
  let sweeping = false;
  let sweepAgain = false;
  let started = false;
  let stopped = false;

  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs);

  /** Extends every lease this process holds, in one statement. */
  async function renew(): Promise<void> {
    if (held.size === 0) return;
    const ids = [...held];
    try {
      const kept = new Set(await processing.renewLeases(owner, ids, leaseEnd()));
      for (const id of ids) {
        // Ended meanwhile (its verdict is being written, or it was deleted), or taken over after
        // this process stalled past the lease: the job's verdict will then be refused.
        if (!kept.has(id) && held.has(id)) logger.debug("processing lease no longer held", { trackId: id });
      }
    } catch (err) {
      logger.warn("could not renew processing leases", { err, tracks: ids.length });
    }
  }

  function hold(id: number) {
    held.add(id);
    if (renewTimer === undefined) {
      renewTimer = setInterval(renew, renewEveryMs);
      Deno.unrefTimer(renewTimer);
    }
  }

  /** Stops renewing a track's lease; true when it was held. */
  function drop(id: number): boolean {
    const had = held.delete(id);
    if (held.size === 0 && renewTimer !== undefined) {
      clearInterval(renewTimer);
      renewTimer = undefined;
    }
    return had;
  }

  /**
   * Lets a track's lease go once its job chain is over. A written verdict has cleared the lease
   * already (`complete`, `fail`) and dropped it here, so only a chain that ended without one writes.
   */
  async function letGo(id: number) {
    if (!drop(id)) return;
    await processing.releaseLeases(owner, [id]).catch((err) =>
      logger.warn("could not release a processing lease", { trackId: id, err })
    );
  }

  /**
   * Records a final verdict, unless the track has left `processing` meanwhile (deleted, or ended) or
   * another instance has taken its lease over.
   */
  async function record(id: number, storageKey: string | null, verdict: Verdict): Promise<void> {
    if (verdict.status === "completed") {
      const f = verdict.facts;
      // The same recording however re-encoded (issue 25, docs/decisions/0248): the same person's
      // earlier track fails this one with the identical-bytes message; another person's is noted for
      // staff only. Checked before the completion (the identical-bytes check stays inside it).
      const audio = await processing.fingerprints.matches(id, verdict.fingerprint);
      const completed = audio.sameOwner === null
        ? await processing.complete(id, { ...f, same_audio_as: audio.otherOwner }, owner)
        : undefined;
      if (completed) {
        drop(id);
        // Should this write fail, the track stays completed without a fingerprint: later copies of
        // it are then not recognised, which is no reason to fail this one.
        await processing.fingerprints.save(id, verdict.fingerprint).catch((err) =>
          logger.warn("could not store an audio fingerprint", { trackId: id, err })
        );
        // After the completion: a duplicate never gets a report. Should this write fail, the
        // start-up pass (`analyseOlder`) gives the track its report later.
        await processing.analysis.save(id, verdict.analysis);
        await status.trackFinished(completed);
        // With its report saved, so the cards show its tempo, key and loudness and the clip starts
        // at its drop. A failure here costs the cards, never the track.
        if (deps.desk) {
          try {
            if (await deps.desk.trackCompleted(id)) deps.sender?.kick();
          } catch (err) {
            logger.warn("could not queue the track's staff cards", { trackId: id, err });
          }
        }
        return;
      }
      // Not written: a copy of the same person's completed track (the same bytes, or the same audio),
      // or the track left `processing` (deleted, ended) or its lease is another's, and then `fail`
      // below writes nothing either.
      verdict = {
        status: "failed",
        error: PROCESSING_ERRORS.duplicate,
        discard: true,
        size: f.size,
        checksum: f.checksum,
      };
    }
    // The write returns the row as the status key shows it: no read after it.
    const failed = await processing.fail(id, verdict, owner);
    if (!failed) return;
    drop(id);
    // The file of an upload that is not usable audio is not kept (decision 0021).
    if (verdict.discard && storageKey) {
      await storage.delete(storageKey).catch((err) => logger.warn("could not delete a failed upload", { id, err }));
    }
    await status.trackFinished(failed);
  }

  /**
   * The report of one track completed before the analysis existed. Content the decoder refuses (or a
   * file that is gone) is remembered with its reason, so later starts do not try it again; the track
   * itself stays completed: it was accepted, and staff still see it.
   */
  async function analyseOlderTrack(id: number): Promise<void> {
    const key = await processing.analysis.fileToAnalyse(id);
    if (!key) return;
    if (!(await storage.stat(key))) return await processing.analysis.saveError(id, PROCESSING_ERRORS.missing);
    try {
      await processing.analysis.save(id, await analyseStored(storage, key));
    } catch (err) {
      if (!(err instanceof AudioDecodeError)) throw err;
      await processing.analysis.saveError(id, err.message);
    }
  }

  /**
   * One attempt: takes the lease, then counts the attempt in the row before work starts, so a crash
   * counts too (and PROCESSING_MAX_ATTEMPTS ends a track that kills every instance trying it).
   */
  async function attempt(id: number, claimed?: { attempts: number; storage_key: string }): Promise<void> {
    // Not taken: finished, deleted, without a stored file (created by staff), or another instance's.
    const row = claimed ?? (stopped ? undefined : await processing.claim(id, owner, leaseEnd()));
    if (!row) return;
    hold(id);
    // Stopped while the claim was on its way: `stop` has given this instance's leases up already, so
    // the job's own `letGo` gives this one back for another instance to take at once.
    if (stopped) return;
    if (row.attempts >= maxAttempts) {
      await record(id, row.storage_key, {
        status: "failed",
        error: PROCESSING_ERRORS.exhausted(row.attempts),
        discard: false,
      });
      return;
    }
    if (!(await processing.countAttempt(id, row.attempts + 1, owner))) return;
    let verdict = await analyseTrack(storage, row.storage_key, { maxTrackMinutes: deps.config.maxTrackMinutes });
    // The directions' tempo windows (issue 25): refused, or flagged for the staff.
    if (verdict.status === "completed" && verdict.analysis.bpm !== null) {
      const track = await processing.statusRow(id);
      if (track) verdict = await applyTempoWindow(deps.db, parseDirections(track.directions), verdict);
    }
    await record(id, row.storage_key, verdict);
  }

  /**
   * A job: an attempt (on the track `claimed` already, or claiming `id`), retried on a thrown error
   * up to the limit, then the track is failed.
   */
  function job(id: number, tries: number, claimed?: { attempts: number; storage_key: string }) {
    return async () => {
      let retried = false;
      try {
        await attempt(id, claimed);
      } catch (err) {
        const made = tries + 1;
        logger.warn("track processing attempt failed", { trackId: id, attempt: made, err });
        if (made < maxAttempts && !stopped) {
          // The retry waits inside this job, so the queue never looks idle between attempts; the
          // lease stays held (and renewed) meanwhile.
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs * made));
          active.delete(id);
          retried = enqueueJob(id, made);
          return;
        }
        try {
          // `fail` writes only while the track is processing and this instance holds its lease; the
          // file is kept (no discard), so the key is not needed.
          await record(id, null, { status: "failed", error: PROCESSING_ERRORS.exhausted(made), discard: false });
        } catch (finalErr) {
          // Still `processing` in the database: the lease is let go below, and a sweep takes it again.
          logger.error("could not mark a track failed", { trackId: id, err: finalErr });
        }
      } finally {
        if (!retried) {
          active.delete(id);
          await letGo(id);
          // A slot is free: look for a track nobody holds.
          if (started && !stopped) void sweep();
        }
      }
    };
  }

  /** Queues the retry of a track this instance holds, unless a job for it is running here. */
  function enqueueJob(id: number, tries: number): boolean {
    if (stopped || active.has(id)) return false;
    active.add(id);
    queue.push(job(id, tries));
    return true;
  }

  /**
   * Queues a job that, when it starts, claims the next track in the fair order (docs/decisions/0195)
   * and works on it. Deciding at the start, not when queued, lets a track uploaded later by another
   * artist go before the rest of a batch already queued here.
   */
  function takeNext(): void {
    if (stopped) return;
    waiting++;
    queue.push(async () => {
      waiting--;
      if (stopped) return;
      let row;
      try {
        row = await processing.claimNext(owner, leaseEnd());
      } catch (err) {
        // The track stays free: a later sweep takes it.
        logger.warn("could not claim a track to process", { err });
        return;
      }
      if (!row) return;
      // Its lease had run out while this instance's own job still works on it: that job keeps it.
      if (active.has(row.id)) return;
      active.add(row.id);
      await job(row.id, 0, row)();
    });
  }

  /** Queues a job for each track nobody holds, up to `limit`; when to look again (app clock). */
  async function pass(limit: number): Promise<{ queued: number; nextExpiry: Date | null }> {
    if (stopped || limit <= 0) return { queued: 0, nextExpiry: null };
    const { ids, nextExpiry } = await processing.pendingProcessing(limit);
    const queued = Math.min(limit, ids.length);
    for (let i = 0; i < queued; i++) takeNext();
    return { queued, nextExpiry };
  }

  /** One sweep, never two at once (a call during a sweep runs one more after it). */
  async function sweep(): Promise<number> {
    if (sweeping) {
      sweepAgain = true;
      return 0;
    }
    sweeping = true;
    let queued = 0;
    let nextExpiry: Date | null = null;
    try {
      do {
        sweepAgain = false;
        const r = await pass(concurrency - active.size - waiting);
        queued += r.queued;
        nextExpiry = r.nextExpiry;
      } while (sweepAgain && !stopped);
    } catch (err) {
      logger.warn("processing sweep failed", { err });
    } finally {
      sweeping = false;
    }
    if (started) schedule(nextExpiry);
    return queued;
  }

  /** The next sweep: after the interval, or just after the earliest held lease ends if sooner. */
  function schedule(nextExpiry: Date | null) {
    if (stopped) return;
    let delay = sweepEveryMs;
    if (nextExpiry) delay = Math.min(delay, Math.max(50, nextExpiry.getTime() - clock.now().getTime() + 50));
    clearTimeout(sweepTimer);
    sweepTimer = setTimeout(() => void sweep(), delay);
    Deno.unrefTimer(sweepTimer);
  }

  return {
    status,
    owner,
    enqueue(trackId) {
      if (!active.has(trackId)) takeNext();
    },
    async resume() {
      return (await pass(Number.MAX_SAFE_INTEGER)).queued;
    },
    start() {
      if (started || stopped) return Promise.resolve(0);
      started = true;
      return sweep();
    },
    sweep,
    async stop(drainMs = 20_000) {
      stopped = true;
      clearTimeout(sweepTimer);
      await queue.close(drainMs);
      // Jobs still running past the drain keep working until the process exits, but their verdicts
      // are refused from here on: the track is any instance's again.
      try {
        const released = await processing.releaseLeases(owner);
        if (released) logger.info("released processing leases", { tracks: released });
      } catch (err) {
        logger.warn("could not release processing leases; they end on their own", { err });
      }
      held.clear();
      clearInterval(renewTimer);
      renewTimer = undefined;
    },
    async analyseOlder() {
      const ids = await processing.analysis.unanalysedIds();
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

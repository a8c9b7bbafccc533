import { offerVersion } from "./version-offers.ts";
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

/** What the processor's steps (moved out of `createProcessor`) share: its dependencies, settings and state. */
interface ProcessorCore {
  deps: ProcessorDeps;
  processing: ProcessingService;
  storage: ProcessorDeps["storage"];
  queue: ProcessorDeps["queue"];
  logger: ProcessorDeps["logger"];
  clock: ProcessorDeps["clock"];
  maxAttempts: number;
  concurrency: number;
  retryDelayMs: number;
  renewEveryMs: number;
  sweepEveryMs: number;
  owner: string;
  status: StatusKeys;
  /** Ids claimed and running (or waiting to retry) in this process. */
  active: Set<number>;
  /** Jobs queued that have not started yet; each claims the next track in the fair order. */
  waiting: number;
  /** Ids whose lease this process took and has not let go yet. */
  held: Set<number>;
  renewTimer: ReturnType<typeof setInterval> | undefined;
  sweepTimer: ReturnType<typeof setTimeout> | undefined;
  sweeping: boolean;
  sweepAgain: boolean;
  started: boolean;
  stopped: boolean;
  leaseEnd: () => Date;
}

type ProcessorDeps = AppDeps & {
  processing: ProcessingService;
  /** The staff cards in Telegram (issue 27): a completed track's cards are queued. */
  desk?: Pick<TelegramDesk, "trackCompleted">;
  /** Nudged once cards are queued. */
  sender?: Pick<TelegramSender, "kick">;
};

/** Extends every lease this process holds, in one statement. */
async function renew(pr: ProcessorCore): Promise<void> {
  if (pr.held.size === 0) return;
  const ids = [...pr.held];
  try {
    const kept = new Set(await pr.processing.renewLeases(pr.owner, ids, pr.leaseEnd()));
    for (const id of ids) {
      // Ended meanwhile (its verdict is being written, or it was deleted), or taken over after
      // this process stalled past the lease: the job's verdict will then be refused.
      if (!kept.has(id) && pr.held.has(id)) pr.logger.debug("processing lease no longer held", { trackId: id });
    }
  } catch (err) {
    pr.logger.warn("could not renew processing leases", { err, tracks: ids.length });
  }
}

function hold(pr: ProcessorCore, id: number) {
  pr.held.add(id);
  if (pr.renewTimer === undefined) {
    pr.renewTimer = setInterval(() => renew(pr), pr.renewEveryMs);
    Deno.unrefTimer(pr.renewTimer);
  }
}

/** Stops renewing a track's lease; true when it was held. */
function drop(pr: ProcessorCore, id: number): boolean {
  const had = pr.held.delete(id);
  if (pr.held.size === 0 && pr.renewTimer !== undefined) {
    clearInterval(pr.renewTimer);
    pr.renewTimer = undefined;
  }
  return had;
}

/**
 * Lets a track's lease go once its job chain is over. A written verdict has cleared the lease
 * already (`complete`, `fail`) and dropped it here, so only a chain that ended without one writes.
 */
async function letGo(pr: ProcessorCore, id: number) {
  if (!drop(pr, id)) return;
  await pr.processing.releaseLeases(pr.owner, [id]).catch((err) =>
    pr.logger.warn("could not release a processing lease", { trackId: id, err })
  );
}

/**
 * Records a final verdict, unless the track has left `processing` meanwhile (deleted, or ended) or
 * another instance has taken its lease over.
 */
async function record(pr: ProcessorCore, id: number, storageKey: string | null, verdict: Verdict): Promise<void> {
  if (verdict.status === "completed") {
    const f = verdict.facts;
    // The same recording however re-encoded (issue 25, docs/decisions/0248): the same person's
    // earlier track fails this one with the identical-bytes message; another person's is noted for
    // staff only. Checked before the completion (the identical-bytes check stays inside it).
    // Another version (an instrumental, another mix: issue 38, 0422) is noted for staff, never refused.
    const audio = await pr.processing.fingerprints.matches(id, verdict.fingerprint);
    const similar_to_track_id = audio.versionOf?.trackId ?? null;
    const completed = audio.sameOwner === null
      ? await pr.processing.complete(id, { ...f, same_audio_as: audio.otherOwner, similar_to_track_id }, pr.owner)
      : undefined;
    if (completed) {
      drop(pr, id);
      // Should this write fail, the track stays completed without a fingerprint: later copies of
      // it are then not recognised, which is no reason to fail this one.
      await pr.processing.fingerprints.save(id, verdict.fingerprint).catch((err) =>
        pr.logger.warn("could not store an audio fingerprint", { trackId: id, err })
      );
      // Another version of an earlier track of the same artist: offered to them as its new version
      // (issue 37). Bookkeeping: a failure costs the offer, never the track.
      await offerVersion(pr.deps.db, id, audio, verdict.fingerprint, pr.clock.now()).catch((err) =>
        pr.logger.warn("could not record a version offer", { trackId: id, err })
      );
      // After the completion: a duplicate never gets a report. Should this write fail, the
      // start-up pass (`analyseOlder`) gives the track its report later.
      await pr.processing.analysis.save(id, verdict.analysis);
      await pr.status.trackFinished(completed);
      // With its report saved, so the cards show its tempo, key and loudness and the clip starts
      // at its drop. A failure here costs the cards, never the track.
      if (pr.deps.desk) {
        try {
          if (await pr.deps.desk.trackCompleted(id)) pr.deps.sender?.kick();
        } catch (err) {
          pr.logger.warn("could not queue the track's staff cards", { trackId: id, err });
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
  const failed = await pr.processing.fail(id, verdict, pr.owner);
  if (!failed) return;
  drop(pr, id);
  // The file of an upload that is not usable audio is not kept (decision 0021).
  if (verdict.discard && storageKey) {
    await pr.storage.delete(storageKey).catch((err) => pr.logger.warn("could not delete a failed upload", { id, err }));
  }
  await pr.status.trackFinished(failed);
}

/**
 * The report of one track completed before the analysis existed. Content the decoder refuses (or a
 * file that is gone) is remembered with its reason, so later starts do not try it again; the track
 * itself stays completed: it was accepted, and staff still see it.
 */
async function analyseOlderTrack(pr: ProcessorCore, id: number): Promise<void> {
  const key = await pr.processing.analysis.fileToAnalyse(id);
  if (!key) return;
  if (!(await pr.storage.stat(key))) return await pr.processing.analysis.saveError(id, PROCESSING_ERRORS.missing);
  try {
    await pr.processing.analysis.save(id, await analyseStored(pr.storage, key));
  } catch (err) {
    if (!(err instanceof AudioDecodeError)) throw err;
    await pr.processing.analysis.saveError(id, err.message);
  }
}

/**
 * One attempt: takes the lease, then counts the attempt in the row before work starts, so a crash
 * counts too (and PROCESSING_MAX_ATTEMPTS ends a track that kills every instance trying it).
 */
async function attempt(
  pr: ProcessorCore,
  id: number,
  claimed?: { attempts: number; storage_key: string },
): Promise<void> {
  // Not taken: finished, deleted, without a stored file (created by staff), or another instance's.
  const row = claimed ?? (pr.stopped ? undefined : await pr.processing.claim(id, pr.owner, pr.leaseEnd()));
  if (!row) return;
  hold(pr, id);
  // Stopped while the claim was on its way: `stop` has given this instance's leases up already, so
  // the job's own `letGo` gives this one back for another instance to take at once.
  if (pr.stopped) return;
  if (row.attempts >= pr.maxAttempts) {
    await record(pr, id, row.storage_key, {
      status: "failed",
      error: PROCESSING_ERRORS.exhausted(row.attempts),
      discard: false,
    });
    return;
  }
  if (!(await pr.processing.countAttempt(id, row.attempts + 1, pr.owner))) return;
  let verdict = await analyseTrack(pr.storage, row.storage_key, { maxTrackMinutes: pr.deps.config.maxTrackMinutes });
  // The directions' tempo windows (issue 25): refused, or flagged for the staff.
  if (verdict.status === "completed" && verdict.analysis.bpm !== null) {
    const track = await pr.processing.statusRow(id);
    if (track) verdict = await applyTempoWindow(pr.deps.db, parseDirections(track.directions), verdict);
  }
  await record(pr, id, row.storage_key, verdict);
}

/**
 * A job: an attempt (on the track `claimed` already, or claiming `id`), retried on a thrown error
 * up to the limit, then the track is failed.
 */
function job(pr: ProcessorCore, id: number, tries: number, claimed?: { attempts: number; storage_key: string }) {
  return async () => {
    let retried = false;
    try {
      await attempt(pr, id, claimed);
    } catch (err) {
      const made = tries + 1;
      pr.logger.warn("track processing attempt failed", { trackId: id, attempt: made, err });
      if (made < pr.maxAttempts && !pr.stopped) {
        // The retry waits inside this job, so the queue never looks idle between attempts; the
        // lease stays held (and renewed) meanwhile.
        await new Promise((resolve) => setTimeout(resolve, pr.retryDelayMs * made));
        pr.active.delete(id);
        retried = enqueueJob(pr, id, made);
        return;
      }
      try {
        // `fail` writes only while the track is processing and this instance holds its lease; the
        // file is kept (no discard), so the key is not needed.
        await record(pr, id, null, { status: "failed", error: PROCESSING_ERRORS.exhausted(made), discard: false });
      } catch (finalErr) {
        // Still `processing` in the database: the lease is let go below, and a sweep takes it again.
        pr.logger.error("could not mark a track failed", { trackId: id, err: finalErr });
      }
    } finally {
      if (!retried) {
        pr.active.delete(id);
        await letGo(pr, id);
        // A slot is free: look for a track nobody holds.
        if (pr.started && !pr.stopped) void sweep(pr);
      }
    }
  };
}

/** Queues the retry of a track this instance holds, unless a job for it is running here. */
function enqueueJob(pr: ProcessorCore, id: number, tries: number): boolean {
  if (pr.stopped || pr.active.has(id)) return false;
  pr.active.add(id);
  pr.queue.push(job(pr, id, tries));
  return true;
}

/**
 * Queues a job that, when it starts, claims the next track in the fair order (docs/decisions/0195)
 * and works on it. Deciding at the start, not when queued, lets a track uploaded later by another
 * artist go before the rest of a batch already queued here.
 */
function takeNext(pr: ProcessorCore): void {
  if (pr.stopped) return;
  pr.waiting++;
  pr.queue.push(async () => {
    pr.waiting--;
    if (pr.stopped) return;
    let row;
    try {
      row = await pr.processing.claimNext(pr.owner, pr.leaseEnd());
    } catch (err) {
      // The track stays free: a later sweep takes it.
      pr.logger.warn("could not claim a track to process", { err });
      return;
    }
    if (!row) return;
    // Its lease had run out while this instance's own job still works on it: that job keeps it.
    if (pr.active.has(row.id)) return;
    pr.active.add(row.id);
    await job(pr, row.id, 0, row)();
  });
}

/** Queues a job for each track nobody holds, up to `limit`; when to look again (app clock). */
async function pass(pr: ProcessorCore, limit: number): Promise<{ queued: number; nextExpiry: Date | null }> {
  if (pr.stopped || limit <= 0) return { queued: 0, nextExpiry: null };
  const { ids, nextExpiry } = await pr.processing.pendingProcessing(limit);
  const queued = Math.min(limit, ids.length);
  for (let i = 0; i < queued; i++) takeNext(pr);
  return { queued, nextExpiry };
}

/** One sweep, never two at once (a call during a sweep runs one more after it). */
async function sweep(pr: ProcessorCore): Promise<number> {
  if (pr.sweeping) {
    pr.sweepAgain = true;
    return 0;
  }
  pr.sweeping = true;
  let queued = 0;
  let nextExpiry: Date | null = null;
  try {
    do {
      pr.sweepAgain = false;
      const r = await pass(pr, pr.concurrency - pr.active.size - pr.waiting);
      queued += r.queued;
      nextExpiry = r.nextExpiry;
    } while (pr.sweepAgain && !pr.stopped);
  } catch (err) {
    pr.logger.warn("processing sweep failed", { err });
  } finally {
    pr.sweeping = false;
  }
  if (pr.started) schedule(pr, nextExpiry);
  return queued;
}

/** The next sweep: after the interval, or just after the earliest held lease ends if sooner. */
function schedule(pr: ProcessorCore, nextExpiry: Date | null) {
  if (pr.stopped) return;
  let delay = pr.sweepEveryMs;
  if (nextExpiry) delay = Math.min(delay, Math.max(50, nextExpiry.getTime() - pr.clock.now().getTime() + 50));
  clearTimeout(pr.sweepTimer);
  pr.sweepTimer = setTimeout(() => void sweep(pr), delay);
  Deno.unrefTimer(pr.sweepTimer);
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
  /** Ids whose lease this process took and has not let go yet. */
  const held = new Set<number>();

  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs);
  const pr: ProcessorCore = {
    deps,
    processing,
    storage,
    queue,
    logger,
    clock,
    maxAttempts,
    concurrency,
    retryDelayMs,
    renewEveryMs,
    sweepEveryMs,
    owner,
    status,
    active,
    waiting: 0,
    held,
    renewTimer: undefined,
    sweepTimer: undefined,
    sweeping: false,
    sweepAgain: false,
    started: false,
    stopped: false,
    leaseEnd,
  };

  return {
    status,
    owner,
    enqueue(trackId) {
      if (!active.has(trackId)) takeNext(pr);
    },
    async resume() {
      return (await pass(pr, Number.MAX_SAFE_INTEGER)).queued;
    },
    start() {
      if (pr.started || pr.stopped) return Promise.resolve(0);
      pr.started = true;
      return sweep(pr);
    },
    sweep: () => sweep(pr),
    async stop(drainMs = 20_000) {
      pr.stopped = true;
      clearTimeout(pr.sweepTimer);
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
      clearInterval(pr.renewTimer);
      pr.renewTimer = undefined;
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
            await analyseOlderTrack(pr, id);
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

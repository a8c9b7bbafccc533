import type { AppDeps } from "../deps.ts";
import type { ProcessingService, TracksService } from "../track-services.ts";
import { AudioDecodeError } from "../audio/analyse-mp3.ts";
import { analyseStored, AnalysisInterrupted, PROCESSING_ERRORS } from "./analyse-track.ts";
import type { Fingerprint } from "../audio/fingerprint.ts";
import { flagTempoWindow } from "../intake/check.ts";

/**
 * Re-analysis in the background (issue 22, docs/decisions/0217): every completed track whose stored
 * report is older than ANALYSIS_VERSION (server/processing/analysis.ts) and that still has its file is
 * analysed again, one track at a time per instance, and only while no upload waits for processing.
 *
 * - **Leased like processing** (0170): a report is taken by one UPDATE on `track_analysis` that sets
 *   this instance's name and a lease of PROCESSING_LEASE_S, renewed every lease/3 while it is worked
 *   on, so of several instances each takes a different track; a track whose instance died is taken
 *   again once its lease has ended. Each claim counts an attempt (a crash counts too).
 * - **Uploads first**: before each track it looks whether this instance's processing queue has work
 *   (queued or running) or any instance's upload waits unclaimed in the database; then it waits and
 *   looks again. It runs beside the processing queue, not in one of its slots, and the read pass
 *   lets timers and requests in every 8 ms (analyse-track.ts). When this instance's queue gets work
 *   mid-track, the re-analysis stops at the next chunk and gives the track back (its attempt not
 *   counted), to be taken again once processing is idle: an upload shares the CPU with it for one
 *   chunk (about 10 ms) at most.
 * - **Only the report**: the new analysis replaces the report's figures (tempo, drop, key, warnings,
 *   peaks, length) and its version; the track's status, review state and the artist's messages are
 *   never touched. A file that is gone or that the decoder refuses keeps the old report, with the
 *   reason in `reanalysis_error`, and is not tried again at this version; a storage or database
 *   fault keeps it too and is tried again after a pause, at most REANALYSIS_MAX_ATTEMPTS times.
 */
export interface Reanalysis {
  /** Starts the background loop (does nothing when `REANALYSIS` is off, or twice). */
  start(): void;
  /**
   * One step: `busy` when processing has work (nothing taken, or the track taken given back when an
   * upload came mid-way), `none` when no report is due now, else the id of the track analysed again
   * (its verdict written).
   */
  runOnce(): Promise<"busy" | "none" | number>;
  /**
   * Shutting down: stops the loop and the running track (at its next chunk; up to `drainMs` for a
   * stalled read), then gives up the leases still held (their attempt not counted), so another
   * instance takes them at once.
   */
  stop(drainMs?: number): Promise<void>;
  /** This instance's name in `track_analysis.reanalysis_owner`. */
  readonly owner: string;
}

/** A storage or database fault: the attempt is made again after this. */
export const REANALYSIS_RETRY_MS = 10 * 60_000;
/** How soon to look again while processing has work. */
const BUSY_RECHECK_MS = 1_000;
/** The longest wait before looking again while reports wait on other instances' leases or pauses. */
const IDLE_RECHECK_MAX_MS = 60_000;
/** The pause between two tracks: timers, requests and a newly queued upload go first. */
const BETWEEN_TRACKS_MS = 50;

export interface ReanalysisOptions {
  /** The lease holder's name; a new random one by default. */
  owner?: string;
}

export function createReanalysis(
  deps: AppDeps & { processing: ProcessingService; tracks: Pick<TracksService, "trackDirections"> },
  opts: ReanalysisOptions = {},
): Reanalysis {
  const { processing, tracks, storage, queue, logger, clock, config } = deps;
  const leaseMs = config.processingLeaseS * 1000;
  const renewEveryMs = Math.max(100, Math.floor(leaseMs / 3));
  const owner = opts.owner ?? `reanalysis-${Deno.pid}-${crypto.randomUUID()}`;
  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs);
  /** The track being analysed again here, and its run. */
  let current: Promise<boolean> | null = null;
  let started = false;
  let stopped = false;
  let wake: (() => void) | null = null;
  let sleepTimer: ReturnType<typeof setTimeout> | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      sleepTimer = setTimeout(resolve, ms);
      Deno.unrefTimer(sleepTimer);
    }).finally(() => {
      clearTimeout(sleepTimer);
      wake = null;
    });

  /** An upload's processing is queued or running here, or waits unclaimed for any instance. */
  async function processingWaits(): Promise<boolean> {
    if (queue.size > 0 || queue.running > 0) return true;
    return (await processing.pendingProcessing(1)).ids.length > 0;
  }

  /** This instance's processing queue has work, or it is shutting down: the re-analysis gives way. */
  const giveWay = () => stopped || queue.size > 0 || queue.running > 0;

  /** Analyses a claimed track again; false when it gave way to an upload (nothing written). */
  async function analyse(id: number, key: string): Promise<boolean> {
    const renewTimer = setInterval(() => {
      processing.analysis.renewReanalysis(id, owner, leaseEnd()).catch((err) =>
        logger.warn("could not renew a re-analysis lease", { trackId: id, err })
      );
    }, renewEveryMs);
    Deno.unrefTimer(renewTimer);
    try {
      if (!key || !(await storage.stat(key))) {
        await processing.analysis.failReanalysis(id, owner, PROCESSING_ERRORS.missing, null);
        return true;
      }
      let report, print: Fingerprint | null = null;
      try {
        report = await analyseStored(storage, key, { interrupt: giveWay, fingerprint: (p) => (print = p) });
      } catch (err) {
        if (err instanceof AnalysisInterrupted) {
          await processing.analysis.releaseReanalysis(owner, id);
          return false;
        }
        if (!(err instanceof AudioDecodeError)) throw err;
        await processing.analysis.failReanalysis(id, owner, err.message, null);
        return true;
      }
      // Not written when the lease was lost (stopped, or taken over after a stall): that is fine, the
      // holder writes the same report.
      // The directions' tempo windows (issue 25) judge the new tempo as they judged the first one.
      const directions = await tracks.trackDirections(id);
      if (directions) report = await flagTempoWindow(deps.db, directions, report);
      // The fingerprint of this analyser's version goes with the report (issue 38, 0421): stored
      // fingerprints of an older version are never compared until then.
      if (await processing.analysis.saveReanalysis(id, report, owner) && print) {
        await processing.fingerprints.save(id, print);
      }
      return true;
    } catch (err) {
      logger.warn("could not analyse a track again; its report is kept", { trackId: id, err });
      const message = err instanceof Error ? err.message : String(err);
      await processing.analysis
        .failReanalysis(id, owner, message, new Date(clock.now().getTime() + REANALYSIS_RETRY_MS))
        .catch((e) => logger.warn("could not record a failed re-analysis", { trackId: id, err: e }));
      return true;
    } finally {
      clearInterval(renewTimer);
    }
  }

  async function runOnce(): Promise<"busy" | "none" | number> {
    // One at a time per instance.
    if (stopped || current) return "busy";
    if (await processingWaits()) return "busy";
    const row = await processing.analysis.claimReanalysis(owner, leaseEnd());
    if (!row) return "none";
    current = analyse(row.id, row.storage_key);
    try {
      return (await current) ? row.id : "busy";
    } finally {
      current = null;
    }
  }

  async function loop(): Promise<void> {
    let done = 0;
    while (!stopped) {
      let wait: number;
      try {
        const step = await runOnce();
        if (typeof step === "number") {
          done++;
          wait = BETWEEN_TRACKS_MS;
        } else if (step === "busy") {
          wait = BUSY_RECHECK_MS;
        } else {
          const next = await processing.analysis.nextReanalysisAt();
          // Nothing older waits anywhere: new reports are written at the current version.
          if (!next) break;
          wait = Math.min(IDLE_RECHECK_MAX_MS, Math.max(BETWEEN_TRACKS_MS, next.getTime() - clock.now().getTime()));
        }
      } catch (err) {
        logger.warn("re-analysis step failed", { err });
        wait = IDLE_RECHECK_MAX_MS;
      }
      await sleep(wait);
    }
    if (done) logger.info("analysed older reports again", { tracks: done });
  }

  return {
    owner,
    start() {
      if (started || stopped || !config.reanalysis) return;
      started = true;
      void loop();
    },
    runOnce,
    async stop(drainMs = 5_000) {
      stopped = true;
      wake?.();
      if (current) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          current.catch(() => {}),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs))),
        ]);
        clearTimeout(timer);
      }
      try {
        await processing.analysis.releaseReanalysis(owner);
      } catch (err) {
        logger.warn("could not release re-analysis leases; they end on their own", { err });
      }
    },
  };
}

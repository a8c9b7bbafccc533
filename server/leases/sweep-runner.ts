import type { Db } from "../../db/client.ts";
import type { AppDeps } from "../deps.ts";
import { createJobLease } from "./lease.ts";

/**
 * The one loop of the sweeps that run on one instance at a time (the response promise's,
 * server/intake/sweep.ts; the release desk's, server/releases/sweep.ts): every `everyMs` a pass
 * under the job lease `name` (lease.ts), taken or renewed for `leaseMs` (two intervals by default)
 * at the start of each pass, so the holder keeps it and another instance takes it once it has run
 * out. A pass while another instance holds the lease does nothing (0).
 *
 * The pass gets the lease's cursor (where the last holder's work got to) and moves it with
 * `advance`, which is false once the lease was lost meanwhile (the pass then stops; the next holder
 * starts from the cursor stored last). A pass that throws is logged and ends: the next pass runs as
 * usual, and the lease stays its holder's only until it runs out.
 */
export interface SweepRunner {
  /** One pass now, or the running one (when this instance holds or takes the lease): the pass's count. */
  runOnce(): Promise<number>;
  /** A pass soon after `ms`, on top of the interval's (while started). */
  soon(ms: number): void;
  /** Passes now and every interval; the timers do not keep the process alive. */
  start(): void;
  /** No more passes; waits for the running one. */
  stop(): Promise<void>;
}

export interface SweepPass {
  /** The clock's time at the pass's start (the lease was taken at it). */
  now: Date;
  /** The lease's cursor as the pass starts. */
  cursor: number;
  /** Moves the cursor forward; false when the lease was lost (stop then). */
  advance(cursor: number): Promise<boolean>;
  /** True once `stop()` was called: a long pass ends between batches. */
  stopping(): boolean;
}

export interface SweepRunnerOptions {
  /** The job lease's name (one row of `job_leases`). */
  name: string;
  /** The interval between passes. */
  everyMs: number;
  /** How long a pass's lease runs; two intervals by default. */
  leaseMs?: number;
  /** This instance, as the lease names its holder; a new random one by default. */
  owner?: string;
  /** How the log names the sweep ("promise sweep failed"). */
  label: string;
  /** One pass under the lease: what it did (declined, written), as `runOnce` returns it. */
  pass(p: SweepPass): Promise<number>;
}

export function createSweepRunner(
  deps: Pick<AppDeps, "clock" | "logger"> & { db: Db },
  opts: SweepRunnerOptions,
): SweepRunner {
  const { clock, logger } = deps;
  const { everyMs } = opts;
  const leaseMs = opts.leaseMs ?? 2 * everyMs;
  const owner = opts.owner ?? `${Deno.pid}-${crypto.randomUUID()}`;
  const lease = createJobLease(deps.db, opts.name);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | null = null;
  /** Started and not stopped: the timers may run passes. */
  let live = false;
  /** `stop()` called (and no `start()` since): a running pass ends between batches. */
  let halted = false;

  async function pass(): Promise<number> {
    const now = clock.now();
    const got = await lease.acquire(owner, now, leaseMs);
    if (got === null) return 0;
    return await opts.pass({
      now,
      cursor: got.cursor,
      advance: (cursor) => lease.advance(owner, clock.now(), cursor),
      stopping: () => halted,
    });
  }

  // `soon`: one timer for the earliest pass asked for; the later ones are kept and run after it (a
  // burst of asks makes a few passes, not one each).
  const wanted = new Set<number>();
  let soonTimer: ReturnType<typeof setTimeout> | undefined;
  let soonAt = Infinity;
  function armSoon() {
    const next = Math.min(...wanted);
    if (!Number.isFinite(next) || next >= soonAt) return;
    if (soonTimer !== undefined) clearTimeout(soonTimer);
    soonAt = next;
    soonTimer = setTimeout(async () => {
      soonTimer = undefined;
      soonAt = Infinity;
      for (const at of wanted) if (at <= Date.now()) wanted.delete(at);
      await runner.runOnce().catch(() => 0);
      if (live) armSoon();
    }, Math.max(0, next - Date.now()));
    Deno.unrefTimer(soonTimer);
  }

  function schedule() {
    if (!live) return;
    timer = setTimeout(async () => {
      await runner.runOnce().catch(() => 0);
      schedule();
    }, everyMs);
    Deno.unrefTimer(timer);
  }

  const runner: SweepRunner = {
    runOnce() {
      if (running) return running;
      running = pass().catch((err) => {
        logger.warn(`${opts.label} failed`, { err });
        throw err;
      }).finally(() => (running = null));
      return running;
    },
    soon(ms) {
      if (!live) return;
      wanted.add(Math.ceil((Date.now() + ms + 50) / 100) * 100);
      armSoon();
    },
    start() {
      live = true;
      halted = false;
      void runner.runOnce().catch(() => 0);
      schedule();
    },
    async stop() {
      live = false;
      halted = true;
      if (timer !== undefined) clearTimeout(timer);
      if (soonTimer !== undefined) clearTimeout(soonTimer);
      wanted.clear();
      await running?.catch(() => 0);
    },
  };
  return runner;
}

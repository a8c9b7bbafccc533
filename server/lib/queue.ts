/**
 * The deferred in-process task queue: jobs run after the request that queued them has answered,
 * at most `concurrency` at a time. Durability comes from the database (a track stays `processing`
 * until its job ends, and start-up queues such tracks again), not from the queue.
 */
export interface TaskQueue {
  push(job: () => Promise<void>): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Stops taking new jobs, drops what has not started, and waits for running jobs (bounded). */
  close(timeoutMs?: number): Promise<void>;
  readonly size: number;
  readonly running: number;
}

export function createTaskQueue(
  concurrency: number,
  onError: (err: unknown) => void = (err) => console.error("task failed", err),
): TaskQueue {
  const pending: Array<() => Promise<void>> = [];
  let running = 0;
  let closed = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (running === 0 && pending.length === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    }
  };
  const pump = () => {
    while (!closed && running < concurrency && pending.length > 0) {
      const job = pending.shift()!;
      running++;
      // Deferred: never run inside the caller's tick, so the request answers first.
      setTimeout(() => {
        job().catch(onError).finally(() => {
          running--;
          pump();
          settle();
        });
      }, 0);
    }
    settle();
  };
  return {
    push(job) {
      if (closed) return;
      pending.push(job);
      pump();
    },
    idle() {
      if (running === 0 && pending.length === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async close(timeoutMs = 30_000) {
      closed = true;
      pending.length = 0;
      if (running === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((resolve) => waiters.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
    get size() {
      return pending.length;
    },
    get running() {
      return running;
    },
  };
}

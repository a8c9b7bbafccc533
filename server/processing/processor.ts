import type { AppDeps } from "../deps.ts";

/**
 * Track processing on the deferred task queue. (Filled in by the upload/processing work.)
 */
export interface Processor {
  /** Queues a stored track for processing. */
  enqueue(trackId: number): void;
  /** Queues every track still `processing` in the database (start-up after a restart). */
  resume(): Promise<number>;
}

export function createProcessor(_deps: AppDeps): Processor {
  return {
    enqueue() {},
    resume: () => Promise.resolve(0),
  };
}

/*
 * The part buffers S3 writes borrow (decision 0112): one pool per process, shared by the stores of
 * `stores.ts`, so uploads in flight cost at most the pool whatever their number.
 */

export const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Part buffers of 5 MiB the process may lend at once for uploads into the bucket; 2 are kept between
 * uploads. High on purpose: an upload that waits for a buffer costs more memory than the buffer,
 * because Deno's HTTP server keeps reading its body (~10–13 MB per stalled request, measured), so
 * the cap only bounds a burst (decision 0112).
 */
export const S3_PART_BUFFERS = 16;

/**
 * Part-sized buffers that writes borrow while they fill and send a multipart part (decision 0112).
 * At most `size` are lent at once: a write that finds none free waits, and while it waits it reads
 * nothing more of its body. Up to `keep` returned buffers are kept for the next write, which spares
 * the collector 5 MiB of garbage per upload; the others are let go, so a burst of uploads does not
 * leave its buffers behind.
 */
export interface PartPool {
  readonly partSize: number;
  readonly size: number;
  /** Resolves with a buffer of `partSize` bytes once one is free (in the order asked). */
  acquire(): Promise<Uint8Array>;
  release(buf: Uint8Array): void;
  /** Buffers lent out now, writes waiting for one, buffers kept free (for tests and the bench). */
  stats(): { lent: number; waiting: number; kept: number };
}

export function createPartPool(opts: { size: number; keep?: number; partSize?: number }): PartPool {
  const partSize = Math.max(MIN_PART_SIZE, opts.partSize ?? MIN_PART_SIZE);
  const size = Math.max(1, Math.floor(opts.size));
  const keep = Math.min(size, Math.max(0, Math.floor(opts.keep ?? 2)));
  const free: Uint8Array[] = [];
  const waiting: Array<(buf: Uint8Array) => void> = [];
  let lent = 0;
  return {
    partSize,
    size,
    acquire() {
      if (lent < size) {
        lent++;
        return Promise.resolve(free.pop() ?? new Uint8Array(partSize));
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(buf) {
      const next = waiting.shift();
      // Handed straight on: `lent` stays the same.
      if (next) return next(buf);
      lent--;
      if (free.length < keep) free.push(buf);
    },
    stats: () => ({ lent, waiting: waiting.length, kept: free.length }),
  };
}

import { paceStreamed } from "../lib/gc-pacer.ts";
import { TooLargeError } from "./file-storage.ts";

/**
 * The parts of resumable uploads on local disk (issue 26, docs/decisions/0250): one folder per
 * upload under DATA_DIR/upload-parts, one file per part named by its number. A part is written to a
 * temporary name and renamed into place only when it holds exactly the bytes it should, so a part
 * cut off mid-way is never counted as done, and sending a part again replaces it. With S3_BUCKET the
 * parts go to the bucket instead and this store is not used.
 */
export interface PartStore {
  /**
   * Streams one part into place. Throws `TooLargeError` past `expected` bytes (nothing kept) and
   * `ShortPartError` when the body ends before it.
   */
  write(uploadId: string, n: number, body: ReadableStream<Uint8Array>, expected: number): Promise<void>;
  /** The finished parts of an upload, by number (none for an unknown upload). */
  list(uploadId: string): Promise<Array<{ n: number; size: number }>>;
  /** The bytes of parts 1…count one after another, read as they are sent. */
  concat(uploadId: string, count: number): ReadableStream<Uint8Array>;
  /** Removes the upload's parts; an upload with none is not an error. */
  remove(uploadId: string): Promise<void>;
  /** Every upload that has a part folder, with when it last changed (for the sweep of orphans). */
  uploads(): AsyncIterable<{ id: string; modifiedAt: Date }>;
}

export class ShortPartError extends Error {
  constructor(readonly expected: number, readonly received: number) {
    super(`Part ended after ${received} of ${expected} bytes`);
  }
}

/** Upload ids are server-made (base64url); anything else never reaches a path. */
const SAFE_ID = /^[A-Za-z0-9_-]{16,64}$/;

function checkId(id: string) {
  if (!SAFE_ID.test(id)) throw new Error(`Unsafe upload id: ${id}`);
}

export function createLocalPartStore(root: string): PartStore {
  const dirOf = (id: string) => {
    checkId(id);
    return `${root}/${id}`;
  };
  return {
    async write(id, n, body, expected) {
      if (!Number.isSafeInteger(n) || n < 1) throw new Error(`Bad part number: ${n}`);
      const dir = dirOf(id);
      await Deno.mkdir(dir, { recursive: true });
      const tmp = `${dir}/${n}.tmp-${crypto.randomUUID()}`;
      const file = await Deno.open(tmp, { write: true, createNew: true });
      let open = true;
      let size = 0;
      try {
        // Synchronous writes into the page cache, as the local FileStorage does (bench/upload.bench.ts).
        for await (const chunk of body) {
          size += chunk.byteLength;
          if (size > expected) throw new TooLargeError(expected);
          for (let off = 0; off < chunk.byteLength;) off += file.writeSync(chunk.subarray(off));
        }
        file.close();
        open = false;
        if (size !== expected) throw new ShortPartError(expected, size);
        await Deno.rename(tmp, `${dir}/${n}`);
      } catch (err) {
        if (open) file.close();
        await Deno.remove(tmp).catch(() => {});
        throw err;
      }
    },

    async list(id) {
      const parts: Array<{ n: number; size: number }> = [];
      try {
        for await (const e of Deno.readDir(dirOf(id))) {
          if (!e.isFile || !/^\d+$/.test(e.name)) continue;
          const info = await Deno.stat(`${dirOf(id)}/${e.name}`).catch(() => null);
          if (info) parts.push({ n: Number(e.name), size: info.size });
        }
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
      return parts.sort((a, b) => a.n - b.n);
    },

    concat(id, count) {
      const dir = dirOf(id);
      let n = 0;
      let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          for (;;) {
            if (!reader) {
              if (n >= count) return controller.close();
              n++;
              const file = await Deno.open(`${dir}/${n}`, { read: true });
              reader = file.readable.getReader();
            }
            const { done, value } = await reader.read();
            if (!done) {
              // Each chunk is a fresh buffer: the collector is paced as for upload bodies (gc-pacer.ts).
              paceStreamed(value.byteLength);
              return controller.enqueue(value);
            }
            reader = null;
          }
        },
        async cancel(reason) {
          await reader?.cancel(reason);
        },
      }, { highWaterMark: 0 });
    },

    async remove(id) {
      await Deno.remove(dirOf(id), { recursive: true }).catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      });
    },

    async *uploads() {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(root));
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return;
        throw err;
      }
      for (const e of entries) {
        if (!e.isDirectory || !SAFE_ID.test(e.name)) continue;
        const info = await Deno.stat(`${root}/${e.name}`).catch(() => null);
        if (info) yield { id: e.name, modifiedAt: info.mtime ?? new Date(0) };
      }
    },
  };
}

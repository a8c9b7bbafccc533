/**
 * Test-only entry point, not product: the real server (`server/main.ts`) with its track storage's
 * reads slowed to `TEST_SLOW_READ_BYTES_PER_S` bytes a second, so processing a small track takes
 * seconds and an end-to-end test can kill the process while it is in the middle of one
 * (e2e/serverless.e2e.ts, docs/decisions/0178).
 *
 * Production cannot turn this on: `deno task start`, `server/start.ts` and `server/main.ts` never
 * import this file, and the variable means nothing to them. Run directly, it still refuses
 * DENO_ENV=production.
 */
import type { FileStorage } from "../storage/file-storage.ts";
import { main } from "../main.ts";

/** Pieces handed on at most this large, so the pace holds for big chunks too. */
const PIECE = 16 * 1024;

/** A stream that lets bytes through no faster than `bytesPerS`. */
export function paced(bytesPerS: number): TransformStream<Uint8Array, Uint8Array> {
  const started = performance.now();
  let sent = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      for (let off = 0; off < chunk.byteLength; off += PIECE) {
        const piece = chunk.subarray(off, off + PIECE);
        sent += piece.byteLength;
        const wait = started + (sent / bytesPerS) * 1000 - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        controller.enqueue(piece);
      }
    },
  });
}

/** `storage` with `read` paced; everything else (S3 extras included) as it is. */
export function slowReads<T extends FileStorage>(storage: T, bytesPerS: number): T {
  const read: FileStorage["read"] = async (key, opts) => {
    const answer = await storage.read(key, opts);
    return { ...answer, body: answer.body.pipeThrough(paced(bytesPerS)) };
  };
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === "read") return read;
      // Local storage has no localPath here: processing must go through the paced read.
      if (prop === "localPath") return () => null;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

if (import.meta.main) {
  if (Deno.env.get("DENO_ENV") === "production") {
    console.error(
      "server/testing/slow-processing-server.ts is a test entry point; it does not run with DENO_ENV=production.",
    );
    Deno.exit(1);
  }
  const bytesPerS = Number(Deno.env.get("TEST_SLOW_READ_BYTES_PER_S"));
  if (!Number.isFinite(bytesPerS) || bytesPerS <= 0) {
    console.error("TEST_SLOW_READ_BYTES_PER_S must be a positive number of bytes a second.");
    Deno.exit(1);
  }
  await main({ adjustDeps: (deps) => ({ ...deps, storage: slowReads(deps.storage, bytesPerS) }) });
}

import v8 from "node:v8";
import vm from "node:vm";

/**
 * Keeps memory flat while large bodies stream through. Every chunk of a request body is a fresh
 * ArrayBuffer whose bytes live outside the JavaScript heap; the tiny wrapper objects never fill the
 * young generation, so V8 collects them only when outside memory has grown by its soft limit (about
 * 64 MB), and the resident size of an upload server climbs by that much whatever its limits.
 * Asking for a young-generation collection after every 8 MB streamed frees those chunks while they
 * are still young. Each collection costs a few milliseconds, so the interval trades throughput for
 * memory (10 × 50 MB uploads: 8 MB → growth 30 MB at ~100 MB/s; 16 MB → 47–53 MB at ~135 MB/s;
 * none → 94 MB at 206 MB/s). Where `gc` cannot be had, this does nothing.
 * See docs/decisions/0023-flat-memory-for-uploads.md; bench/upload.bench.ts measures it.
 */
type Gc = (opts?: { type?: "minor" | "major"; execution?: "sync" | "async" }) => void;

let gc: Gc | null | undefined;

function getGc(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    // `--expose-gc` set at run time reaches contexts created afterwards, such as this one.
    v8.setFlagsFromString("--expose-gc");
    const found = vm.runInNewContext("gc");
    gc = typeof found === "function" ? (found as Gc) : null;
  } catch {
    gc = null;
  }
  return gc;
}

const PACE_BYTES = 8 * 1024 * 1024;
let streamed = 0;

/** Counts bytes streamed (by any request) and asks for a young-generation collection every PACE_BYTES. */
export function paceStreamed(bytes: number): void {
  streamed += bytes;
  if (streamed < PACE_BYTES) return;
  streamed = 0;
  getGc()?.({ type: "minor" });
}

/** A pass-through stream that paces the collector as bytes go by. */
export function pacedStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctrl) {
        paceStreamed(chunk.byteLength);
        ctrl.enqueue(chunk);
      },
    }),
  );
}

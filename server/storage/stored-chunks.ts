import { paceStreamed } from "../lib/gc-pacer.ts";
import type { FileStorage } from "./file-storage.ts";

/**
 * A stored file as chunks: read from the disk in `readBytes` when the storage has a local path, else
 * streamed from the bucket. After each chunk the collector is paced (0104) and `pause` may hand the
 * loop back to other work (the processing queue's slices, the request path's give-way). Leaving the
 * loop early closes the file or cancels the stream.
 */
export async function* storedChunks(
  storage: FileStorage,
  key: string,
  readBytes: number,
  pause: () => Promise<unknown> | null | undefined,
): AsyncGenerator<Uint8Array> {
  const path = storage.localPath(key);
  if (path) {
    const file = await Deno.open(path, { read: true });
    try {
      const buf = new Uint8Array(readBytes);
      for (;;) {
        const n = await file.read(buf);
        if (n === null) return;
        yield buf.subarray(0, n);
        paceStreamed(n);
        const wait = pause();
        if (wait) await wait;
      }
    } finally {
      file.close();
    }
  }
  const { body } = await storage.read(key);
  for await (const chunk of body) {
    yield chunk;
    paceStreamed(chunk.byteLength);
    const wait = pause();
    if (wait) await wait;
  }
}

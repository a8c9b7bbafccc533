/**
 * Test-only entry point, not product: the real server (`server/main.ts`) with its file storage's
 * writes slowed to `TEST_SLOW_WRITE_BYTES_PER_S` bytes a second, so completing a resumable upload
 * (its parts written into one stored file) takes seconds and a test can kill the process in the
 * middle of it (server/uploads/resumable/complete-crash.test.ts, issue 32). Parts themselves go to
 * the part store, which is not slowed.
 *
 * Production cannot turn this on: `deno task start`, `server/start.ts` and `server/main.ts` never
 * import this file, and the variable means nothing to them. Run directly, it still refuses
 * DENO_ENV=production.
 */
import type { FileStorage } from "../storage/file-storage.ts";
import { main } from "../main.ts";
import { paced } from "./slow-processing-server.ts";

/** `storage` with `write` paced; everything else as it is. */
export function slowWrites<T extends FileStorage>(storage: T, bytesPerS: number): T {
  const write: FileStorage["write"] = (key, body, opts) => storage.write(key, body.pipeThrough(paced(bytesPerS)), opts);
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === "write") return write;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

if (import.meta.main) {
  if (Deno.env.get("DENO_ENV") === "production") {
    console.error(
      "server/testing/slow-completion-server.ts is a test entry point; it does not run with DENO_ENV=production.",
    );
    Deno.exit(1);
  }
  const bytesPerS = Number(Deno.env.get("TEST_SLOW_WRITE_BYTES_PER_S"));
  if (!Number.isFinite(bytesPerS) || bytesPerS <= 0) {
    console.error("TEST_SLOW_WRITE_BYTES_PER_S must be a positive number of bytes a second.");
    Deno.exit(1);
  }
  await main({ adjustDeps: (deps) => ({ ...deps, storage: slowWrites(deps.storage, bytesPerS) }) });
}

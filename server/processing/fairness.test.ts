/**
 * Processing takes jobs fairly across artists (issue 20, docs/decisions/0195): one artist's batch
 * never delays another artist's first track by more than the jobs already running, within one
 * instance and across instances. The order in which jobs start is observed at the storage read each
 * job begins with; every read waits until the test lets it go, so the order never depends on timing.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { tracks } from "../../db/schema.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn, storedTrack } from "../testing/factories.ts";
import { type Instance, openInstance } from "../testing/second-instance.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";

let t: TestApp | undefined;
let b: Instance | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await b?.close();
  await t?.close();
  b = t = undefined;
});

const WAIT = { timeout: 15_000, interval: 10 };

/**
 * Holds every job at its first storage read until `release` lets one go (or `open` lets all go), and
 * notes the keys in the order the jobs reached it.
 */
function gateReads(storage: FileStorage) {
  const started: string[] = [];
  const waiters: Array<() => void> = [];
  let permits = 0;
  const read = storage.read.bind(storage);
  // No local path: the job reads through `read`.
  vi.spyOn(storage, "localPath").mockReturnValue(null);
  vi.spyOn(storage, "read").mockImplementation(async (key, ...rest) => {
    started.push(key);
    if (permits > 0) permits--;
    else await new Promise<void>((resolve) => waiters.push(resolve));
    return await read(key, ...rest);
  });
  return {
    started,
    release() {
      const next = waiters.shift();
      if (next) next();
      else permits++;
    },
    open() {
      permits = Number.POSITIVE_INFINITY;
      for (const next of waiters.splice(0)) next();
    },
  };
}

/** Uploads `n` files for a new artist named `artist`; the new user. */
async function uploadBatch(app: TestApp | Instance, artist: string, n: number) {
  const user = await createUser(app.ctx.db);
  const { headers } = await signIn(app.ctx, user);
  const parts = Array.from({ length: n }, (_, i) => filePart(`${artist} - Track ${i + 1}.mp3`, fixture(FIXTURES.low)));
  const { res } = await postUpload(app as TestApp, headers, [...parts, dirPart("label_neuropunk")]);
  expect(res.status).toBe(200);
  return user;
}

/**
 * Storage keys to `Artist - Track N` names, read while every track still has its file (a copy
 * judged a duplicate loses its key once processed).
 */
async function namesOf(app: TestApp) {
  const rows = await app.ctx.db.select({ key: tracks.storage_key, filename: tracks.filename }).from(tracks);
  const byKey = new Map(rows.map((r) => [r.key, r.filename.replace(/\.mp3$/, "")]));
  return (keys: string[]) => keys.map((k) => byKey.get(k) ?? k);
}

describe("jobs taken fairly across artists", () => {
  for (const concurrency of [1, 2]) {
    it(`PROCESSING_CONCURRENCY=${concurrency}: another artist's first track starts before the rest of a batch queued earlier`, async () => {
      t = await createTestApp({ env: { PROCESSING_CONCURRENCY: String(concurrency) } });
      const gate = gateReads(t.ctx.storage);
      await uploadBatch(t, "Batch", 4);
      // The batch's first jobs are running (held at their read).
      await vi.waitFor(() => expect(gate.started).toHaveLength(concurrency), WAIT);
      await uploadBatch(t, "Single", 1);
      const names = await namesOf(t);
      // One running job ends: the next job to start is the other artist's, not the batch's next.
      gate.release();
      await vi.waitFor(() => expect(gate.started).toHaveLength(concurrency + 1), WAIT);
      gate.open();
      await t.ctx.queue.idle();
      const order = names(gate.started);
      // The jobs already running when the other artist uploaded (in either order when two).
      expect(order.slice(0, concurrency).sort()).toEqual(["Batch - Track 1", "Batch - Track 2"].slice(0, concurrency));
      // Next the other artist's track; then the rest of the batch (two may start at once).
      expect(order[concurrency]).toBe("Single - Track 1");
      expect(order.slice(concurrency + 1).sort()).toEqual(
        ["Batch - Track 2", "Batch - Track 3", "Batch - Track 4"].slice(concurrency - 1),
      );
    });
  }

  it("across instances: an idle instance's sweep takes the other artist's track before the batch's next", async () => {
    t = await createTestApp({ env: { PROCESSING_CONCURRENCY: "2" } });
    b = await openInstance(t);
    // Both instances share the storage object, so one gate holds the jobs of both.
    const gate = gateReads(t.ctx.storage);
    await uploadBatch(t, "Batch", 4);
    await vi.waitFor(() => expect(gate.started).toHaveLength(2), WAIT);
    // Another artist's track, stored and waiting, that no instance has queued (as when the instance
    // that received it died before its job started).
    const single = await createUser(t.ctx.db);
    await storedTrack(t.ctx, fixture(FIXTURES.mono), single.id, "Single - Track 1.mp3");
    const names = await namesOf(t);
    // The idle instance's sweep fills its two slots: the single track and the batch's next (not the
    // batch's next two). Both start at once, so their reads may come in either order.
    expect(await b.ctx.processor.sweep()).toBe(2);
    await vi.waitFor(() => expect(gate.started).toHaveLength(4), WAIT);
    gate.open();
    await Promise.all([t.ctx.queue.idle(), b.ctx.queue.idle()]);
    // b's two jobs (a's queued jobs start after them, once a's running ones end).
    expect(names(gate.started).slice(2, 4).sort()).toEqual(["Batch - Track 3", "Single - Track 1"]);
  });
});

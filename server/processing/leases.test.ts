/**
 * Processing shared by instances (issue 14, docs/decisions/0170): two processors over one database
 * file, each with its own queue and lease-holder name, as two server processes would be. Lease
 * expiry is on the app clock, which the tests move instead of waiting.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { trackAnalysis, tracks } from "../../db/schema.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, storedTrack } from "../testing/factories.ts";
import { type Instance, openInstance } from "../testing/second-instance.ts";
import { fixture, FIXTURES } from "../testing/upload-helpers.ts";
import { PROCESSING_ERRORS } from "./analyse-track.ts";
import { createProcessor, type Processor } from "./processor.ts";

let now = Date.UTC(2026, 0, 10, 12);
const clock = { now: () => new Date(now) };
let a: TestApp;
let b: Instance;
const LEASE_MS = 60_000;

beforeEach(async () => {
  now = Date.UTC(2026, 0, 10, 12);
  a = await createTestApp({ clock, env: { PROCESSING_LEASE_S: String(LEASE_MS / 1000), PROCESSING_CONCURRENCY: "2" } });
  b = await openInstance(a);
});
afterEach(async () => {
  await b.close();
  await a.close();
});

async function row(id: number) {
  const [r] = await a.ctx.db.select().from(tracks).where(eq(tracks.id, id));
  return r;
}

/** A stored file and its `processing` row, as an upload leaves them; nobody has queued it. */
/** How long the sweeps below may take, polled every 20 ms. */
const WAIT = { timeout: 15_000, interval: 20 };

async function stored(data: Uint8Array, filename?: string) {
  return await storedTrack(a.ctx, data, (await createUser(a.ctx.db)).id, filename);
}

/** The stored files, read through `read` only, with every key read noted. */
function counting(base: FileStorage, reads: string[]): FileStorage {
  return {
    ...base,
    localPath: () => null,
    read(key, ...rest) {
      reads.push(key);
      return base.read(key, ...rest);
    },
  };
}

/**
 * Storage whose reads wait until `open()` is called, then serve `bytes` instead of the stored file:
 * a worker stalled in the middle of its work. `reached` resolves at the first read.
 */
function stalled(base: FileStorage, bytes: Uint8Array) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reachedResolve!: () => void;
  const reached = new Promise<void>((resolve) => (reachedResolve = resolve));
  let reads = 0;
  const storage: FileStorage = {
    ...base,
    localPath: () => null,
    async stat(key) {
      return (await base.stat(key)) ? { size: bytes.byteLength } : null;
    },
    async read() {
      reads++;
      reachedResolve();
      await gate;
      return { body: ReadableStream.from([bytes]), size: bytes.byteLength };
    },
  };
  return { storage, reached, open: () => open(), reads: () => reads };
}

/** A processor of instance `ctx` with its own storage view (its queue is the instance's). */
const processorOf = (ctx: TestApp["ctx"], storage: FileStorage, opts: { sweepIntervalMs?: number } = {}) =>
  createProcessor({ ...ctx, storage }, { retryDelayMs: 1, ...opts });

const idle = () => Promise.all([a.ctx.queue.idle(), b.ctx.queue.idle()]);

/** Waits (bounded) for a condition that a timer makes true; never asserts how long it took. */

describe("two processors over one database", () => {
  it("process each track exactly once when both are told about every track", async () => {
    const names = [FIXTURES.amen, FIXTURES.low, FIXTURES.vbr, FIXTURES.mono, FIXTURES.cut, FIXTURES.text];
    const ids: number[] = [];
    for (const name of names) ids.push((await stored(fixture(name), name)).id);
    const readsA: string[] = [];
    const readsB: string[] = [];
    const pa = processorOf(a.ctx, counting(a.ctx.storage, readsA));
    const pb = processorOf(b.ctx, counting(b.ctx.storage, readsB));
    expect(pa.owner).not.toBe(pb.owner);
    // Both hear of every track, in opposite orders, and both sweep as well.
    for (const id of ids) pa.enqueue(id);
    for (const id of [...ids].reverse()) pb.enqueue(id);
    await Promise.all([pa.sweep(), pb.sweep()]);
    await idle();

    const rows = await Promise.all(ids.map(row));
    for (const r of rows) {
      expect(r.status).not.toBe("processing");
      expect(r.attempts).toBe(1);
      expect(r.lease_owner).toBeNull();
      expect(r.lease_until).toBeNull();
    }
    expect(rows.filter((r) => r.status === "completed").length).toBe(names.length - 1);
    // Every stored file was judged by exactly one of the two.
    const keys = rows.map((r) => r.storage_key).filter((k): k is string => k !== null);
    expect(keys.length).toBe(names.length - 1); // the text file's is dropped
    expect(readsA.filter((k) => readsB.includes(k))).toEqual([]);
    expect(new Set([...readsA, ...readsB]).size).toBe(names.length);
    expect(readsA.length + readsB.length).toBe(names.length);
    // Both did some of the work: neither waited for the other.
    expect(readsA.length).toBeGreaterThan(0);
    expect(readsB.length).toBeGreaterThan(0);
    const reports = await a.ctx.db.select({ id: trackAnalysis.track_id }).from(trackAnalysis);
    expect(reports.map((r) => r.id).sort()).toEqual(
      rows.filter((r) => r.status === "completed").map((r) => r.id).sort(),
    );
  });

  it("a sweep takes no more tracks than the instance has free job slots", async () => {
    const ids: number[] = [];
    for (const name of [FIXTURES.amen, FIXTURES.low, FIXTURES.vbr, FIXTURES.mono]) {
      ids.push((await stored(fixture(name), name)).id);
    }
    const stall = stalled(a.ctx.storage, fixture(FIXTURES.amen));
    const p = processorOf(a.ctx, stall.storage);
    expect(await p.sweep()).toBe(2);
    await stall.reached;
    await vi.waitFor(async () => {
      expect((await Promise.all(ids.map(row))).filter((r) => r.lease_owner === p.owner), "two claims").toHaveLength(2);
    }, WAIT);
    // The other instance takes the rest.
    const pb = processorOf(b.ctx, b.ctx.storage);
    expect(await pb.sweep()).toBe(2);
    await b.ctx.queue.idle();
    const rows = await Promise.all(ids.map(row));
    expect(rows.filter((r) => r.lease_owner === p.owner).length).toBe(2);
    expect(rows.filter((r) => r.status === "completed").map((r) => r.id)).toEqual(ids.slice(2));
    stall.open();
    await a.ctx.queue.idle();
  });
});

describe("a holder that died", () => {
  /** A claim by an instance that then died (SIGKILL): counted, never renewed, never released. */
  async function deadClaim(id: number, owner: string) {
    const taken = await a.ctx.processing.claim(id, owner, new Date(now + LEASE_MS));
    expect(taken).toBeDefined();
    expect(await a.ctx.processing.countAttempt(id, taken!.attempts + 1, owner)).toBe(true);
  }

  it("keeps the track until its lease ends; then another instance takes it and completes it", async () => {
    const track = await stored(fixture(FIXTURES.low));
    await deadClaim(track.id, "dead-instance");

    // Within the lease nobody else may take it.
    expect(await b.ctx.processor.resume()).toBe(0);
    expect(await b.ctx.processor.sweep()).toBe(0);
    b.ctx.processor.enqueue(track.id);
    await idle();
    expect(await row(track.id)).toMatchObject({ status: "processing", lease_owner: "dead-instance", attempts: 1 });

    now += LEASE_MS + 1;
    expect(await b.ctx.processor.sweep()).toBe(1);
    await idle();
    // The crash counted as an attempt.
    expect(await row(track.id)).toMatchObject({
      status: "completed",
      attempts: 2,
      bitrate: 128000,
      lease_owner: null,
      lease_until: null,
    });
  });

  it("a worker whose lease was taken over cannot record its verdict", async () => {
    const track = await stored(fixture(FIXTURES.amen));
    // Instance A stalls mid-work; what it would judge is not MP3 (a verdict that deletes the file).
    const stallA = stalled(a.ctx.storage, fixture(FIXTURES.text));
    const pa = processorOf(a.ctx, stallA.storage);
    pa.enqueue(track.id);
    await stallA.reached;
    expect(await row(track.id)).toMatchObject({ lease_owner: pa.owner, attempts: 1 });

    // Its lease ends; B takes the track over and is still working on it when A wakes up.
    now += LEASE_MS + 1;
    const stallB = stalled(b.ctx.storage, fixture(FIXTURES.amen));
    const pb = processorOf(b.ctx, stallB.storage);
    expect(await pb.sweep()).toBe(1);
    await stallB.reached;
    expect(await row(track.id)).toMatchObject({ status: "processing", lease_owner: pb.owner, attempts: 2 });

    const warn = vi.spyOn(a.ctx.logger, "warn");
    stallA.open();
    await a.ctx.queue.idle();
    expect(stallA.reads()).toBe(1);
    // It reached a verdict (no attempt failed): the verdict itself was refused.
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    // A's verdict was refused: the track is still B's, unjudged, and its file is kept.
    expect(await row(track.id)).toMatchObject({
      status: "processing",
      lease_owner: pb.owner,
      attempts: 2,
      error: null,
    });
    expect(await a.ctx.storage.stat(track.storage_key!)).not.toBeNull();

    stallB.open();
    await b.ctx.queue.idle();
    expect(await row(track.id)).toMatchObject({
      status: "completed",
      attempts: 2,
      duration: 8046,
      error: null,
      storage_key: track.storage_key,
      lease_owner: null,
    });
    expect((await a.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, track.id))).length).toBe(1);
  });

  it("a track that kills every instance trying it fails after PROCESSING_MAX_ATTEMPTS, keeping its file", async () => {
    const track = await stored(fixture(FIXTURES.amen));
    const max = a.ctx.config.processingMaxAttempts;
    for (let i = 1; i <= max; i++) {
      await deadClaim(track.id, `dead-${i}`);
      expect(await b.ctx.processor.sweep()).toBe(0);
      now += LEASE_MS + 1;
    }
    expect((await row(track.id)).attempts).toBe(max);
    expect(await b.ctx.processor.sweep()).toBe(1);
    await idle();
    expect(await row(track.id)).toMatchObject({
      status: "failed",
      attempts: max,
      error: PROCESSING_ERRORS.exhausted(max),
      storage_key: track.storage_key,
      lease_owner: null,
    });
  });
});

describe("the idle sweep", () => {
  let p: Processor | undefined;
  afterEach(async () => {
    await p?.stop(1_000);
    p = undefined;
  });

  it("processes a track nobody queued, without an upload through this instance", async () => {
    p = processorOf(b.ctx, b.ctx.storage, { sweepIntervalMs: 30 });
    p.start();
    // Stored after the first pass: only a later, timed pass can find it.
    await new Promise((r) => setTimeout(r, 60));
    const track = await stored(fixture(FIXTURES.mono));
    await vi.waitFor(
      async () => expect((await row(track.id)).status, "the sweep to process the track").not.toBe("processing"),
      WAIT,
    );
    expect(await row(track.id)).toMatchObject({ status: "completed", attempts: 1, duration: 5040 });
  });

  it("takes a dead holder's track once its lease ends, on its own", async () => {
    const track = await stored(fixture(FIXTURES.low));
    await a.ctx.processing.claim(track.id, "dead-instance", new Date(now + LEASE_MS));
    p = processorOf(b.ctx, b.ctx.storage, { sweepIntervalMs: 30 });
    p.start();
    await new Promise((r) => setTimeout(r, 100));
    expect((await row(track.id)).lease_owner).toBe("dead-instance");
    now += LEASE_MS + 1;
    await vi.waitFor(
      async () => expect((await row(track.id)).status, "the sweep to take the track over").toBe("completed"),
      WAIT,
    );
  });
});

describe("shutting down", () => {
  it("gives up the leases of unfinished tracks, so another instance takes them at once", async () => {
    const track = await stored(fixture(FIXTURES.amen));
    const waiting = await stored(fixture(FIXTURES.low));
    const stall = stalled(a.ctx.storage, fixture(FIXTURES.amen));
    const pa = processorOf(a.ctx, stall.storage);
    pa.enqueue(track.id);
    await stall.reached;
    expect((await row(track.id)).lease_owner).toBe(pa.owner);
    // The running job does not end within the drain time.
    await pa.stop(50);
    expect(await row(track.id)).toMatchObject({
      status: "processing",
      lease_owner: null,
      lease_until: null,
      attempts: 1,
    });

    // No clock moved: the other instance takes both at once.
    expect(await b.ctx.processor.sweep()).toBe(2);
    await b.ctx.queue.idle();
    expect(await row(track.id)).toMatchObject({ status: "completed", attempts: 2 });
    expect(await row(waiting.id)).toMatchObject({ status: "completed", attempts: 1 });

    // The stopped worker's late verdict is refused.
    const done = await row(track.id);
    stall.open();
    await a.ctx.queue.idle();
    expect(await row(track.id)).toEqual(done);
  });
});

/**
 * The sweep runner (server/leases/sweep-runner.ts) on a fake clock: a pass only under the lease
 * (another instance's lease: skipped), the cursor carried from pass to pass and holder to holder,
 * a pass that throws leaves nothing stuck, and a stop ends a long pass between batches.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import type { Logger } from "../lib/logger.ts";
import { createJobLease } from "./lease.ts";
import { createSweepRunner, type SweepPass } from "./sweep-runner.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const T0 = Date.UTC(2030, 0, 1);
const EVERY = 60_000;
let now = T0;
const clock = { now: () => new Date(now) };
const warned: string[] = [];
const logger: Logger = { debug() {}, info() {}, warn: (msg) => void warned.push(msg), error() {} };

/** A runner of the job `name` for `owner` whose pass is `pass`, and the passes it was given. */
function runner(name: string, owner: string, pass: (p: SweepPass) => Promise<number>) {
  const seen: Array<{ now: number; cursor: number }> = [];
  const r = createSweepRunner({ db: t.ctx.db, clock, logger }, {
    name,
    everyMs: EVERY,
    owner,
    label: "test sweep",
    pass: (p) => {
      seen.push({ now: p.now.getTime(), cursor: p.cursor });
      return pass(p);
    },
  });
  return { r, seen };
}

describe("the sweep runner", () => {
  it("skips the pass while another instance holds the lease, and takes it once it has run out", async () => {
    now = T0;
    const name = "runner-test:skip";
    const a = runner(name, "a", () => Promise.resolve(2));
    const b = runner(name, "b", () => Promise.resolve(3));
    expect(await a.r.runOnce()).toBe(2);
    now = T0 + 2 * EVERY - 1;
    expect(await b.r.runOnce()).toBe(0);
    expect(b.seen).toEqual([]);
    // The holder renews it with each pass (two intervals from this one).
    expect(await a.r.runOnce()).toBe(2);
    now = T0 + 4 * EVERY - 2;
    expect(await b.r.runOnce()).toBe(0);
    now = T0 + 4 * EVERY - 1;
    expect(await b.r.runOnce()).toBe(3);
    expect(b.seen).toEqual([{ now, cursor: 0 }]);
    expect(await a.r.runOnce()).toBe(0);
    expect((await createJobLease(t.ctx.db, name).read())?.owner).toBe("b");
  });

  it("resumes from the cursor: the next pass and the next holder start where the last got to", async () => {
    now = T0;
    const name = "runner-test:cursor";
    const walk = (p: SweepPass) => p.advance(p.cursor + 10).then(() => 1);
    const a = runner(name, "a", walk);
    await a.r.runOnce();
    await a.r.runOnce();
    expect(a.seen.map((s) => s.cursor)).toEqual([0, 10]);
    now = T0 + 2 * EVERY;
    const b = runner(name, "b", walk);
    await b.r.runOnce();
    expect(b.seen.map((s) => s.cursor)).toEqual([20]);
    expect((await createJobLease(t.ctx.db, name).read())?.cursor).toBe(30);
    // The lease lost meanwhile: the old holder's advance is refused and moves nothing.
    let moved: boolean | undefined;
    now = T0 + 5 * EVERY;
    const late = runner(name, "a", async (p) => {
      now += 3 * EVERY;
      await b.r.runOnce();
      moved = await p.advance(99);
      return 0;
    });
    await late.r.runOnce();
    expect(moved).toBe(false);
    expect((await createJobLease(t.ctx.db, name).read())?.cursor).toBe(40);
  });

  it("after a pass that throws midway, runs again from the cursor it had got to; nothing is stuck", async () => {
    now = T0;
    const name = "runner-test:crash";
    let crash = true;
    const a = runner(name, "a", async (p) => {
      await p.advance(5);
      if (crash) throw new Error("disk gone");
      return 1;
    });
    warned.length = 0;
    await expect(a.r.runOnce()).rejects.toThrow("disk gone");
    expect(warned).toEqual(["test sweep failed"]);
    crash = false;
    expect(await a.r.runOnce()).toBe(1);
    expect(a.seen.map((s) => s.cursor)).toEqual([0, 5]);
    // An instance that died midway holds the lease until it runs out; then another takes over at its cursor.
    crash = true;
    await expect(a.r.runOnce()).rejects.toThrow("disk gone");
    const b = runner(name, "b", (p) => Promise.resolve(p.cursor));
    expect(await b.r.runOnce()).toBe(0);
    expect(b.seen).toEqual([]);
    now = T0 + 2 * EVERY;
    expect(await b.r.runOnce()).toBe(5);
  });

  it("runs one pass at a time; a stop ends a long pass between batches and waits for it", async () => {
    now = T0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let batches = 0;
    let done = false;
    const a = runner("runner-test:stop", "a", async (p) => {
      while (!p.stopping() && batches < 5) {
        batches++;
        entered();
        await gate;
      }
      done = true;
      return batches;
    });
    const first = a.r.runOnce();
    expect(a.r.runOnce()).toBe(first);
    await inside;
    const stopped = a.r.stop();
    release();
    await stopped;
    expect(done).toBe(true);
    expect(await first).toBe(1);
    expect(a.seen).toHaveLength(1);
  });
});

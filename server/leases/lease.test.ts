/**
 * The job lease (server/leases/lease.ts): one holder at a time, renewed by its holder, taken over
 * only once it has run out; the cursor moves forward for the holder only and stays for the next.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createJobLease } from "./lease.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);

describe("a job lease", () => {
  it("has one holder until it runs out; the holder renews it, another takes it after", async () => {
    const lease = createJobLease(t.ctx.db, "lease-test:one-holder");
    expect(await lease.acquire("a", at(0), 1000)).toEqual({ cursor: 0 });
    expect(await lease.acquire("b", at(500), 1000)).toBeNull();
    // Renewed by its holder: it runs from the renewal.
    expect(await lease.acquire("a", at(900), 1000)).toEqual({ cursor: 0 });
    expect(await lease.acquire("b", at(1500), 1000)).toBeNull();
    expect((await lease.read())?.until.getTime()).toBe(at(1900).getTime());
    // Run out (to the millisecond): taken.
    expect(await lease.acquire("b", at(1900), 1000)).toEqual({ cursor: 0 });
    expect((await lease.read())?.owner).toBe("b");
  });

  it("moves its cursor forward for the live holder only, and hands it to the next holder", async () => {
    const lease = createJobLease(t.ctx.db, "lease-test:cursor");
    await lease.acquire("a", at(0), 1000);
    expect(await lease.advance("a", at(100), 7)).toBe(true);
    expect(await lease.advance("a", at(200), 5)).toBe(true);
    expect((await lease.read())?.cursor).toBe(7);
    expect(await lease.advance("b", at(300), 9)).toBe(false);
    // Past its end the holder no longer moves it.
    expect(await lease.advance("a", at(1000), 9)).toBe(false);
    expect(await lease.acquire("b", at(1000), 1000)).toEqual({ cursor: 7 });
  });

  it("given up, is free at once; another holder's release changes nothing", async () => {
    const lease = createJobLease(t.ctx.db, "lease-test:release");
    await lease.acquire("a", at(0), 1000);
    await lease.release("b", at(10));
    expect(await lease.acquire("b", at(20), 1000)).toBeNull();
    await lease.release("a", at(30));
    expect(await lease.acquire("b", at(40), 1000)).toEqual({ cursor: 0 });
    // Leases of other jobs are rows of their own.
    expect(await createJobLease(t.ctx.db, "lease-test:other").acquire("a", at(40), 1000)).toEqual({ cursor: 0 });
  });
});

/**
 * The Upstash status store when the store goes away: one attempt per request under a short deadline,
 * and a circuit breaker so an outage costs that deadline once, not on every call
 * (docs/decisions/0025-status-store-outages.md). The breaker's rules run on a stand-in store; the
 * outages are real: a redis-server stopped or paused (SIGSTOP) behind the Upstash REST bridge, or the
 * bridge itself stopped, mid-test.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { findRedisServer, type RedisServer, startRedisServer } from "../testing/redis-server.ts";
import { startUpstashBridge, type UpstashBridge } from "../testing/upstash-bridge.ts";
import {
  createEmbeddedStore,
  createUpstashStore,
  type StatusStore,
  StatusStoreUnavailable,
  STORE_COOLDOWN_MS,
  withCircuitBreaker,
} from "./kv.ts";

const redisBin = await findRedisServer();
if (!redisBin) {
  if (Deno.env.get("CI") === "true") {
    throw new Error("redis-server is not installed; CI=true requires the outage tests");
  }
  console.warn("NOTICE: redis-server not found: the status-store outage tests against Upstash are skipped.");
}

/** A store whose calls are counted and fail while `down` is set, or wait for `release` while `hang` is. */
function standIn() {
  const inner = createEmbeddedStore();
  const state = { down: false, calls: 0, hang: null as null | PromiseWithResolvers<void> };
  const gate = async () => {
    state.calls++;
    if (state.hang) await state.hang.promise;
    if (state.down) throw new Error("ECONNREFUSED");
  };
  const store: StatusStore = {
    kind: "upstash",
    get: async <T>(key: string) => (await gate(), await inner.get<T>(key)),
    mget: async <T>(keys: string[]) => (await gate(), await inner.mget<T>(keys)),
    set: async (key, value, ttl) => (await gate(), await inner.set(key, value, ttl)),
    take: async <T>(key: string) => (await gate(), await inner.take<T>(key)),
    del: async (keys) => (await gate(), await inner.del(keys)),
    incr: async (key, ttl) => (await gate(), await inner.incr(key, ttl)),
    keys: async (pattern) => (await gate(), await inner.keys(pattern)),
    ttl: async (key) => (await gate(), await inner.ttl(key)),
    ping: async () => (await gate(), await inner.ping()),
    close: inner.close,
  };
  return { store, state };
}

/** The error a call failed with; a call that answers fails the test. */
const failure = (p: Promise<unknown>) =>
  p.then(() => {
    throw new Error("the call answered");
  }, (e) => e as StatusStoreUnavailable);

describe("circuit breaker", () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it("after one failure refuses calls at once, without reaching the store, until the cooldown has passed", async () => {
    const { store, state } = standIn();
    const kv = withCircuitBreaker(store, { now });
    await kv.set("k", 1);
    state.down = true;
    const first = await failure(kv.get("k"));
    expect(first).toBeInstanceOf(StatusStoreUnavailable);
    expect(first.circuitOpen).toBe(false);
    expect(state.calls).toBe(2);
    for (
      const call of [
        () => kv.get("k"),
        () => kv.mget(["k"]),
        () => kv.set("k", 2),
        () => kv.del(["k"]),
        () => kv.keys("*"),
      ]
    ) {
      const err = await failure(call());
      expect(err).toBeInstanceOf(StatusStoreUnavailable);
      expect(err.circuitOpen).toBe(true);
    }
    expect(await kv.ping()).toBe(false);
    clock += STORE_COOLDOWN_MS - 1;
    await expect(kv.get("k")).rejects.toBeInstanceOf(StatusStoreUnavailable);
    expect(state.calls).toBe(2);
  });

  it("after the cooldown lets one probe through; its success closes the circuit", async () => {
    const { store, state } = standIn();
    const kv = withCircuitBreaker(store, { now });
    await kv.set("k", "v");
    state.down = true;
    await expect(kv.get("k")).rejects.toThrow();
    state.down = false;
    clock += STORE_COOLDOWN_MS;
    // While the probe is under way, other calls do not pile onto a store that may still be down.
    state.hang = Promise.withResolvers<void>();
    const probe = kv.get("k");
    const meanwhile = await failure(kv.get("k"));
    expect(meanwhile.circuitOpen).toBe(true);
    state.hang.resolve();
    state.hang = null;
    expect(await probe).toBe("v");
    const before = state.calls;
    expect(await kv.get("k")).toBe("v");
    expect(await kv.ping()).toBe(true);
    expect(state.calls).toBe(before + 2);
  });

  it("a failed probe opens the circuit for another cooldown", async () => {
    const { store, state } = standIn();
    const kv = withCircuitBreaker(store, { now });
    state.down = true;
    await expect(kv.get("k")).rejects.toThrow();
    clock += STORE_COOLDOWN_MS;
    await expect(kv.get("k")).rejects.toThrow();
    expect(state.calls).toBe(2);
    clock += STORE_COOLDOWN_MS - 1;
    await expect(kv.get("k")).rejects.toThrow();
    expect(state.calls).toBe(2);
    clock += 1;
    state.down = false;
    expect(await kv.get("k")).toBeNull();
    expect(state.calls).toBe(3);
  });

  it("logs the outage once and the recovery once", async () => {
    const { store, state } = standIn();
    const logger = { warn: vi.fn(), info: vi.fn() };
    const kv = withCircuitBreaker(store, { now, logger });
    state.down = true;
    for (let i = 0; i < 5; i++) await kv.get("k").catch(() => null);
    clock += STORE_COOLDOWN_MS;
    await kv.get("k").catch(() => null);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith("status store unreachable, the database answers", expect.anything());
    state.down = false;
    clock += STORE_COOLDOWN_MS;
    await kv.get("k");
    await kv.get("k");
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith("status store reachable again", expect.anything());
  });
});

describe.skipIf(!redisBin)("Upstash store during a real outage", () => {
  let redis: RedisServer;
  let bridge: UpstashBridge;
  let kv: StatusStore;
  let clock = 0;
  let fetchSpy: MockInstance<typeof fetch>;
  /** Requests the client sent to the bridge (refused connections included). */
  const attempts = () =>
    fetchSpy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).startsWith(bridge.url))
      .length;

  beforeEach(async () => {
    clock = 1_000_000;
    redis = await startRedisServer();
    bridge = startUpstashBridge({ redisPort: redis.port });
    // Seeded through a store of its own with a generous deadline, so a slow moment on a busy machine
    // cannot open the circuit of the store under test before its outage begins.
    await createUpstashStore(bridge.url, bridge.token, { deadlineMs: 10_000 }).set("track_status:1", {
      status: "processing",
    }, 3600);
    kv = createUpstashStore(bridge.url, bridge.token, { now: () => clock });
    fetchSpy = vi.spyOn(globalThis, "fetch");
  });
  afterEach(async () => {
    fetchSpy.mockRestore();
    redis.resume();
    await bridge.close();
    await redis.stop();
  });

  it("redis-server stopped: the first call fails, the next ones answer at once without a request", async () => {
    await redis.stop();
    const before = attempts();
    await expect(kv.get("track_status:1")).rejects.toBeInstanceOf(StatusStoreUnavailable);
    expect(attempts() - before).toBe(1);
    for (let i = 0; i < 20; i++) {
      await expect(kv.get("track_status:1")).rejects.toMatchObject({ circuitOpen: true });
    }
    expect(await kv.ping()).toBe(false);
    expect(attempts() - before).toBe(1);
  });

  it("bridge stopped (connection refused): one attempt per call, not six with back-off", async () => {
    await bridge.close();
    const before = attempts();
    const started = performance.now();
    await expect(kv.get("track_status:1")).rejects.toBeInstanceOf(StatusStoreUnavailable);
    expect(attempts() - before).toBe(1);
    // The client's default back-off alone waits 4.3 s before giving up.
    expect(performance.now() - started).toBeLessThan(2_000);
    clock += STORE_COOLDOWN_MS;
    await expect(kv.get("track_status:1")).rejects.toMatchObject({ circuitOpen: false });
    expect(attempts() - before).toBe(2);
  });

  it("redis-server paused (nothing answers): the call gives up after the deadline instead of hanging", async () => {
    redis.pause();
    const started = performance.now();
    const outcome = await Promise.race([
      kv.get("track_status:1").then(
        () => "answered",
        (e) => (e instanceof StatusStoreUnavailable ? "unavailable" : String(e)),
      ),
      new Promise((r) => setTimeout(() => r("still waiting after 5 s"), 5_000)),
    ]);
    expect(outcome).toBe("unavailable");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(attempts()).toBeGreaterThan(0);
  });

  it("once the store answers again, the probe after the cooldown closes the circuit and the data is there", async () => {
    redis.pause();
    await expect(kv.get("track_status:1")).rejects.toBeInstanceOf(StatusStoreUnavailable);
    redis.resume();
    await expect(kv.get("track_status:1")).rejects.toMatchObject({ circuitOpen: true });
    // Each round is one cooldown later; on a busy machine a probe may miss the deadline, then the next one answers.
    await vi.waitFor(async () => {
      clock += STORE_COOLDOWN_MS;
      expect(await kv.get("track_status:1")).toEqual({ status: "processing" });
      await kv.set("track_status:2", { status: "completed" }, 3600);
      expect(await kv.mget(["track_status:1", "track_status:2"])).toEqual([{ status: "processing" }, {
        status: "completed",
      }]);
    }, { timeout: 10_000, interval: 50 });
  });
});

import { gunzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { KeptAnswers, keptJsonAnswers } from "./kept-answers.ts";

/** A load that waits until released, to make a load overlap something. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("KeptAnswers, loaded, serve-stale-while-reloading", () => {
  it("serves the kept value within the TTL, the old one past it while one reload runs, then the new one", async () => {
    let now = 0;
    let version = 1;
    let loads = 0;
    let hold: ReturnType<typeof gate> | null = null;
    const cache = new KeptAnswers<string, number>({
      load: async () => {
        loads++;
        const seen = version;
        if (hold) await hold.opened;
        return seen;
      },
      ttlMs: 100,
      stale: "serve-stale-while-reloading",
      now: () => now,
    });
    expect(await cache.get("a")).toBe(1);
    version = 2;
    now = 100;
    expect(cache.get("a")).toBe(1);
    expect(loads).toBe(1);

    now = 101;
    hold = gate();
    // Past the TTL: the old value at once, not a promise, and one reload however many ask.
    expect(cache.get("a")).toBe(1);
    expect(cache.get("a")).toBe(1);
    expect(loads).toBe(2);
    hold.open();
    hold = null;
    await vi.waitFor(() => expect(cache.get("a")).toBe(2));
    expect(loads).toBe(2);
  });

  it("keeps serving the old value when a background reload fails, and reports it", async () => {
    let now = 0;
    let fail = false;
    const errors: unknown[] = [];
    const cache = new KeptAnswers<string, string>({
      load: () => (fail ? Promise.reject(new Error("db down")) : Promise.resolve("ok")),
      ttlMs: 10,
      stale: "serve-stale-while-reloading",
      now: () => now,
      onError: (err, key) => errors.push([key, (err as Error).message]),
    });
    expect(await cache.get("a")).toBe("ok");
    fail = true;
    now = 11;
    expect(cache.get("a")).toBe("ok");
    await vi.waitFor(() => expect(errors).toEqual([["a", "db down"]]));
    expect(cache.get("a")).toBe("ok");
  });
});

describe("KeptAnswers, loaded, wait", () => {
  it("makes a request past the TTL wait for the reload and shares one load among waiters", async () => {
    let now = 0;
    let version = 1;
    let loads = 0;
    const cache = new KeptAnswers<number, number>({
      load: () => {
        loads++;
        return Promise.resolve(version);
      },
      ttlMs: 100,
      stale: "wait",
      now: () => now,
    });
    const first = [cache.get(1), cache.get(1)];
    expect(await Promise.all(first)).toEqual([1, 1]);
    expect(loads).toBe(1);
    version = 2;
    expect(cache.get(1)).toBe(1);
    now = 101;
    const late = cache.get(1);
    // No old value past its time: the request waits for the database.
    expect(late).toBeInstanceOf(Promise);
    expect(await late).toBe(2);
    expect(cache.get(1)).toBe(2);
    expect(loads).toBe(2);
  });

  it("does not keep a failed load: the error goes to the request, the next one reads again", async () => {
    let fail = true;
    const cache = new KeptAnswers<number, string>({
      load: () => (fail ? Promise.reject(new Error("db down")) : Promise.resolve("ok")),
      stale: "wait",
    });
    await expect(cache.get(1)).rejects.toThrow("db down");
    expect(cache.size).toBe(0);
    fail = false;
    expect(await cache.get(1)).toBe("ok");
  });

  it("recovers from a load that throws before its first await", async () => {
    let fail = true;
    const cache = new KeptAnswers<number, string>({
      load: (() => {
        if (fail) throw new Error("at once");
        return Promise.resolve("ok");
      }) as (key: number) => Promise<string>,
    });
    await expect(cache.get(1)).rejects.toThrow("at once");
    fail = false;
    expect(await cache.get(1)).toBe("ok");
  });
});

describe("KeptAnswers, forget", () => {
  for (const stale of ["wait", "serve-stale-while-reloading"] as const) {
    it(`hands a load that a forget overlapped to its waiters but keeps it not (${stale})`, async () => {
      let version = 0;
      let loads = 0;
      let hold: ReturnType<typeof gate> | null = gate();
      const cache = new KeptAnswers<number, number>({
        load: async () => {
          loads++;
          const seen = version;
          if (hold) await hold.opened;
          return seen;
        },
        stale,
      });
      const slow = cache.get(1);
      version = 1;
      cache.forget(1);
      // A request after the write does not join the read that began before it.
      const fresh = cache.get(1);
      const h = hold;
      hold = null;
      h.open();
      expect(await slow).toBe(0);
      expect(await fresh).toBe(1);
      expect(cache.get(1)).toBe(1);
      expect(loads).toBe(2);
    });
  }

  it("forgets the keys named (null and undefined ignored), or all of them", async () => {
    let loads = 0;
    const cache = new KeptAnswers<number, number>({
      load: (key) => {
        loads++;
        return Promise.resolve(key * 10);
      },
    });
    await Promise.all([cache.get(1), cache.get(2), cache.get(3)]);
    cache.forget(1, null, undefined);
    expect(cache.size).toBe(2);
    expect(cache.get(2)).toBe(20);
    expect(await cache.get(1)).toBe(10);
    expect(loads).toBe(4);
    cache.forgetAll();
    expect(cache.size).toBe(0);
    expect(await cache.get(3)).toBe(30);
    expect(loads).toBe(5);
  });

  it("keeps a load that forgetAll overlapped out of the cache", async () => {
    const hold = gate();
    let version = 0;
    const cache = new KeptAnswers<string, number>({
      load: async () => {
        const seen = version;
        if (seen === 0) await hold.opened;
        return seen;
      },
    });
    const slow = cache.get("a");
    version = 1;
    cache.forgetAll();
    hold.open();
    expect(await slow).toBe(0);
    expect(cache.size).toBe(0);
    expect(await cache.get("a")).toBe(1);
  });
});

describe("KeptAnswers, max", () => {
  it("keeps at most `max` keys, dropping the one loaded longest ago (a reload counts as loaded anew)", async () => {
    let now = 0;
    const loaded: number[] = [];
    const cache = new KeptAnswers<number, number>({
      load: (key) => {
        loaded.push(key);
        return Promise.resolve(key);
      },
      ttlMs: 10,
      max: 2,
      now: () => now,
    });
    await cache.get(1);
    await cache.get(2);
    now = 11;
    await cache.get(1); // stale: loaded again, now the youngest
    await cache.get(3); // drops 2, the oldest loaded
    expect(cache.size).toBe(2);
    expect(loaded).toEqual([1, 2, 1, 3]);
    expect(cache.get(1)).toBe(1);
    expect(cache.get(3)).toBe(3);
    await cache.get(2);
    expect(loaded).toEqual([1, 2, 1, 3, 2]);
  });
});

describe("KeptAnswers, kept while its source is unchanged", () => {
  it("returns the kept value for the same source text and builds again, synchronously, for another", () => {
    let builds = 0;
    const cache = new KeptAnswers<number, { owner: number; body: string }>({
      build: (source) => {
        builds++;
        const v = JSON.parse(source) as { user_id: number; status: string };
        return { owner: v.user_id, body: v.status };
      },
      max: 10,
    });
    const first = cache.get(7, '{"user_id":1,"status":"processing"}');
    expect(first).toEqual({ owner: 1, body: "processing" });
    expect(cache.get(7, '{"user_id":1,"status":"processing"}')).toBe(first);
    expect(builds).toBe(1);
    // The key changed: made again from the new text at once, no promise.
    expect(cache.get(7, '{"user_id":1,"status":"completed"}')).toEqual({ owner: 1, body: "completed" });
    expect(builds).toBe(2);
    // Back to an earlier text: that is a change too.
    expect(cache.get(7, '{"user_id":1,"status":"processing"}')).toEqual({ owner: 1, body: "processing" });
    expect(builds).toBe(3);
  });

  it("keeps nothing when build gives null, forgets a key that went away, and bounds the keys", () => {
    let builds = 0;
    const cache = new KeptAnswers<number, string>({
      build: (source) => {
        builds++;
        return source === "bad" ? null : source.toUpperCase();
      },
      max: 2,
    });
    expect(cache.get(1, "bad")).toBeNull();
    expect(cache.size).toBe(0);
    expect(cache.get(1, "a")).toBe("A");
    cache.forget(1);
    expect(cache.size).toBe(0);
    expect(cache.get(1, "a")).toBe("A");
    expect(builds).toBe(3);
    cache.get(2, "b");
    cache.get(3, "c");
    expect(cache.size).toBe(2);
    // 1 was built longest ago and went; 2 and 3 are still kept.
    cache.get(2, "b");
    cache.get(3, "c");
    expect(builds).toBe(5);
    cache.get(1, "a");
    expect(builds).toBe(6);
  });
});

describe("keptJsonAnswers", () => {
  const big = { text: "x".repeat(5000) };

  it("makes brotli and gzip copies for public answers and gzip level 1 only for per-user ones", async () => {
    const pub = keptJsonAnswers(() => Promise.resolve(big), { compression: "br+gzip" });
    const own = keptJsonAnswers(() => Promise.resolve(big), { compression: "gzip-1" });
    const p = await pub.get(0);
    const o = await own.get(0);
    expect(p.br).not.toBeNull();
    expect(o.br).toBeNull();
    expect(new TextDecoder().decode(gunzipSync(p.gzip!))).toBe(JSON.stringify(big));
    expect(new TextDecoder().decode(gunzipSync(o.gzip!))).toBe(JSON.stringify(big));
    // The same content gives the same ETag whichever copies were made.
    expect(p.etag).toBe(o.etag);
    expect(p.contentType).toBe("application/json");
  });

  it("reuses the previous answer when a reload finds the same content", async () => {
    let now = 0;
    const cache = keptJsonAnswers(() => Promise.resolve(big), {
      compression: "br+gzip",
      ttlMs: 5,
      stale: "wait",
      now: () => now,
    });
    const first = await cache.get(0);
    now = 6;
    expect(await cache.get(0)).toBe(first);
  });
});

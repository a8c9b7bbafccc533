import { Redis } from "@upstash/redis";
import type { Logger } from "../lib/logger.ts";

/**
 * The status store: fast, expiring keys for track status, batch errors and short-lived sign-in
 * state. The database stays the record of truth; this store only speeds up polling.
 * Values are JSON. Two implementations share one contract (kv.contract.test.ts).
 */
export interface StatusStore {
  readonly kind: "upstash" | "embedded";
  get<T = unknown>(key: string): Promise<T | null>;
  mget<T = unknown>(keys: string[]): Promise<(T | null)[]>;
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  /** Reads and deletes in one step: single-use values such as OAuth state. */
  take<T = unknown>(key: string): Promise<T | null>;
  del(keys: string[]): Promise<number>;
  /**
   * Adds one to the counter under `key` (0 when missing), sets its expiry to `ttlSeconds` from now,
   * and returns the new count; one atomic step, so counts from several instances add up.
   */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /** Keys matching a glob such as `track_status:*`. */
  keys(pattern: string): Promise<string[]>;
  ttl(key: string): Promise<number>;
  ping(): Promise<boolean>;
  close?(): void;
  /**
   * The stored JSON text of a live key, or null; synchronous, and only where the store holds the text
   * in this process (the embedded store). The same string while the value is unchanged, so a caller
   * may keep what it made from it and compare (the status poll's lane, decision 0188).
   */
  peekRaw?(key: string): string | null;
}

/** The key families the product writes. */
export const KV_KEYS = {
  trackIds: (userId: number) => `track_ids:${userId}`,
  trackStatus: (trackId: number) => `track_status:${trackId}`,
  errors: (userId: number) => `errors:${userId}`,
  success: (userId: number) => `success:${userId}`,
  oauth: (sessionId: string) => `oauth:${sessionId}`,
  /** A rate limit's count of one client address in one fixed window (docs/decisions/0171). */
  rate: (limit: string, window: number, address: string) => `rate:${limit}:${window}:${address}`,
} as const;

export const KV_FAMILIES = ["track_ids", "track_status", "errors", "success", "oauth"] as const;
export type KvFamily = (typeof KV_FAMILIES)[number];

export const STATUS_TTL_S = 24 * 3600;

/** How long one request to Upstash may take before the database answers instead. */
export const STORE_DEADLINE_MS = 300;
/** After a failure, how long store calls are refused at once before one call probes the store again. */
export const STORE_COOLDOWN_MS = 5_000;

/**
 * A store call that failed (network, deadline, Upstash error) or was refused at once because the
 * store failed moments ago. Callers answer from the database; the admin page answers 503.
 */
export class StatusStoreUnavailable extends Error {
  /** True when the call never reached the store: the circuit is open after a recent failure. */
  readonly circuitOpen: boolean;
  constructor(message: string, opts: { circuitOpen: boolean; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.name = "StatusStoreUnavailable";
    this.circuitOpen = opts.circuitOpen;
  }
}

export interface StoreGuardOptions {
  /** Per request to Upstash; default STORE_DEADLINE_MS. */
  deadlineMs?: number;
  /** Default STORE_COOLDOWN_MS. */
  cooldownMs?: number;
  /** Milliseconds clock for the circuit; tests move it instead of waiting. */
  now?: () => number;
  logger?: Pick<Logger, "warn" | "info">;
}

/**
 * `@upstash/redis` (base64 responses, automatic JSON parsing, auto-pipelining) with one attempt per
 * request under a short deadline, behind a circuit breaker (docs/decisions/0025-status-store-outages.md).
 */
export function createUpstashStore(url: string, token: string, opts: StoreGuardOptions = {}): StatusStore {
  const deadlineMs = opts.deadlineMs ?? STORE_DEADLINE_MS;
  const redis = new Redis({
    url,
    token,
    enableTelemetry: false,
    // The default is five retries with exponential backoff: 4.3 s per call while Upstash is
    // unreachable, for a value the database can give at once.
    retry: { retries: 0 },
    // A function, so every request gets its own timer: the client throws on an aborted request
    // only for a signal function (a fixed signal makes it resolve with "Aborted" as the value).
    signal: () => AbortSignal.timeout(deadlineMs),
  });
  return withCircuitBreaker(upstashCalls(redis), opts);
}

function upstashCalls(redis: Redis): StatusStore {
  return {
    kind: "upstash",
    async get<T>(key: string) {
      return (await redis.get<T>(key)) ?? null;
    },
    async mget<T>(keys: string[]) {
      if (keys.length === 0) return [];
      return (await redis.mget<(T | null)[]>(...keys)).map((v) => v ?? null);
    },
    async set(key, value, ttlSeconds) {
      if (ttlSeconds) await redis.set(key, JSON.stringify(value), { ex: ttlSeconds });
      else await redis.set(key, JSON.stringify(value));
    },
    async take<T>(key: string) {
      return (await redis.getdel<T>(key)) ?? null;
    },
    async del(keys) {
      if (keys.length === 0) return 0;
      return await redis.del(...keys);
    },
    async incr(key, ttlSeconds) {
      // MULTI/EXEC in one request: the count and its expiry are set together.
      const [n] = await redis.multi().incr(key).expire(key, ttlSeconds).exec<[number, number]>();
      return n;
    },
    async keys(pattern) {
      const found = new Set<string>();
      let cursor: string | number = 0;
      do {
        const [next, batch]: [string | number, string[]] = await redis.scan(cursor, { match: pattern, count: 500 });
        for (const k of batch) found.add(k);
        cursor = next;
      } while (String(cursor) !== "0");
      return [...found];
    },
    async ttl(key) {
      return await redis.ttl(key);
    },
    async ping() {
      return (await redis.ping()) === "PONG";
    },
  };
}

/**
 * Circuit breaker: the first failed call opens the circuit, and for `cooldownMs` every call fails at
 * once with `StatusStoreUnavailable` (circuitOpen) without touching the network. Then one call is let
 * through as a probe (the others keep failing at once until it ends): its success closes the circuit,
 * its failure opens it for another cooldown. So an outage costs one deadline per cooldown, not one
 * per call. One failure is enough to open it: every value in the store can be read from the database.
 */
export function withCircuitBreaker(inner: StatusStore, opts: StoreGuardOptions = {}): StatusStore {
  const now = opts.now ?? Date.now;
  const cooldownMs = opts.cooldownMs ?? STORE_COOLDOWN_MS;
  let openUntil: number | null = null;
  let probing = false;

  async function call<T>(op: string, fn: () => Promise<T>): Promise<T> {
    let probe = false;
    if (openUntil !== null) {
      if (probing || now() < openUntil) {
        throw new StatusStoreUnavailable("The status store is unreachable", { circuitOpen: true });
      }
      probing = probe = true;
    }
    try {
      const out = await fn();
      // A call that started before the circuit opened proves nothing about the store now.
      if (probe) {
        openUntil = null;
        opts.logger?.info("status store reachable again", { op });
      }
      return out;
    } catch (err) {
      if (openUntil === null) {
        opts.logger?.warn("status store unreachable, the database answers", { op, err, retry_in_ms: cooldownMs });
      }
      openUntil = now() + cooldownMs;
      throw new StatusStoreUnavailable("The status store is unreachable", { circuitOpen: false, cause: err });
    } finally {
      if (probe) probing = false;
    }
  }

  return {
    kind: inner.kind,
    get: <T>(key: string) => call("get", () => inner.get<T>(key)),
    mget: <T>(keys: string[]) => call("mget", () => inner.mget<T>(keys)),
    set: (key, value, ttlSeconds) => call("set", () => inner.set(key, value, ttlSeconds)),
    take: <T>(key: string) => call("take", () => inner.take<T>(key)),
    del: (keys) => call("del", () => inner.del(keys)),
    incr: (key, ttlSeconds) => call("incr", () => inner.incr(key, ttlSeconds)),
    keys: (pattern) => call("keys", () => inner.keys(pattern)),
    ttl: (key) => call("ttl", () => inner.ttl(key)),
    ping: () => call("ping", () => inner.ping()).catch(() => false),
    close: inner.close ? () => inner.close?.() : undefined,
  };
}

interface Entry {
  json: string;
  expiresAt: number | null;
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}

/** In-process store, the default when no Upstash URL is configured. TTLs are honoured. */
export function createEmbeddedStore(now: () => number = Date.now): StatusStore {
  const map = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const e = map.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== null && e.expiresAt <= now()) {
      map.delete(key);
      return undefined;
    }
    return e;
  };
  // Sweep expired keys so that an idle store does not keep them for ever.
  const sweep = setInterval(() => {
    for (const key of map.keys()) live(key);
  }, 60_000);
  Deno.unrefTimer(sweep);
  return {
    kind: "embedded",
    peekRaw(key: string) {
      return live(key)?.json ?? null;
    },
    get<T>(key: string) {
      const e = live(key);
      return Promise.resolve(e ? (JSON.parse(e.json) as T) : null);
    },
    mget<T>(keys: string[]) {
      return Promise.resolve(keys.map((k) => {
        const e = live(k);
        return e ? (JSON.parse(e.json) as T) : null;
      }));
    },
    set(key, value, ttlSeconds) {
      map.set(key, { json: JSON.stringify(value), expiresAt: ttlSeconds ? now() + ttlSeconds * 1000 : null });
      return Promise.resolve();
    },
    take<T>(key: string) {
      const e = live(key);
      map.delete(key);
      return Promise.resolve(e ? (JSON.parse(e.json) as T) : null);
    },
    del(keys) {
      let n = 0;
      for (const k of keys) if (live(k) && map.delete(k)) n++;
      return Promise.resolve(n);
    },
    incr(key, ttlSeconds) {
      const e = live(key);
      const n = (e ? Number(JSON.parse(e.json)) || 0 : 0) + 1;
      map.set(key, { json: JSON.stringify(n), expiresAt: now() + ttlSeconds * 1000 });
      return Promise.resolve(n);
    },
    keys(pattern) {
      const re = globToRegExp(pattern);
      return Promise.resolve([...map.keys()].filter((k) => live(k) && re.test(k)));
    },
    ttl(key) {
      const e = live(key);
      if (!e) return Promise.resolve(-2);
      if (e.expiresAt === null) return Promise.resolve(-1);
      return Promise.resolve(Math.ceil((e.expiresAt - now()) / 1000));
    },
    ping: () => Promise.resolve(true),
    close: () => clearInterval(sweep),
  };
}

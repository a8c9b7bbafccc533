import { Redis } from "@upstash/redis";

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
  /** Keys matching a glob such as `track_status:*`. */
  keys(pattern: string): Promise<string[]>;
  ttl(key: string): Promise<number>;
  ping(): Promise<boolean>;
  close?(): void;
}

/** The key families the product writes. */
export const KV_KEYS = {
  trackIds: (userId: number) => `track_ids:${userId}`,
  trackStatus: (trackId: number) => `track_status:${trackId}`,
  errors: (userId: number) => `errors:${userId}`,
  success: (userId: number) => `success:${userId}`,
  oauth: (sessionId: string) => `oauth:${sessionId}`,
} as const;

export const KV_FAMILIES = ["track_ids", "track_status", "errors", "success", "oauth"] as const;
export type KvFamily = (typeof KV_FAMILIES)[number];

export const STATUS_TTL_S = 24 * 3600;

/** `@upstash/redis` with its default settings (base64 responses, automatic JSON parsing). */
export function createUpstashStore(url: string, token: string): StatusStore {
  const redis = new Redis({ url, token, enableTelemetry: false });
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
      try {
        return (await redis.ping()) === "PONG";
      } catch {
        return false;
      }
    },
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

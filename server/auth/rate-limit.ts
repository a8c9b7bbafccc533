import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ApiError } from "../lib/http-error.ts";
import { KV_KEYS, type StatusStore } from "../status-store/kv.ts";

/**
 * Fixed one-minute windows per client address (docs/decisions/0012): in process memory, or in the
 * status store when it is Upstash, so the count holds across instances (docs/decisions/0171). Time
 * comes from the app clock so tests can move past a window.
 */
export const RATE_LIMIT_MESSAGE = "Слишком много попыток входа. Подождите минуту и попробуйте снова.";

interface RateVerdict {
  ok: boolean;
  /** Seconds until the window ends (at least 1). */
  retryAfterS: number;
}

interface RateLimiter {
  /** Counts one attempt; `retryAfterS` is set when the attempt is over the limit. */
  hit(key: string): RateVerdict;
}

/** A limiter whose count may live outside the process. */
export interface SharedRateLimiter {
  hit(key: string): Promise<RateVerdict>;
}

function createRateLimiter(opts: { limit: number; windowMs: number; now: () => number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = 0;
  return {
    hit(key) {
      const now = opts.now();
      if (now - lastSweep > opts.windowMs) {
        for (const [k, w] of windows) if (now - w.start >= opts.windowMs) windows.delete(k);
        lastSweep = now;
      }
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count++;
      const retryAfterS = Math.max(1, Math.ceil((w.start + opts.windowMs - now) / 1000));
      return { ok: w.count <= opts.limit, retryAfterS };
    },
  };
}

/**
 * The count kept in the status store when it is Upstash, so every instance adds to the same one:
 * one INCR (with its expiry) per attempt, keyed by the limit's name, the window and the address.
 * Every attempt is also counted in process, and that count answers when the store does not
 * (a deadline, an open circuit: docs/decisions/0025), so an outage neither blocks sign-in nor
 * lifts the limit; it only makes it per instance for a while. With the embedded store the count
 * is the in-process one, as before.
 */
export function createSharedRateLimiter(opts: {
  /** Keeps the counts of different limits apart in the store. */
  name: string;
  limit: number;
  windowMs: number;
  now: () => number;
  kv: StatusStore;
}): SharedRateLimiter {
  const local = createRateLimiter(opts);
  const ttlS = Math.ceil(opts.windowMs / 1000) + 1;
  return {
    async hit(key) {
      const own = local.hit(key);
      if (opts.kv.kind !== "upstash") return own;
      const now = opts.now();
      const window = Math.floor(now / opts.windowMs);
      try {
        const n = await opts.kv.incr(KV_KEYS.rate(opts.name, window, key.slice(0, 100)), ttlS);
        return {
          ok: n <= opts.limit,
          retryAfterS: Math.max(1, Math.ceil(((window + 1) * opts.windowMs - now) / 1000)),
        };
      } catch {
        // The store's own guard logs the outage once; the in-process count answers meanwhile.
        return own;
      }
    },
  };
}

/**
 * The client's address. By default the connection's peer (Deno.serve passes it as the handler's
 * second argument, which Hono exposes as `c.env`); forwarded headers are not trusted, since anyone
 * can send them. Behind `trustedProxyHops` reverse proxies, each of which appends the address it
 * received the request from to X-Forwarded-For, the client is the entry just left of the ones our
 * own proxies added; entries further left are the client's to invent and are ignored. A request
 * that did not pass all of them (too short a chain) counts under its peer address.
 * In-process requests (tests) have no connection and share one bucket.
 */
export function clientAddress(c: Context<AppEnv>, trustedProxyHops = 0): string {
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  const peer = env?.remoteAddr?.hostname ?? "local";
  if (trustedProxyHops <= 0) return peer;
  const chain = (c.req.header("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (chain.length < trustedProxyHops) return peer;
  return chain[chain.length - trustedProxyHops];
}

export function rateLimit(limiter: SharedRateLimiter, trustedProxyHops = 0): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { ok, retryAfterS } = await limiter.hit(clientAddress(c, trustedProxyHops));
    if (!ok) {
      c.header("Retry-After", String(retryAfterS));
      throw new ApiError(429, RATE_LIMIT_MESSAGE);
    }
    await next();
  };
}

/**
 * `AUTH_RATE_LIMIT_PER_MIN` calls per client address per minute, on the app clock, counted under
 * `name`: token renewal (`POST /auth/refresh`) does not use up an address's sign-in attempts, nor
 * the other way round (docs/decisions/0091-refresh-rate-limit-and-response-headers.md). In the store
 * when it is Upstash (createSharedRateLimiter).
 */
export function perAddressLimiter(ctx: Pick<AppDeps, "config" | "clock" | "kv">, name: string): SharedRateLimiter {
  return createSharedRateLimiter({
    name,
    kv: ctx.kv,
    limit: ctx.config.authRateLimitPerMin,
    windowMs: 60_000,
    now: () => ctx.clock.now().getTime(),
  });
}

/** The middleware of `perAddressLimiter`: 429 with Retry-After past the limit. */
export function perAddressLimit(
  ctx: Pick<AppDeps, "config" | "clock" | "kv">,
  name: string,
): MiddlewareHandler<AppEnv> {
  return rateLimit(perAddressLimiter(ctx, name), ctx.config.trustedProxyHops);
}

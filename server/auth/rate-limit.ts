import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { ApiError } from "../lib/http-error.ts";

/**
 * Fixed one-minute windows per client address, in process memory (docs/decisions/0012). Time comes
 * from the app clock so tests can move past a window.
 */
export const RATE_LIMIT_MESSAGE = "Слишком много попыток входа. Подождите минуту и попробуйте снова.";

export interface RateLimiter {
  /** Counts one attempt; `retryAfterS` is set when the attempt is over the limit. */
  hit(key: string): { ok: boolean; retryAfterS: number };
}

export function createRateLimiter(opts: { limit: number; windowMs: number; now: () => number }): RateLimiter {
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
 * The peer address from the connection (Deno.serve passes it as the handler's second argument,
 * which Hono exposes as `c.env`). Forwarded headers are not trusted: anyone can send them.
 * In-process requests (tests) have no connection and share one bucket.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return env?.remoteAddr?.hostname ?? "local";
}

export function rateLimit(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { ok, retryAfterS } = limiter.hit(clientAddress(c));
    if (!ok) {
      c.header("Retry-After", String(retryAfterS));
      throw new ApiError(429, RATE_LIMIT_MESSAGE);
    }
    await next();
  };
}

import type { Context, MiddlewareHandler } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
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

export function rateLimit(limiter: RateLimiter, trustedProxyHops = 0): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { ok, retryAfterS } = limiter.hit(clientAddress(c, trustedProxyHops));
    if (!ok) {
      c.header("Retry-After", String(retryAfterS));
      throw new ApiError(429, RATE_LIMIT_MESSAGE);
    }
    await next();
  };
}

/**
 * `AUTH_RATE_LIMIT_PER_MIN` calls per client address per minute, on the app clock, with a count of
 * its own: token renewal (`POST /auth/refresh`) does not use up an address's sign-in attempts, nor
 * the other way round (docs/decisions/0091-refresh-rate-limit-and-response-headers.md).
 */
export function perAddressLimit(ctx: Pick<AppContext, "config" | "clock">): MiddlewareHandler<AppEnv> {
  const limiter = createRateLimiter({
    limit: ctx.config.authRateLimitPerMin,
    windowMs: 60_000,
    now: () => ctx.clock.now().getTime(),
  });
  return rateLimit(limiter, ctx.config.trustedProxyHops);
}

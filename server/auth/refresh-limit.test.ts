import { describe, expect, it } from "vitest";
import { createTestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { RATE_LIMIT_MESSAGE } from "./rate-limit.ts";

const refresh = (app: Awaited<ReturnType<typeof createTestApp>>["app"], token: string, peer = "10.0.0.1") =>
  app.request(
    "/api/auth/refresh",
    { method: "POST", headers: { Authorization: `Bearer ${token}` } },
    { remoteAddr: { hostname: peer, port: 1, transport: "tcp" } },
  );

describe("POST /api/auth/refresh rate limit", () => {
  it("answers 429 with Retry-After past AUTH_RATE_LIMIT_PER_MIN per address, then renews again after the minute", async () => {
    let now = Date.UTC(2025, 0, 1);
    const t = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_MIN: "3" }, clock: { now: () => new Date(now) } });
    try {
      const user = await createUser(t.ctx.db);
      let { refresh_token } = await signIn(t.ctx, user);
      for (let i = 0; i < 3; i++) {
        const res = await refresh(t.app, refresh_token);
        expect(res.status).toBe(200);
        refresh_token = (await res.json()).refresh_token;
      }
      const limited = await refresh(t.app, refresh_token);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await limited.json()).toEqual({ success: false, error: RATE_LIMIT_MESSAGE });
      // Garbage counts as well: guessing tokens is what the limit is for.
      expect((await refresh(t.app, "garbage")).status).toBe(429);
      // Another address has its own count.
      expect((await refresh(t.app, "garbage", "10.0.0.2")).status).toBe(401);

      // The refused call did not use the token up: it renews once the minute has passed.
      now += 61_000;
      expect((await refresh(t.app, refresh_token)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("keeps its own count: renewals do not use up the address's sign-in attempts", async () => {
    const t = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_MIN: "2" } });
    try {
      for (let i = 0; i < 3; i++) await refresh(t.app, "garbage");
      expect((await refresh(t.app, "garbage")).status).toBe(429);
      const urls = await t.app.request("/api/auth/oauth/urls", {}, {
        remoteAddr: { hostname: "10.0.0.1", port: 1, transport: "tcp" },
      });
      expect(urls.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

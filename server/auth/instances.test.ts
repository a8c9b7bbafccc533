/**
 * Two app instances sharing one libSQL file and one Upstash store (the REST bridge over a real
 * redis-server), as two server processes behind a load balancer would (issue 14): the sign-in and
 * renewal rate limits count across both (docs/decisions/0171), and a ban, a demotion or a sign-out
 * made through one instance holds on the other within the session cache's lifetime (5 s,
 * server/auth/tokens.ts; docs/decisions/0172). Date is faked to step past that lifetime instead of
 * sleeping.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createUpstashStore, type StatusStore } from "../status-store/kv.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { findRedisServer, type RedisServer, startRedisServer } from "../testing/redis-server.ts";
import { type Instance, openInstance } from "../testing/second-instance.ts";
import { startUpstashBridge, type UpstashBridge } from "../testing/upstash-bridge.ts";
import { RATE_LIMIT_MESSAGE } from "./rate-limit.ts";

const redisBin = await findRedisServer();
if (!redisBin) {
  if (Deno.env.get("CI") === "true") {
    throw new Error("redis-server is not installed; CI=true requires the two-instance tests");
  }
  console.warn("NOTICE: redis-server not found: the two-instance tests over Upstash are skipped.");
}

/** Past the session cache's lifetime (SESSION_CACHE_MS in tokens.ts). */
const SESSION_CACHE_LIFETIME_MS = 5_000;

describe.skipIf(!redisBin)("two instances over one database and one Upstash store", () => {
  let redis: RedisServer;
  let bridge: UpstashBridge;
  let kvA: StatusStore;
  let kvB: StatusStore;
  let a: TestApp;
  let b: Instance;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 10, 12) });
    redis = await startRedisServer();
    bridge = startUpstashBridge({ redisPort: redis.port });
    // Each instance has its own client, as each process would; a generous deadline so a slow moment
    // on a busy machine does not open a circuit (the outage case closes the bridge instead).
    kvA = createUpstashStore(bridge.url, bridge.token, { deadlineMs: 10_000 });
    kvB = createUpstashStore(bridge.url, bridge.token, { deadlineMs: 10_000 });
    a = await createTestApp({ kv: kvA, env: { AUTH_RATE_LIMIT_PER_MIN: "4" } });
    b = await openInstance(a, { kv: kvB });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await b.close();
    await a.close();
    await bridge.close();
    await redis.stop();
  });

  const from = (peer: string) => ({ remoteAddr: { hostname: peer, port: 1, transport: "tcp" } });
  const urls = (app: TestApp["app"], peer: string) => app.request("/api/auth/oauth/urls", {}, from(peer));
  const refresh = (app: TestApp["app"], token: string, peer: string) =>
    app.request("/api/auth/refresh", { method: "POST", headers: { Authorization: `Bearer ${token}` } }, from(peer));

  describe("rate limits", () => {
    it("count an address's sign-in calls on both instances together", async () => {
      for (const app of [a.app, b.app, a.app, b.app]) expect((await urls(app, "10.0.0.1")).status).toBe(200);
      // Two calls on each: neither instance alone is over the limit of 4, the two together are.
      for (const app of [a.app, b.app]) {
        const res = await urls(app, "10.0.0.1");
        expect(res.status).toBe(429);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(await res.json()).toEqual({ success: false, error: RATE_LIMIT_MESSAGE });
      }
      // Another address has its own count, and renewal its own limit.
      expect((await urls(b.app, "10.0.0.2")).status).toBe(200);
      expect((await refresh(b.app, "garbage", "10.0.0.1")).status).toBe(401);
      // A minute later the address may sign in again, on either instance.
      vi.setSystemTime(Date.now() + 60_000);
      expect((await urls(b.app, "10.0.0.1")).status).toBe(200);
      expect((await urls(a.app, "10.0.0.1")).status).toBe(200);
    });

    it("count token renewals across instances too", async () => {
      for (const app of [a.app, b.app, a.app, b.app]) {
        expect((await refresh(app, "garbage", "10.0.0.3")).status).toBe(401);
      }
      expect((await refresh(a.app, "garbage", "10.0.0.3")).status).toBe(429);
      expect((await refresh(b.app, "garbage", "10.0.0.3")).status).toBe(429);
      // The sign-in count of the address is untouched.
      expect((await urls(a.app, "10.0.0.3")).status).toBe(200);
    });

    it("fall back to each instance's own count while the store is unreachable", async () => {
      expect((await urls(a.app, "10.0.0.4")).status).toBe(200);
      await bridge.close();
      // Sign-in still answers; each instance keeps counting what it saw (A: 1 before the outage).
      for (let i = 0; i < 3; i++) expect((await urls(a.app, "10.0.0.4")).status).toBe(200);
      expect((await urls(a.app, "10.0.0.4")).status).toBe(429);
      for (let i = 0; i < 4; i++) expect((await urls(b.app, "10.0.0.4")).status).toBe(200);
      expect((await urls(b.app, "10.0.0.4")).status).toBe(429);
    });
  });

  describe("session changes made through the other instance", () => {
    /** B has the session in its cache: a call through it has just succeeded. */
    async function cachedOnB(headers: Record<string, string>, path: string) {
      expect((await b.app.request(path, { headers })).status).toBe(200);
    }
    const json = { "content-type": "application/json" };
    const pastCache = () => vi.setSystemTime(Date.now() + SESSION_CACHE_LIFETIME_MS + 1);

    it("a ban through A answers 403 on B within the session cache's lifetime", async () => {
      const admin = await signIn(a.ctx, await createUser(a.ctx.db, { is_admin: true }));
      const user = await createUser(a.ctx.db);
      const auth = await signIn(a.ctx, user);
      await cachedOnB(auth.headers, "/api/tracks");
      const ban = await a.app.request(`/api/admin/users/${user.id}/ban`, {
        method: "POST",
        headers: { ...admin.headers, ...json },
        body: JSON.stringify({ reason: "спам" }),
      });
      expect(ban.status).toBe(200);
      pastCache();
      const res = await b.app.request("/api/tracks", { headers: auth.headers });
      expect(res.status).toBe(403);
      expect((await res.json()).banned).toBe(true);
      // Renewal reads the session afresh: refused on B at once.
      expect((await refresh(b.app, auth.refresh_token, "10.0.1.1")).status).not.toBe(200);
    });

    it("a demotion through A takes the moderator API away on B within the session cache's lifetime", async () => {
      const admin = await signIn(a.ctx, await createUser(a.ctx.db, { is_admin: true }));
      const mod = await createUser(a.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
      const auth = await signIn(a.ctx, mod);
      await cachedOnB(auth.headers, "/api/moderator/status");
      const res = await a.app.request(`/api/admin/users/${mod.id}`, {
        method: "PUT",
        headers: { ...admin.headers, ...json },
        body: JSON.stringify({ username: mod.username, is_admin: false, is_moderator: false, is_banned: false }),
      });
      expect(res.status).toBe(200);
      pastCache();
      expect((await b.app.request("/api/moderator/status", { headers: auth.headers })).status).toBe(403);
      // The demoted person is still signed in: only the role went.
      expect((await b.app.request("/api/auth/me", { headers: auth.headers })).status).toBe(200);
    });

    it("a sign-out through A ends the session on B within the session cache's lifetime", async () => {
      const user = await createUser(a.ctx.db);
      const auth = await signIn(a.ctx, user);
      await cachedOnB(auth.headers, "/api/auth/me");
      expect((await a.app.request("/api/auth/logout", { method: "POST", headers: auth.headers })).status).toBe(200);
      pastCache();
      expect((await b.app.request("/api/auth/me", { headers: auth.headers })).status).toBe(401);
      // Renewal on B is refused too (it reads the session afresh; asked last, as that read also
      // drops B's cached copy).
      expect((await refresh(b.app, auth.refresh_token, "10.0.1.2")).status).toBe(401);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";

// Sessions are cached briefly (tokens.ts); every change a person depends on must still apply on the
// very next call.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("session cache", () => {
  it("a moderator demoted by an admin loses the moderator API on the next call", async () => {
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const mod = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
    const adminAuth = await signIn(t.ctx, admin);
    const modAuth = await signIn(t.ctx, mod);
    expect((await t.app.request("/api/moderator/status", { headers: modAuth.headers })).status).toBe(200);
    const res = await t.app.request(`/api/admin/users/${mod.id}`, {
      method: "PUT",
      headers: { ...adminAuth.headers, "content-type": "application/json" },
      body: JSON.stringify({ username: mod.username, is_admin: false, is_moderator: false, is_banned: false }),
    });
    expect(res.status).toBe(200);
    expect((await t.app.request("/api/moderator/status", { headers: modAuth.headers })).status).toBe(403);
  });

  it("a profile update shows in /auth/me at once", async () => {
    const user = await createUser(t.ctx.db);
    const auth = await signIn(t.ctx, user);
    await t.app.request("/api/auth/me", { headers: auth.headers });
    const form = new FormData();
    form.set("city", "Новосибирск");
    const up = await t.app.request("/api/profile/update", { method: "POST", headers: auth.headers, body: form });
    expect(up.status).toBe(200);
    const me = await (await t.app.request("/api/auth/me", { headers: auth.headers })).json();
    expect(me.user.city).toBe("Новосибирск");
  });

  it("logout ends the cached session for both tokens", async () => {
    const user = await createUser(t.ctx.db);
    const auth = await signIn(t.ctx, user);
    expect((await t.app.request("/api/auth/me", { headers: auth.headers })).status).toBe(200);
    expect((await t.app.request("/api/auth/logout", { method: "POST", headers: auth.headers })).status).toBe(200);
    expect((await t.app.request("/api/auth/me", { headers: auth.headers })).status).toBe(401);
    const refresh = await t.app.request("/api/auth/refresh", {
      method: "POST",
      headers: { Authorization: `Bearer ${auth.refresh_token}` },
    });
    expect(refresh.status).toBe(401);
  });

  it("a ban answers 403 on the next call", async () => {
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const user = await createUser(t.ctx.db);
    const auth = await signIn(t.ctx, user);
    expect((await t.app.request("/api/tracks", { headers: auth.headers })).status).toBe(200);
    const ban = await t.app.request(`/api/admin/users/${user.id}/ban`, {
      method: "POST",
      headers: { ...(await signIn(t.ctx, admin)).headers, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(ban.status).toBe(200);
    expect((await t.app.request("/api/tracks", { headers: auth.headers })).status).toBe(403);
  });
});

describe("authenticateCached (decision 0188)", () => {
  it("accepts from the caches alone exactly what authenticate accepts, and leaves everything else to it", async () => {
    const user = await createUser(t.ctx.db);
    const auth = await signIn(t.ctx, user);
    const token = auth.access_token;
    // Nothing cached yet for a token never checked in this process: authenticate decides.
    const fresh = await signIn(t.ctx, user);
    expect(t.ctx.tokens.authenticateCached(fresh.access_token)).toBeUndefined();
    const full = await t.ctx.tokens.authenticate(token);
    expect(full).not.toBeNull();
    expect(t.ctx.tokens.authenticateCached(token)).toEqual(full);
    // A refresh token, garbage and an empty string are never accepted here.
    await t.ctx.tokens.refresh(auth.refresh_token).catch(() => null);
    expect(t.ctx.tokens.authenticateCached(auth.refresh_token)).toBeUndefined();
    expect(t.ctx.tokens.authenticateCached("garbage")).toBeUndefined();
    expect(t.ctx.tokens.authenticateCached("")).toBeUndefined();
    // Logout drops the session: the cached answer is gone at once.
    const other = await signIn(t.ctx, user);
    await t.ctx.tokens.authenticate(other.access_token);
    expect(t.ctx.tokens.authenticateCached(other.access_token)?.user.id).toBe(user.id);
    expect(await t.ctx.tokens.revokeByToken(other.access_token)).toBe(true);
    expect(t.ctx.tokens.authenticateCached(other.access_token)).toBeUndefined();
    expect(await t.ctx.tokens.authenticate(other.access_token)).toBeNull();
    // A change to the user drops the cached session too.
    t.ctx.tokens.forgetUser(user.id);
    expect(t.ctx.tokens.authenticateCached(token)).toBeUndefined();
  });
});

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

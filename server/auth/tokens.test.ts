import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BAN_MESSAGE } from "../../domain/ban.ts";
import { users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";

let t: TestApp;
let nowMs = Date.UTC(2025, 0, 10, 12, 0, 0);
const clock = { now: () => new Date(nowMs) };

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const me = (token?: string) =>
  t.app.request("/api/auth/me", { headers: token ? { Authorization: `Bearer ${token}` } : {} });
const refresh = (token: string) =>
  t.app.request("/api/auth/refresh", { method: "POST", headers: { Authorization: `Bearer ${token}` } });

const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("GET /api/auth/me", () => {
  it("returns the current user without internal fields", async () => {
    const user = await createUser(t.ctx.db, { first_name: "Аня", pending_vk_link_phone: "79990000000" });
    const { access_token } = await signIn(t.ctx, user);
    const res = await me(access_token);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.user).toMatchObject({ id: user.id, username: user.username, first_name: "Аня", is_admin: false });
    expect(body.user).not.toHaveProperty("pending_vk_link_phone");
    expect(body.user).not.toHaveProperty("telegram_hash");
  });

  it("answers success, user and message (spec 1 §7)", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token } = await signIn(t.ctx, user);
    const body = await (await me(access_token)).json();
    expect(Object.keys(body).sort()).toEqual(["message", "success", "user"]);
    expect(body).toMatchObject({ success: true, message: "Пользователь авторизован", user: { id: user.id } });
  });

  it("answers 401 without a token", async () => {
    const res = await me();
    expect(res.status).toBe(401);
    expect((await res.json()).success).toBe(false);
  });

  it("answers 401 for an expired access token", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token } = await signIn(t.ctx, user);
    expect((await me(access_token)).status).toBe(200);
    nowMs += 16 * 60 * 1000;
    try {
      expect((await me(access_token)).status).toBe(401);
    } finally {
      nowMs -= 16 * 60 * 1000;
    }
  });

  it("answers 401 for a tampered token", async () => {
    const user = await createUser(t.ctx.db);
    const other = await createUser(t.ctx.db);
    const { access_token } = await signIn(t.ctx, user);
    const [h, p, s] = access_token.split(".");
    const payload = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = `${h}.${b64url(JSON.stringify({ ...payload, sub: String(other.id) }))}.${s}`;
    expect((await me(forged)).status).toBe(401);
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.at(-2) === "A" ? "B" : "A"}${s.at(-1)}`;
    expect((await me(flipped)).status).toBe(401);
  });

  it("answers 401 for an unsigned token (alg none)", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token } = await signIn(t.ctx, user);
    const payload = access_token.split(".")[1];
    const none = `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
    expect((await me(none)).status).toBe(401);
  });

  it("answers 401 when the refresh token is used as an access token", async () => {
    const user = await createUser(t.ctx.db);
    const { refresh_token } = await signIn(t.ctx, user);
    expect((await me(refresh_token)).status).toBe(401);
  });
});

describe("POST /api/auth/refresh", () => {
  it("issues a new access token and rotates the refresh token", async () => {
    const user = await createUser(t.ctx.db);
    const first = await signIn(t.ctx, user);
    const res = await refresh(first.refresh_token);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(typeof body.access_token).toBe("string");
    expect(typeof body.refresh_token).toBe("string");
    expect((await me(body.access_token)).status).toBe(200);
    // The old refresh token was replaced and no longer works; the new one does.
    expect((await refresh(first.refresh_token)).status).toBe(401);
    expect((await refresh(body.refresh_token)).status).toBe(200);
  });

  it("refuses an access token, a missing token and garbage", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token } = await signIn(t.ctx, user);
    expect((await refresh(access_token)).status).toBe(401);
    expect((await t.app.request("/api/auth/refresh", { method: "POST" })).status).toBe(401);
    expect((await refresh("not.a.jwt")).status).toBe(401);
  });

  it("answers 403 with the ban text for a banned user", async () => {
    const user = await createUser(t.ctx.db);
    const { refresh_token } = await signIn(t.ctx, user);
    await t.ctx.db.update(users).set({ is_banned: true }).where(eq(users.id, user.id));
    const res = await refresh(refresh_token);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(DEFAULT_BAN_MESSAGE);
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the session: neither token works afterwards", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token, refresh_token } = await signIn(t.ctx, user);
    const res = await t.app.request("/api/auth/logout", {
      method: "POST",
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(true);
    expect((await me(access_token)).status).toBe(401);
    expect((await refresh(refresh_token)).status).toBe(401);
  });

  it("accepts the refresh token when the access token has expired", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token, refresh_token } = await signIn(t.ctx, user);
    const res = await t.app.request("/api/auth/logout", {
      method: "POST",
      headers: { Authorization: `Bearer ${refresh_token}` },
    });
    expect(res.status).toBe(200);
    expect((await me(access_token)).status).toBe(401);
  });

  it("leaves other sessions of the same user alone", async () => {
    const user = await createUser(t.ctx.db);
    const a = await signIn(t.ctx, user);
    const b = await signIn(t.ctx, user);
    await t.app.request("/api/auth/logout", { method: "POST", headers: a.headers });
    expect((await me(a.access_token)).status).toBe(401);
    expect((await me(b.access_token)).status).toBe(200);
  });
});

describe("banned users", () => {
  it("get 403 with ban_reason, or the default text, from /me", async () => {
    const withReason = await createUser(t.ctx.db, { is_banned: true, ban_reason: "Спам в треках" });
    const plain = await createUser(t.ctx.db, { is_banned: true });
    const r1 = await me((await signIn(t.ctx, withReason)).access_token);
    expect(r1.status).toBe(403);
    expect(await r1.json()).toMatchObject({ success: false, error: "Спам в треках", ban_reason: "Спам в треках" });
    const r2 = await me((await signIn(t.ctx, plain)).access_token);
    expect(r2.status).toBe(403);
    expect((await r2.json()).error).toBe(DEFAULT_BAN_MESSAGE);
  });

  it("still get 403 with the ban text after the ban revoked their sessions", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token, refresh_token } = await signIn(t.ctx, user);
    await t.ctx.db.update(users).set({ is_banned: true, ban_reason: "Читы" }).where(eq(users.id, user.id));
    await t.ctx.tokens.revokeUser(user.id);
    const res = await me(access_token);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("Читы");
    const r = await refresh(refresh_token);
    expect(r.status).toBe(403);
    // A forged token does not reveal anything.
    expect((await me(access_token.slice(0, -3) + "abc")).status).toBe(401);
  });

  it("get 403 on every route that requires sign-in", async () => {
    const banned = await createUser(t.ctx.db, { is_banned: true, is_admin: true, is_moderator: true });
    const { headers } = await signIn(t.ctx, banned);
    const routes = t.app.routes
      .filter((r) => r.method !== "ALL" && r.path.startsWith("/api/"))
      .map((r) => ({ method: r.method, path: r.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "1").replace(/\*$/, "x") }));
    const authenticated: string[] = [];
    for (const r of routes) {
      // A route whose answer to an anonymous caller is the user guard's 401 requires sign-in.
      const anon = await t.app.request(r.path, { method: r.method });
      if (anon.status !== 401 || (await anon.json()).error !== "Требуется авторизация") continue;
      if (r.path === "/api/auth/logout") continue;
      authenticated.push(`${r.method} ${r.path}`);
      const res = await t.app.request(r.path, { method: r.method, headers });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect((await res.json()).error, `${r.method} ${r.path}`).toBe(DEFAULT_BAN_MESSAGE);
    }
    expect(authenticated).toContain("GET /api/auth/me");
    expect(authenticated).toContain("POST /api/profile/link-accounts");
  });
});

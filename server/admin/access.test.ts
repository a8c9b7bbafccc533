import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signIn } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => (f = await staffFixture()));
afterAll(() => f.close());

/** Every admin endpoint of spec 2 §7. */
const ENDPOINTS: Array<[string, string, unknown?]> = [
  ["GET", "/api/admin/tracks"],
  ["POST", "/api/admin/tracks", { filename: "A - B.mp3" }],
  ["GET", "/api/admin/tracks/1"],
  ["PUT", "/api/admin/tracks/1", { filename: "A - B.mp3" }],
  ["DELETE", "/api/admin/tracks/1"],
  ["GET", "/api/admin/tracks/download/1"],
  ["POST", "/api/admin/tracks/download", { track_ids: [1] }],
  ["GET", "/api/admin/faq"],
  ["POST", "/api/admin/faq", { question: "Q", answer: "A" }],
  ["GET", "/api/admin/faq/1"],
  ["PUT", "/api/admin/faq/1", { order: 1 }],
  ["DELETE", "/api/admin/faq/1"],
  ["GET", "/api/admin/slider"],
  ["POST", "/api/admin/slider", { tile_type: "track", track_url: "https://example.com" }],
  ["GET", "/api/admin/slider/1"],
  ["PUT", "/api/admin/slider/1", { tile_type: "track", track_url: "https://example.com" }],
  ["DELETE", "/api/admin/slider/1"],
  ["GET", "/api/admin/users"],
  ["POST", "/api/admin/users", { username: "someone" }],
  ["GET", "/api/admin/users/1"],
  ["PUT", "/api/admin/users/1", { username: "someone" }],
  ["DELETE", "/api/admin/users/1"],
  ["POST", "/api/admin/users/1/ban"],
  ["POST", "/api/admin/users/1/unban"],
  ["GET", "/api/admin/dashboard?period=month"],
  ["GET", "/api/admin/dashboard/response-figures?period=month"],
  ["GET", "/api/admin/redis-data"],
  ["DELETE", "/api/admin/redis-key/track_ids:1"],
  ["POST", "/api/admin/cleanup-redis", { key_type: "all" }],
];

describe("who may call /api/admin", () => {
  it.each(ENDPOINTS)("%s %s: anonymous 401, user 403, moderator 403", async (method, path, json) => {
    const anon = await f.call(method, path, { headers: {}, json });
    expect(anon.status).toBe(401);
    expect(anon.body.success).toBe(false);
    const user = await f.call(method, path, { headers: f.as.plain, json });
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ success: false, error: "Доступ только для администраторов" });
    const mod = await f.call(method, path, { headers: f.as.moderator, json });
    expect(mod.status).toBe(403);
  });

  it("refuses a forged or garbage bearer token with 401", async () => {
    for (const token of ["x", "a.b.c", f.as.admin.Authorization.slice(7) + "x"]) {
      const res = await f.call("GET", "/api/admin/tracks", { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
    }
  });

  it("refuses a banned admin with 403 and the ban text", async () => {
    const banned = await createUser(f.t.ctx.db, { is_admin: true, is_banned: true, ban_reason: "Нарушение" });
    const res = await f.call("GET", "/api/admin/dashboard", { headers: (await signIn(f.t.ctx, banned)).headers });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("Нарушение");
  });

  it("lets an admin in", async () => {
    for (
      const path of [
        "/api/admin/tracks",
        "/api/admin/faq",
        "/api/admin/slider",
        "/api/admin/users",
        "/api/admin/dashboard",
        "/api/admin/redis-data",
      ]
    ) {
      const res = await f.call("GET", path);
      expect(res.status, path).toBe(200);
      expect(res.body.success).toBe(true);
    }
  });
});

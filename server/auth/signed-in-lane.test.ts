import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";

/**
 * GET /api/auth/me and GET /api/tracks are answered in front of the router for a live token of a
 * user who is not banned (app.ts, `signedInLane`; decision 0186). A query string keeps a request out
 * of the lane, so `?via=routes` gets the routes' answer: both must be the same, and every refusal
 * must stay the routes' own.
 */

let time = Date.parse("2026-11-20T12:00:00Z");
const clock = { now: () => new Date(time) };
let t: TestApp;
let closed: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
  closed = await createTestApp({ clock, env: { MAINTENANCE_MODE: "true" } });
});
afterAll(async () => {
  await t.close();
  await closed.close();
});

const names = (res: Response) => [...res.headers.keys()].filter((k) => k !== "x-request-id" && k !== "content-length").sort();

async function same(app: TestApp, path: string, headers: Record<string, string>) {
  const lane = await app.app.request(path, { headers });
  const routes = await app.app.request(`${path}?via=routes`, { headers });
  expect(lane.status, path).toBe(routes.status);
  const laneBody = await lane.text();
  const routesBody = await routes.text();
  expect(laneBody, path).toBe(routesBody);
  expect(names(lane), path).toEqual(names(routes));
  for (const name of names(routes)) {
    expect(lane.headers.get(name), `${path} ${name}`).toBe(routes.headers.get(name));
  }
  expect(lane.headers.get("x-request-id")).toMatch(/\S/);
  return { status: lane.status, body: laneBody ? JSON.parse(laneBody) : null, lane };
}

describe("the signed-in lane", () => {
  it("answers /api/auth/me and /api/tracks as the routes do, no-store", async () => {
    const user = await createUser(t.ctx.db, { first_name: "Лейн", city: "Москва" });
    await createTrack(t.ctx.db, { user_id: user.id, filename: "Lane - One.mp3", directions: "label_koster" });
    const { headers } = await signIn(t.ctx, user);
    const me = await same(t, "/api/auth/me", headers);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ success: true, message: "Пользователь авторизован", user: { id: user.id, first_name: "Лейн" } });
    expect(me.lane.headers.get("cache-control")).toBe("no-store");
    const list = await same(t, "/api/tracks", headers);
    expect(list.status).toBe(200);
    expect(list.body.tracks.map((r: { filename: string }) => r.filename)).toEqual(["Lane - One.mp3"]);
    expect(list.lane.headers.get("cache-control")).toBe("no-store");
    // Same content, same ETag; a matching If-None-Match is 304 in the lane too.
    const etag = list.lane.headers.get("etag")!;
    expect((await t.app.request("/api/tracks?via=routes", { headers })).headers.get("etag")).toBe(etag);
    const nm = await t.app.request("/api/tracks", { headers: { ...headers, "if-none-match": etag } });
    expect(nm.status).toBe(304);
    expect(nm.headers.get("cache-control")).toBe("no-store");
  });

  it("shows a profile change at once", async () => {
    const user = await createUser(t.ctx.db, { city: "Москва" });
    const { headers } = await signIn(t.ctx, user);
    expect((await same(t, "/api/auth/me", headers)).body.user.city).toBe("Москва");
    await t.ctx.users.update(user.id, { city: "Казань" });
    expect((await same(t, "/api/auth/me", headers)).body.user.city).toBe("Казань");
  });

  it("leaves every refusal to the routes: no token, a bad or expired one, a ban", async () => {
    for (const path of ["/api/auth/me", "/api/tracks"]) {
      expect((await same(t, path, {})).status).toBe(401);
      expect((await same(t, path, { Authorization: "Bearer nonsense" })).status).toBe(401);
    }
    const user = await createUser(t.ctx.db);
    const { headers } = await signIn(t.ctx, user);
    await t.ctx.users.ban(user.id, "спам");
    for (const path of ["/api/auth/me", "/api/tracks"]) {
      const r = await same(t, path, headers);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ success: false, banned: true });
    }
    const later = await createUser(t.ctx.db);
    const live = (await signIn(t.ctx, later)).headers;
    expect((await same(t, "/api/auth/me", live)).status).toBe(200);
    time += 366 * 24 * 3600 * 1000;
    try {
      for (const path of ["/api/auth/me", "/api/tracks"]) expect((await same(t, path, live)).status).toBe(401);
    } finally {
      time -= 366 * 24 * 3600 * 1000;
    }
  });

  it("keeps /api/auth/me open in maintenance and /api/tracks closed to all but administrators", async () => {
    const user = await createUser(closed.ctx.db);
    const { headers } = await signIn(closed.ctx, user);
    expect((await same(closed, "/api/auth/me", headers)).status).toBe(200);
    const list = await same(closed, "/api/tracks", headers);
    expect(list.status).toBe(503);
    expect(list.body.maintenance).toBe(true);
    const admin = await createUser(closed.ctx.db, { is_admin: true });
    expect((await same(closed, "/api/tracks", (await signIn(closed.ctx, admin)).headers)).status).toBe(200);
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks, users } from "../../db/schema.ts";
import { signDownloadToken } from "../tracks/downloads/token.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, linkSignerOf, signIn } from "../testing/factories.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";
import { MAINTENANCE_MESSAGE } from "./gate.ts";

let t: TestApp;
let artist: Awaited<ReturnType<typeof signIn>>;
let moderator: Awaited<ReturnType<typeof signIn>>;
let admin: Awaited<ReturnType<typeof signIn>>;
let adminId: number;
let moderatorId: number;
beforeAll(async () => {
  t = await createTestApp({ env: { MAINTENANCE_MODE: "true" } });
  artist = await signIn(t.ctx, await createUser(t.ctx.db));
  const mod = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "*" });
  moderatorId = mod.id;
  moderator = await signIn(t.ctx, mod);
  const adm = await createUser(t.ctx.db, { is_admin: true });
  adminId = adm.id;
  admin = await signIn(t.ctx, adm);
});
afterAll(() => t.close());

const call = async (path: string, init: RequestInit = {}) => {
  const res = await t.app.request(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
};
const json = (headers: Record<string, string>, method: string, body: unknown): RequestInit => ({
  method,
  headers: { ...headers, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
const closed = { success: false, error: MAINTENANCE_MESSAGE, maintenance: true };

describe("MAINTENANCE_MODE=true", () => {
  it("refuses an artist's upload with 503 and the maintenance text, and stores nothing", async () => {
    const { res, body } = await postUpload(t, artist.headers, [
      filePart("Maint - Closed.mp3", fixture(FIXTURES.amen)),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(503);
    expect(body).toEqual(closed);
    expect(await t.ctx.db.select().from(tracks).where(eq(tracks.filename, "Maint - Closed.mp3"))).toEqual([]);
  });

  it("answers every other call of anyone but an administrator with 503", async () => {
    const cases: [string, RequestInit][] = [
      ["/api/faq", {}],
      ["/api/slider", {}],
      ["/api/nope", {}],
      ["/api/tracks", { headers: artist.headers }],
      ["/api/track_ids", { headers: artist.headers }],
      ["/api/errors", { headers: artist.headers }],
      ["/api/profile/update", json(artist.headers, "POST", { city: "Тверь" })],
      ["/api/moderator/tracks", { headers: moderator.headers }],
      ["/api/moderator/status", { headers: moderator.headers }],
      ["/api/admin/tracks", { headers: moderator.headers }],
      ["/api/admin/tracks", {}],
    ];
    for (const [path, init] of cases) {
      const r = await call(path, init);
      expect(r.status, `${init.method ?? "GET"} ${path}`).toBe(503);
      expect(r.body).toEqual(closed);
    }
  });

  it("lets an administrator work as usual, uploads included", async () => {
    const up = await postUpload(t, admin.headers, [
      filePart("Maint - Admin.mp3", fixture(FIXTURES.amen)),
      dirPart("label_koster"),
    ]);
    expect(up.res.status).toBe(200);
    expect(up.body.track_ids).toHaveLength(1);
    for (
      const path of ["/api/faq", "/api/tracks", "/api/admin/tracks", "/api/moderator/tracks", "/api/admin/dashboard"]
    ) {
      expect((await call(path, { headers: admin.headers })).status, path).toBe(200);
    }
    expect((await call("/api/admin/faq", json(admin.headers, "POST", { question: "Когда?", answer: "Скоро." }))).status)
      .toBe(201);
    // An administrator's own mistakes are still theirs to see, not the maintenance text.
    expect((await call("/api/admin/tracks/999999", { headers: admin.headers })).status).toBe(404);
  });

  it("keeps open what the maintenance screen and an administrator's sign-in need", async () => {
    const config = await call("/api/config");
    expect(config.status).toBe(200);
    expect(config.body.maintenance).toBe(true);
    expect((await call("/api/health")).status).toBe(200);
    expect((await call("/api/auth/oauth/urls")).status).toBe(200);
    // The sign-in calls answer as they always do: here with their own refusals, not the maintenance text.
    const tg = await call("/api/auth/oauth/telegram/complete", json({}, "POST", {}));
    expect(tg.status).toBe(400);
    const vk = await t.app.request("/api/auth/oauth/vk/callback");
    expect(vk.status).toBe(302);
    expect(new URL(vk.headers.get("location")!).searchParams.get("error")).toBeTruthy();
    // The page exchanges the VK callback's login code (decision 0202): here an unknown one.
    const code = await call("/api/auth/oauth/login-code", json({}, "POST", { login_code: "x".repeat(43) }));
    expect(code.status).toBe(401);

    // An artist learns who they are (the client then shows the maintenance screen) and keeps the session.
    const me = await call("/api/auth/me", { headers: artist.headers });
    expect(me.status).toBe(200);
    expect(me.body.user.is_admin).toBe(false);
    const renewed = await call("/api/auth/refresh", {
      method: "POST",
      headers: { Authorization: `Bearer ${artist.refresh_token}` },
    });
    expect(renewed.status).toBe(200);
    const bye = await signIn(t.ctx, await createUser(t.ctx.db));
    expect((await call("/api/auth/logout", { method: "POST", headers: bye.headers })).status).toBe(200);
  });

  it("answers a dead token with 401, so the client renews it instead of showing maintenance to an admin", async () => {
    const r = await call("/api/admin/tracks", { headers: { Authorization: "Bearer expired-or-forged" } });
    expect(r.status).toBe(401);
    const banned = await createUser(t.ctx.db, { is_admin: true });
    const bannedHeaders = (await signIn(t.ctx, banned)).headers;
    await t.ctx.db.update(users).set({ is_banned: true, ban_reason: "Спам" }).where(eq(users.id, banned.id));
    const b = await call("/api/admin/tracks", { headers: bannedHeaders });
    expect(b.status).toBe(403);
    expect(b.body.ban_reason).toBe("Спам");
  });

  it("serves an administrator's download link and refuses a moderator's", async () => {
    const track = await createTrack(t.ctx.db, { directions: "label_koster" });
    const byAdmin = await call(
      `/api/downloads/${await signDownloadToken(t.ctx, await linkSignerOf(t.ctx, adminId), [track.id])}`,
    );
    // The track has no file: the download route itself answered.
    expect(byAdmin.status).toBe(404);
    const byModerator = await call(
      `/api/downloads/${await signDownloadToken(t.ctx, await linkSignerOf(t.ctx, moderatorId), [track.id])}`,
    );
    expect(byModerator.status).toBe(503);
    expect((await call("/api/downloads/forged")).status).toBe(503);
  });

  it("serves an administrator's listening link and refuses a moderator's and a download link there", async () => {
    const track = await createTrack(t.ctx.db, { directions: "label_koster" });
    const byAdmin = await call(
      `/api/listen/${await signDownloadToken(t.ctx, await linkSignerOf(t.ctx, adminId), [track.id], "listen")}`,
    );
    // The track has no file: the listening route itself answered.
    expect(byAdmin.status).toBe(404);
    const byModerator = await call(
      `/api/listen/${await signDownloadToken(t.ctx, await linkSignerOf(t.ctx, moderatorId), [track.id], "listen")}`,
    );
    expect(byModerator.status).toBe(503);
    expect(
      (await call(`/api/listen/${await signDownloadToken(t.ctx, await linkSignerOf(t.ctx, adminId), [track.id])}`))
        .status,
    ).toBe(503);
  });
});

describe("MAINTENANCE_MODE off", () => {
  it("leaves the API open", async () => {
    const open = await createTestApp();
    try {
      const user = await signIn(open.ctx, await createUser(open.ctx.db));
      const up = await postUpload(open, user.headers, [
        filePart("Maint - Open.mp3", fixture(FIXTURES.amen)),
        dirPart("label_koster"),
      ]);
      expect(up.res.status).toBe(200);
      expect((await open.app.request("/api/faq")).status).toBe(200);
      await open.ctx.queue.idle();
    } finally {
      await open.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { signDownloadToken } from "../tracks/downloads/token.ts";

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  await Deno.mkdir(t.ctx.clientDistDir, { recursive: true });
  await Deno.writeTextFile(`${t.ctx.clientDistDir}/index.html`, "<!doctype html><div id=root></div>");
  await Deno.writeTextFile(`${t.ctx.staticDir}/storage/a.txt`, "public");
  headers = (await signIn(t.ctx, await createUser(t.ctx.db))).headers;
});
afterAll(() => t.close());

describe("Permissions-Policy", () => {
  it("is on every answer: pages, files, API answers and errors", async () => {
    const answers = [
      await t.app.request("/"),
      await t.app.request("/about"),
      await t.app.request("/static/storage/a.txt"),
      await t.app.request("/api/config"),
      await t.app.request("/api/nope"),
      await t.app.request("/api/auth/me"),
      await t.app.request("/api/tracks", { headers }),
    ];
    for (const res of answers) {
      const policy = res.headers.get("permissions-policy") ?? "";
      for (const off of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"]) {
        expect(policy, res.url).toContain(off);
      }
      // The home page's SoundCloud player asks for autoplay.
      expect(policy).toContain('autoplay=(self "https://w.soundcloud.com")');
      await res.body?.cancel();
    }
  });
});

describe("Cache-Control on authenticated API answers", () => {
  it("is no-store for every answer to a request with a bearer token, errors included", async () => {
    const requests: [string, RequestInit][] = [
      ["/api/tracks", { headers }],
      ["/api/profile", { headers }],
      ["/api/status/999999", { headers }],
      ["/api/admin/tracks", { headers }],
      ["/api/nope", { headers }],
      ["/api/faq", { headers }],
      ["/api/tracks", { headers: { Authorization: "Bearer expired-or-forged" } }],
      ["/api/profile", { method: "PUT", headers: { ...headers, "Content-Type": "application/json" }, body: "{bad" }],
    ];
    for (const [path, init] of requests) {
      const res = await t.app.request(path, init);
      expect(res.headers.get("cache-control"), `${init.method ?? "GET"} ${path} ${res.status}`).toBe("no-store");
      await res.body?.cancel();
    }
  });

  it("is no-store for a download link and for tokens in the address", async () => {
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const track = await createTrack(t.ctx.db);
    const link = await t.app.request(`/api/downloads/${await signDownloadToken(t.ctx, admin.id, [track.id])}`);
    expect(link.status).toBe(404);
    expect(link.headers.get("cache-control")).toBe("no-store");
    const bad = await t.app.request("/api/downloads/not-a-token?access_token=x");
    expect(bad.headers.get("cache-control")).toBe("no-store");
    await link.body?.cancel();
    await bad.body?.cancel();
  });

  it("leaves anonymous public answers alone", async () => {
    const res = await t.app.request("/api/faq");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBeNull();
  });
});

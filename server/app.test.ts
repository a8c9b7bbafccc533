import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./testing/create-test-app.ts";
import { createUser, signIn } from "./testing/factories.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await Deno.mkdir(t.ctx.clientDistDir, { recursive: true });
  await Deno.mkdir(`${t.ctx.clientDistDir}/assets`, { recursive: true });
  await Deno.writeTextFile(`${t.ctx.clientDistDir}/index.html`, "<!doctype html><div id=root></div>");
  await Deno.writeTextFile(`${t.ctx.clientDistDir}/assets/app-abc123.js`, "console.log(1)");
  await Deno.writeTextFile(`${t.ctx.staticDir}/storage/a.txt`, "public");
});
afterAll(() => t.close());

describe("foundation", () => {
  it("reports health of the database and the status store", async () => {
    const res = await t.app.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, db: "ok", kv: "ok" });
  });

  it("answers 503 naming what failed when the status store is down", async () => {
    const ping = t.ctx.kv.ping;
    t.ctx.kv.ping = () => Promise.resolve(false);
    try {
      const res = await t.app.request("/api/health");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ success: false, db: "ok", kv: "error" });
    } finally {
      t.ctx.kv.ping = ping;
    }
  });

  it("exposes the public runtime config", async () => {
    const body = await (await t.app.request("/api/config")).json();
    expect(body.maintenance).toBe(false);
    expect(body.providers).toEqual({ vk: false, telegram: false });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await t.app.request("/api/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ success: false, error: "Не найдено" });
  });

  it("answers a wrong method on a known path with 405", async () => {
    const res = await t.app.request("/api/health", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect((await res.json()).success).toBe(false);
  });

  it("serves index.html with no-cache for app paths and unknown paths", async () => {
    for (const path of ["/", "/about", "/some/unknown/path"]) {
      const res = await t.app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toContain("<div id=root>");
    }
  });

  it("serves hashed assets as immutable and public uploads from /static", async () => {
    const asset = await t.app.request("/assets/app-abc123.js");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const up = await t.app.request("/static/storage/a.txt");
    expect(await up.text()).toBe("public");
    await Deno.writeTextFile(`${t.ctx.staticDir}/storage/.secret`, "x");
    expect((await t.app.request("/static/storage/.secret")).status).toBe(404);
    expect((await t.app.request("/static/storage/%2e%2e%2f%2e%2e%2fapp.db")).status).toBe(404);
  });

  it("sends secure headers with a CSP", async () => {
    const res = await t.app.request("/");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("issues tokens for a session", async () => {
    const user = await createUser(t.ctx.db);
    const { access_token } = await signIn(t.ctx, user);
    const found = await t.ctx.tokens.authenticate(access_token);
    expect(found?.user.id).toBe(user.id);
  });
});

describe("malformed input", () => {
  it("answers a broken JSON body with a Russian 400, not Hono's English text", async () => {
    const user = await createUser(t.ctx.db, { is_admin: true });
    const target = await createUser(t.ctx.db);
    const res = await t.app.request(`/api/admin/users/${target.id}/ban`, {
      method: "POST",
      headers: { ...(await signIn(t.ctx, user)).headers, "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, error: "Некорректный JSON в теле запроса" });
  });
});

describe("request limits", () => {
  it("answers 413 in JSON for an oversized JSON body", async () => {
    const res = await t.app.request("/api/health", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ x: "a".repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, error: "Слишком большой запрос" });
  });
});

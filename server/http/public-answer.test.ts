import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { cachedJson } from "./kept-answers.ts";
import { notModified, SHARED_ANSWER_TTL_MS } from "./public-answer.ts";

describe("If-None-Match", () => {
  it("matches weakly, in a list, and with *", () => {
    expect(notModified('W/"abc"', 'W/"abc"')).toBe(true);
    expect(notModified('"abc"', 'W/"abc"')).toBe(true);
    expect(notModified('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(notModified("*", 'W/"abc"')).toBe(true);
    expect(notModified('W/"abd"', 'W/"abc"')).toBe(false);
    expect(notModified(undefined, 'W/"abc"')).toBe(false);
  });
});

describe("cachedJson", () => {
  it("reads once, serves the copy, re-reads after the TTL in the background and at once after invalidate()", async () => {
    let time = 0;
    let value = 1;
    let loads = 0;
    const cache = cachedJson(() => (loads++, Promise.resolve({ value })), { ttlMs: 1000, now: () => time });
    const text = async () => new TextDecoder().decode((await cache.get()).identity);
    expect(await text()).toBe('{"value":1}');
    value = 2;
    time = 999;
    expect(await text()).toBe('{"value":1}');
    expect(loads).toBe(1);
    // Past the TTL: this request still gets the old copy, the next one the reloaded one.
    time = 1001;
    expect(await text()).toBe('{"value":1}');
    // The reload runs in the background: wait for it rather than for a fixed time (10 ms was too
    // short once on a loaded machine).
    await vi.waitFor(async () => expect(await text()).toBe('{"value":2}'));
    expect(loads).toBe(2);
    value = 3;
    cache.invalidate();
    expect(await text()).toBe('{"value":3}');
    expect(loads).toBe(3);
  });

  it("keeps a read that overlapped a write out of the cache", async () => {
    let release!: () => void;
    let value = "old";
    let loads = 0;
    const cache = cachedJson(async () => {
      loads++;
      const seen = value;
      if (loads === 1) await new Promise<void>((r) => (release = r));
      return seen;
    }, { ttlMs: 60_000 });
    const first = cache.get();
    value = "new";
    cache.invalidate();
    release();
    expect(new TextDecoder().decode((await first).identity)).toBe('"old"');
    expect(new TextDecoder().decode((await cache.get()).identity)).toBe('"new"');
    expect(loads).toBe(2);
  });
});

let t: TestApp;
let other: TestApp;
let time = Date.now();
let admin: Record<string, string>;
beforeAll(async () => {
  const clock = { now: () => new Date(time) };
  t = await createTestApp({ clock });
  // A second instance on the same database file, as when several run behind one address.
  other = await createTestApp({ clock, env: { DATABASE_URL: t.ctx.config.databaseUrl } });
  admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
});
afterAll(async () => {
  await other.close();
  await t.close();
});

describe("public answers (GET /api/config, /api/faq, /api/slider)", () => {
  it("carry an ETag and answer 304 to a request that has it, with the security headers", async () => {
    for (const path of ["/api/config", "/api/faq", "/api/slider"]) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("no-cache");
      const etag = res.headers.get("etag")!;
      expect(etag, path).toMatch(/^W\/"[\w-]+"$/);
      const again = await t.app.request(path, { headers: { "If-None-Match": etag } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
      expect(again.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await again.text()).toBe("");
      const stale = await t.app.request(path, { headers: { "If-None-Match": 'W/"other"' } });
      expect(stale.status, path).toBe(200);
      await stale.body?.cancel();
    }
  });

  it("show an admin's FAQ and slider change at once on this instance, and within the TTL on another", async () => {
    const faqBefore = await (await other.app.request("/api/faq")).json();
    const etagBefore = (await t.app.request("/api/faq")).headers.get("etag")!;

    const created = await t.app.request("/api/admin/faq", {
      method: "POST",
      headers: { ...admin, "Content-Type": "application/json" },
      body: JSON.stringify({ question: "Новый вопрос?", answer: "Ответ" }),
    });
    expect(created.status).toBe(201);
    const { faq } = await created.json();

    const res = await t.app.request("/api/faq", { headers: { "If-None-Match": etagBefore } });
    expect(res.status).toBe(200);
    expect((await res.json()).faqs.map((f: { id: number }) => f.id)).toContain(faq.id);

    // The other instance still has its copy until the TTL has passed...
    expect(await (await other.app.request("/api/faq")).json()).toEqual(faqBefore);
    time += SHARED_ANSWER_TTL_MS + 1;
    // ...then the first request past it starts a reload and the next ones see the change.
    await (await other.app.request("/api/faq")).arrayBuffer();
    await new Promise((r) => setTimeout(r, 50));
    const seen = await (await other.app.request("/api/faq")).json();
    expect(seen.faqs.map((f: { id: number }) => f.id)).toContain(faq.id);

    const removed = await t.app.request(`/api/admin/faq/${faq.id}`, { method: "DELETE", headers: admin });
    expect(removed.status).toBe(200);
    expect((await (await t.app.request("/api/faq")).json()).faqs.map((f: { id: number }) => f.id)).not.toContain(
      faq.id,
    );

    const tile = await t.app.request("/api/admin/slider", {
      method: "POST",
      headers: { ...admin, "Content-Type": "application/json" },
      body: JSON.stringify({ tile_type: "track", track_url: "https://soundcloud.com/neuropunk/x" }),
    });
    expect(tile.status).toBe(201);
    const { slider } = await tile.json();
    const sliders = (await (await t.app.request("/api/slider")).json()).sliders;
    expect(sliders.map((s: { id: number }) => s.id)).toContain(slider.id);
  });

  it("are compressed for a client that takes it when they are long enough, with Vary", async () => {
    for (let i = 0; i < 8; i++) {
      const res = await t.app.request("/api/admin/faq", {
        method: "POST",
        headers: { ...admin, "Content-Type": "application/json" },
        body: JSON.stringify({ question: `Вопрос ${i}?`, answer: "<p>Длинный ответ. </p>".repeat(20) }),
      });
      expect(res.status).toBe(201);
    }
    const plain = await t.app.request("/api/faq");
    const text = await plain.text();
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    for (const [coding, stream] of [["br", null], ["gzip", "gzip"]] as const) {
      const res = await t.app.request("/api/faq", { headers: { "Accept-Encoding": coding } });
      expect(res.headers.get("content-encoding")).toBe(coding);
      expect(res.headers.get("etag")).toBe(plain.headers.get("etag"));
      const bytes = new Uint8Array(await res.arrayBuffer());
      const decoded = stream
        ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream(stream))).text()
        : new TextDecoder().decode((await import("node:zlib")).brotliDecompressSync(bytes));
      expect(decoded).toBe(text);
    }
  });
});

describe("the ready-answer lane in front of the router", () => {
  it("keeps the maintenance gate: FAQ and slider closed to visitors, config open", async () => {
    const m = await createTestApp({ env: { MAINTENANCE_MODE: "true" } });
    try {
      for (const path of ["/api/faq", "/api/slider"]) {
        const res = await m.app.request(path);
        expect(res.status, path).toBe(503);
        expect((await res.json()).maintenance).toBe(true);
      }
      const config = await m.app.request("/api/config");
      expect(config.status).toBe(200);
      expect((await config.json()).maintenance).toBe(true);
    } finally {
      await m.close();
    }
  });

  it("answers the page shell's 503 while the client is not built, and leaves HEAD bodiless", async () => {
    const res = await t.app.request("/");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("Клиент не собран");
    const head = await t.app.request("/api/faq", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("etag")).toMatch(/^W\//);
    expect(head.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sends signed-in and query-carrying requests through the routes (no-store)", async () => {
    const signedIn = await t.app.request("/api/faq", { headers: admin });
    expect(signedIn.headers.get("cache-control")).toBe("no-store");
    const query = await t.app.request("/api/config?refresh_token=x");
    expect(query.headers.get("cache-control")).toBe("no-store");
    const post = await t.app.request("/api/config", { method: "POST" });
    expect(post.status).toBe(405);
  });
});

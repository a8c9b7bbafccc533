import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, linkSignerOf, signIn } from "../testing/factories.ts";
import { signDownloadToken } from "../tracks/downloads/token.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";

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

/** Answers that are pages or the client's files: the page's security headers. */
const PAGES = ["/", "/about", "/static/storage/a.txt"];
/** `/api` answers that are data: JSON (kept ready, routed, signed in), errors. */
const apiAnswers = (): [
  string,
  RequestInit?,
][] => [["/api/config"], ["/api/faq"], ["/api/nope"], ["/api/auth/me"], ["/api/tracks", { headers }]];

describe("Permissions-Policy", () => {
  it("is on every page and file: the browser features the site never uses are off", async () => {
    for (const path of PAGES) {
      const res = await t.app.request(path);
      const policy = res.headers.get("permissions-policy") ?? "";
      for (const off of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"]) {
        expect(policy, path).toContain(off);
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
    const link = await t.app.request(
      `/api/downloads/${await signDownloadToken(t.ctx, await linkSignerOf(t.ctx, admin), [track.id])}`,
    );
    expect(link.status).toBe(404);
    expect(link.headers.get("cache-control")).toBe("no-store");
    const bad = await t.app.request("/api/downloads/not-a-token?access_token=x");
    expect(bad.headers.get("cache-control")).toBe("no-store");
    await link.body?.cancel();
    await bad.body?.cancel();
  });

  it("leaves anonymous public answers cacheable: revalidated by their ETag, not no-store", async () => {
    const res = await t.app.request("/api/faq");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toMatch(/^W\/"/);
  });
});

describe("the headers every answer gets", () => {
  it("pages and files: exactly those Hono's secureHeaders sets with the site's options", async () => {
    const { Hono } = await import("hono");
    const { secureHeaders } = await import("hono/secure-headers");
    const { CSP, PERMISSIONS_POLICY, SECURITY_HEADERS } = await import("./security-headers.ts");
    const probe = new Hono()
      .use(
        secureHeaders({
          contentSecurityPolicy: CSP,
          crossOriginEmbedderPolicy: false,
          permissionsPolicy: PERMISSIONS_POLICY,
        }),
      )
      .get("/", (c) => c.body(null));
    const expected = [...(await probe.request("/")).headers].sort();
    expect([...new Headers(SECURITY_HEADERS.map(([k, v]): [string, string] => [k, v]))].sort()).toEqual(expected);
    // Each once, whether the answer had none of them (the page shell) or one already (a file, sent
    // with its own nosniff).
    for (const path of PAGES) {
      const res = await t.app.request(path);
      for (const [name, value] of SECURITY_HEADERS) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      expect(res.headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
      await res.body?.cancel();
    }
  });

  it("the Mini App's page (issue 36) may be framed by Telegram Web only; every other page by no one", async () => {
    const tg = await t.app.request("/tg");
    const csp = tg.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'self' https://web.telegram.org");
    expect(tg.headers.get("x-frame-options")).toBeNull();
    await tg.body?.cancel();
    for (const path of ["/", "/profile", "/tgx", "/admin"]) {
      const res = await t.app.request(path);
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      await res.body?.cancel();
    }
  });

  it("API answers: the API's set, each once, and none of a page's policies", async () => {
    const { API_SECURITY_HEADERS, SECURITY_HEADERS } = await import("./security-headers.ts");
    const apiNames = new Set(API_SECURITY_HEADERS.map(([k]) => k.toLowerCase()));
    const pageOnly = SECURITY_HEADERS.map(([k]) => k.toLowerCase()).filter((k) => !apiNames.has(k));
    expect(pageOnly).toEqual(
      expect.arrayContaining(["permissions-policy", "cross-origin-opener-policy", "x-xss-protection"]),
    );
    for (const [path, init] of apiAnswers()) {
      const res = await t.app.request(path, init);
      for (const [name, value] of API_SECURITY_HEADERS) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      for (const name of pageOnly) expect(res.headers.get(name), `${path} ${name}`).toBeNull();
      expect(res.headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
      await res.body?.cancel();
    }
    const signedIn = await t.app.request("/api/tracks", { headers });
    expect(signedIn.headers.get("cache-control")).toBe("no-store");
    await signedIn.body?.cancel();
  });

  it("the status poll's lane, the listening stream and a routed 304: the API's set too", async () => {
    const { API_SECURITY_HEADERS } = await import("./security-headers.ts");
    const artist = (await signIn(t.ctx, await createUser(t.ctx.db))).headers;
    const admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
    const up = await postUpload(t, artist, [
      filePart("Headers - Poll.mp3", fixture(FIXTURES.mono)),
      dirPart("label_koster"),
    ]);
    const id = up.body.track_ids[0];
    await t.ctx.queue.idle();
    const listen = await (await t.app.request(`/api/admin/tracks/${id}/listen`, { headers: admin })).json();
    const faq = await t.app.request("/api/faq?routed=1");
    const etag = faq.headers.get("etag")!;
    await faq.body?.cancel();
    const answers: [string, Response, number][] = [
      ["status poll", await t.app.request(`/api/status/${id}`, { headers: artist }), 200],
      ["listening range", await t.app.request(listen.stream_url, { headers: { Range: "bytes=0-99" } }), 206],
      ["routed 304", await t.app.request("/api/faq?routed=1", { headers: { "If-None-Match": etag } }), 304],
    ];
    for (const [what, res, status] of answers) {
      expect(res.status, what).toBe(status);
      for (const [name, value] of API_SECURITY_HEADERS) expect(res.headers.get(name), `${what} ${name}`).toBe(value);
      expect(res.headers.get("permissions-policy"), what).toBeNull();
      expect(res.headers.get("x-request-id"), what).toMatch(/^[0-9a-f-]{36}$/);
      await res.body?.cancel();
    }
    expect(answers[0][1].headers.get("cache-control")).toBe("no-store");
    expect(answers[1][1].headers.get("cache-control")).toBe("no-store");
  });

  it("an HTML answer gets the page's set, under /api too", async () => {
    const { Hono } = await import("hono");
    const { edgeHeaders } = await import("./edge-middleware.ts");
    const { securityHeaderSet, SECURITY_HEADERS } = await import("./security-headers.ts");
    const app = new Hono()
      .use(edgeHeaders(securityHeaderSet([])))
      .get("/api/page", (c) => c.html("<p>page</p>"))
      .get("/api/upper", (c) => c.body("<p>page</p>", 200, { "Content-Type": "Text/HTML; charset=UTF-8" }))
      .get(
        "/api/svg",
        (c) => c.body("<svg xmlns='http://www.w3.org/2000/svg'/>", 200, { "Content-Type": "image/svg+xml" }),
      )
      .get("/api/data", (c) => c.json({ ok: true }));
    // Anything that is not data a browser never runs gets the page's policy, whatever its spelling.
    for (const path of ["/api/page", "/api/upper", "/api/svg"]) {
      const page = await app.request(path);
      for (const [name, value] of SECURITY_HEADERS) expect(page.headers.get(name), `${path} ${name}`).toBe(value);
    }
    const data = await app.request("/api/data");
    expect(data.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(data.headers.get("permissions-policy")).toBeNull();
  });

  it("a page may send resumable upload parts to the bucket's origin (connect-src), and only with S3", async () => {
    const { Hono } = await import("hono");
    const { edgeHeaders } = await import("./edge-middleware.ts");
    const { securityHeaderSet } = await import("./security-headers.ts");
    const { bucketOrigins } = await import("./public-static.ts");
    const csp = async (s3?: { endpoint?: string; bucket: string; region: string }) => {
      const app = new Hono().use(edgeHeaders(securityHeaderSet([], bucketOrigins({ s3 })))).get(
        "/",
        (c) => c.html("<p/>"),
      );
      const res = await app.request("/");
      return /connect-src ([^;]*)/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    };
    expect(await csp()).toBe("'self'");
    expect(await csp({ endpoint: "https://acc.r2.cloudflarestorage.com/", bucket: "b", region: "auto" })).toBe(
      "'self' https://acc.r2.cloudflarestorage.com",
    );
    expect(await csp({ bucket: "np-tracks", region: "eu-central-1" })).toBe(
      "'self' https://np-tracks.s3.eu-central-1.amazonaws.com",
    );
  });

  it("carry a request id: the caller's when it is safe, a new one otherwise", async () => {
    const given = await t.app.request("/api/config", { headers: { "X-Request-Id": "abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("abc-123");
    const unsafe = await t.app.request("/api/config", { headers: { "X-Request-Id": "a b<script>" } });
    expect(unsafe.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const a = (await t.app.request("/api/nope")).headers.get("x-request-id");
    const b = (await t.app.request("/")).headers.get("x-request-id");
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it("no-store also for tokens in the address spelled with escapes", async () => {
    const res = await t.app.request("/api/faq?access%5Ftoken=x");
    expect(res.headers.get("cache-control")).toBe("no-store");
    await res.body?.cancel();
  });
});

describe("Accept-Encoding", () => {
  it("is read as RFC 9110 says: names and q in any case, q=0 refuses, * covers what is not named", async () => {
    const { accepts } = await import("./edge-middleware.ts");
    const cases: [string | null, string, boolean][] = [
      ["gzip, deflate, br, zstd", "br", true],
      ["GZIP", "gzip", true],
      ["Br;Q=0.5, gzip", "br", true],
      ["br;q=0, gzip", "br", false],
      ["br;Q=0", "br", false],
      ["*", "gzip", true],
      ["*;q=0", "gzip", false],
      ["*, gzip;q=0", "gzip", false],
      ["gzip;q=0.8, *;q=0", "gzip", true],
      ["deflate", "gzip", false],
      ["xgzip", "gzip", false],
      ["", "gzip", false],
      [null, "gzip", false],
    ];
    for (const [header, coding, expected] of cases) {
      expect(accepts(header, coding), `${header} ${coding}`).toBe(expected);
    }
  });

  it("a client that sends GZIP in capitals gets the gzip copy of a public answer", async () => {
    const admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
    const created = await t.app.request("/api/admin/faq", {
      method: "POST",
      headers: { ...admin, "Content-Type": "application/json" },
      body: JSON.stringify({
        question: "Как прислать трек?",
        answer: "Загрузите MP3 с именем «Артист - Название». ".repeat(30),
      }),
    });
    expect(created.status).toBe(201);
    const res = await t.app.request("/api/faq", { headers: { "Accept-Encoding": "GZIP" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    await res.body?.cancel();
  });
});

describe("compression of JSON answers", () => {
  it("gzips a long answer for a client that takes gzip, and leaves short ones and other clients alone", async () => {
    const { COMPRESS_JSON_MIN } = await import("./edge-middleware.ts");
    const user = await createUser(t.ctx.db);
    const auth = (await signIn(t.ctx, user)).headers;
    for (let i = 0; i < 40; i++) {
      await createTrack(t.ctx.db, {
        user_id: user.id,
        filename: `Long Artist Name ${i} - Long Title Of The Track ${i}.mp3`,
      });
    }
    const plain = await t.app.request("/api/tracks", { headers: auth });
    const text = await plain.text();
    expect(text.length).toBeGreaterThanOrEqual(COMPRESS_JSON_MIN);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");

    const gz = await t.app.request("/api/tracks", { headers: { ...auth, "Accept-Encoding": "br;q=0.9, gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("content-type")).toBe("application/json");
    expect(gz.headers.get("cache-control")).toBe("no-store");
    const unzipped = await new Response(gz.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    expect(JSON.parse(unzipped)).toEqual(JSON.parse(text));

    const refused = await t.app.request("/api/tracks", { headers: { ...auth, "Accept-Encoding": "gzip;q=0" } });
    expect(refused.headers.get("content-encoding")).toBeNull();
    await refused.body?.cancel();

    const small = await t.app.request("/api/track_ids", { headers: { ...auth, "Accept-Encoding": "gzip" } });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.json()).toHaveProperty("track_ids");
  });
});

describe("the headers through a real Deno.serve", () => {
  // Deno may prepare a response for the wire when it is made; the headers added after must still go out.
  it("are on the wire, each once, for JSON, kept-ready, file and page answers", async () => {
    const { API_SECURITY_HEADERS, SECURITY_HEADERS } = await import("./security-headers.ts");
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, t.app.fetch);
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      for (const path of ["/api/config", "/api/faq", "/", "/static/storage/a.txt", "/api/nope", "/api/auth/me"]) {
        const res = await fetch(base + path, { headers: { "Accept-Encoding": "br, gzip" } });
        await res.arrayBuffer();
        const expected = path.startsWith("/api/") ? API_SECURITY_HEADERS : SECURITY_HEADERS;
        for (const [name, value] of expected) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
        expect(res.headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
        // Each once on the wire: a name sent twice would read as "a, b".
        expect([...res.headers].filter(([k]) => k === "content-security-policy"), path).toHaveLength(1);
      }
    } finally {
      await server.shutdown();
    }
  });
});

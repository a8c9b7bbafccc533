import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { type User, users } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { LaneError, planLanes } from "./lanes.ts";

/**
 * The lanes in front of the router (server/http/lanes.ts; decisions 0180, 0186, 0188, 0208) must give
 * exactly the router's answer. Every lane is asked for every case (who asks: no token, a bad, a
 * non-bearer or an expired one, the owner, another user, staff, demoted staff, a banned owner; how:
 * HEAD, a query string, a trailing slash, If-None-Match, each Accept-Encoding, with and without a
 * usable X-Request-Id; odd ids for the status poll), with maintenance off and on, once through the
 * app (lanes first) and once through the router alone (`app.routed`), and the status, the body and
 * every header are compared.
 */

const DAY = 24 * 3600 * 1000;
let time = Date.parse("2026-11-20T12:00:00Z");
const clock = { now: () => new Date(time) };

type Who = {
  name: string;
  headers: () => Record<string, string>;
  /** The track this caller polls (their own, if they have one). */
  track?: number;
  /** Milliseconds the clock moves for this caller's requests (an expired token). */
  shift?: number;
};

interface Fixture {
  t: TestApp;
  artistTrack: number;
  whos: Who[];
  artist: User;
}

async function fixture(env: Record<string, string>): Promise<Fixture> {
  const t = await createTestApp({ clock, env });
  // A built client with its compressed copies, so the page shell is answered from memory.
  const html = `<!doctype html><meta charset=utf-8><title>Нейропанк</title><div id=root></div>${
    "<!-- padding -->".repeat(80)
  }`;
  await Deno.mkdir(`${t.dir}/dist`, { recursive: true });
  await Deno.writeTextFile(`${t.dir}/dist/index.html`, html);
  await Deno.writeFile(`${t.dir}/dist/index.html.br`, brotliCompressSync(new TextEncoder().encode(html)));
  await Deno.writeFile(`${t.dir}/dist/index.html.gz`, gzipSync(new TextEncoder().encode(html)));

  const db = t.ctx.db;
  const artist = await createUser(db, { first_name: "Лейн", city: "Москва" });
  const keyed = await createTrack(db, {
    user_id: artist.id,
    filename: "Lane - One.mp3",
    directions: "label_koster",
    status: "processing",
  });
  await t.ctx.processing.status.startBatch(artist.id, [keyed]);
  // One without a status key: the routes answer it from the database.
  const unkeyed = await createTrack(db, { user_id: artist.id, filename: "Lane - Two.mp3", directions: "label_koster" });
  const other = await createUser(db);
  const moderator = await createUser(db, { is_moderator: true, moderator_categories: "label_koster" });
  const demotedModerator = await createUser(db, { is_moderator: true, moderator_categories: "label_koster" });
  const admin = await createUser(db, { is_admin: true });
  const demotedAdmin = await createUser(db, { is_admin: true });
  const banned = await createUser(db);
  const bannedTrack = await createTrack(db, { user_id: banned.id, directions: "label_koster", status: "completed" });
  await t.ctx.processing.status.startBatch(banned.id, [bannedTrack]);
  const expired = await createUser(db);
  // Banned by another instance: the row says banned, this instance's sessions were not revoked.
  const bannedElsewhere = await createUser(db);
  const bannedElsewhereTrack = await createTrack(db, {
    user_id: bannedElsewhere.id,
    directions: "label_koster",
    status: "completed",
  });
  await t.ctx.processing.status.startBatch(bannedElsewhere.id, [bannedElsewhereTrack]);

  const tokens = new Map<number, Record<string, string>>();
  for (const u of [artist, other, moderator, demotedModerator, admin, demotedAdmin, banned, expired, bannedElsewhere]) {
    tokens.set(u.id, (await signIn(t.ctx, u)).headers);
  }
  // Signed in as staff, then demoted; banned after signing in.
  await t.ctx.users.update(demotedModerator.id, { is_moderator: false, moderator_categories: "" });
  await t.ctx.users.update(demotedAdmin.id, { is_admin: false });
  await t.ctx.users.ban(banned.id, "спам");
  await db.update(users).set({ is_banned: true, ban_reason: "спам" }).where(eq(users.id, bannedElsewhere.id));
  t.ctx.tokens.forgetUser(bannedElsewhere.id);
  const as = (u: User) => () => tokens.get(u.id)!;
  const whos: Who[] = [
    { name: "no token", headers: () => ({}) },
    { name: "bad token", headers: () => ({ Authorization: "Bearer nonsense" }) },
    { name: "not a bearer", headers: () => ({ Authorization: "Basic Zm9vOmJhcg==" }) },
    { name: "expired token", headers: as(expired), shift: 366 * DAY },
    { name: "owner", headers: as(artist), track: keyed.id },
    { name: "owner, no status key", headers: as(artist), track: unkeyed.id },
    { name: "another user", headers: as(other) },
    { name: "moderator", headers: as(moderator) },
    { name: "demoted moderator", headers: as(demotedModerator) },
    { name: "admin", headers: as(admin) },
    { name: "demoted admin", headers: as(demotedAdmin) },
    { name: "banned owner", headers: as(banned), track: bannedTrack.id },
    { name: "owner banned elsewhere", headers: as(bannedElsewhere), track: bannedElsewhereTrack.id },
  ];
  return { t, artistTrack: keyed.id, whos, artist };
}

type Variant = {
  name: string;
  suffix?: string;
  method?: string;
  headers?: Record<string, string>;
  etag?: boolean;
  noRid?: boolean;
};
const VARIANTS: Variant[] = [
  { name: "GET" },
  { name: "HEAD", method: "HEAD" },
  { name: "query", suffix: "?x=1" },
  { name: "token in the query", suffix: "?access_token=x" },
  { name: "trailing slash", suffix: "/" },
  { name: "If-None-Match", etag: true },
  { name: "brotli", headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } },
  { name: "gzip", headers: { "Accept-Encoding": "gzip" } },
  { name: "no X-Request-Id", noRid: true },
  { name: "unusable X-Request-Id", headers: { "X-Request-Id": "not valid!" }, noRid: true },
];

const LANE_PATHS: Record<string, (f: Fixture, who: Who) => string> = {
  "config": () => "/api/config",
  "FAQ": () => "/api/faq",
  "slider": () => "/api/slider",
  "page shell": () => "/",
  "status poll": (f, who) => `/api/status/${who.track ?? f.artistTrack}`,
  "signed-in user": () => "/api/auth/me",
  "artist's tracks": () => "/api/tracks",
};

/**
 * Ids the status poll may be asked for, as the owner: each with whether the lane answers it and the
 * status. A percent-encoded digit is decoded by the router (the owner's track), not by the lane.
 */
const ODD_IDS = (id: number): [string, boolean, number][] => [
  [`00${id}`, true, 200],
  [String(id).padStart(15, "0"), true, 200],
  [String(id).padStart(16, "0"), false, 404],
  ["0", false, 404],
  ["000", false, 404],
  ["999999999999999", false, 404],
  ["9999999999999999", false, 404],
  ["abc", false, 404],
  [`%3${String(id)[0]}${String(id).slice(1)}`, false, 200],
  [`-${id}`, false, 404],
  [`+${id}`, false, 404],
  [`${id}.0`, false, 404],
  [`${id}e0`, false, 404],
  [`${id}%20`, false, 404],
  [`%EF%BC%99`, false, 404], // a full-width 9
];

type Seen = { app: string; lane: string; who: string; variant: string; path: string; status: number; viaLane: boolean };

/** Every header as pairs (Headers iterate sorted by name), without the request id when it is random. */
const headerPairs = (res: Response, noRid: boolean) =>
  [...res.headers].filter(([k]) => !(noRid && k === "x-request-id"));

async function compare(
  f: Fixture,
  label: string,
  laneName: string,
  path: string,
  who: Who,
  variant: Variant,
  seen: Seen[],
) {
  const url = `http://localhost${path}${variant.suffix ?? ""}`;
  const base: Record<string, string> = { ...who.headers(), ...variant.headers };
  if (!variant.noRid) base["X-Request-Id"] = "lane-test-rid";
  const init = () => ({ method: variant.method ?? "GET", headers: { ...base } });
  time += who.shift ?? 0;
  try {
    if (variant.etag) {
      const first = await f.t.app.routed(new Request(url, init()));
      await first.body?.cancel();
      const etag = first.headers.get("etag");
      if (!etag) return;
      base["If-None-Match"] = etag;
    }
    const planned = f.t.app.lanes.find((p) => p.name === laneName)!;
    const spy = vi.spyOn(planned.lane, "answer");
    let lane: Response;
    let viaLane: boolean;
    try {
      lane = await f.t.app.fetch(new Request(url, init()));
      const result = spy.mock.results[0];
      viaLane = result?.type === "return" && (await result.value) !== null;
    } finally {
      spy.mockRestore();
    }
    const routed = await f.t.app.routed(new Request(url, init()));
    const what = `${label} ${laneName} · ${who.name} · ${variant.name} · ${path}${variant.suffix ?? ""}`;
    expect(lane.status, what).toBe(routed.status);
    expect(new Uint8Array(await lane.arrayBuffer()), what).toEqual(new Uint8Array(await routed.arrayBuffer()));
    expect(headerPairs(lane, !!variant.noRid), what).toEqual(headerPairs(routed, !!variant.noRid));
    expect(lane.headers.get("x-request-id"), what).toMatch(/\S/);
    seen.push({ app: label, lane: laneName, who: who.name, variant: variant.name, path, status: lane.status, viaLane });
  } finally {
    time -= who.shift ?? 0;
  }
}

let open: Fixture;
let closed: Fixture;
beforeAll(async () => {
  open = await fixture({});
  closed = await fixture({ MAINTENANCE_MODE: "true" });
});
afterAll(async () => {
  await open.t.close();
  await closed.t.close();
});

describe("the lanes in front of the router", () => {
  it("are found in the router at start-up, with the middlewares the router runs in front of each", () => {
    expect(open.t.app.lanes.map((p) => [p.name, p.pattern, p.front.join(" ")])).toEqual([
      ["config", "/api/config", "edge maintenance bodyLimit"],
      ["FAQ", "/api/faq", "edge maintenance bodyLimit"],
      ["slider", "/api/slider", "edge maintenance bodyLimit"],
      ["page shell", "/*", "edge"],
      ["status poll", "/api/status/:id", "edge maintenance bodyLimit signedIn"],
      ["signed-in user", "/api/auth/me", "edge maintenance bodyLimit signedIn"],
      ["artist's tracks", "/api/tracks", "edge maintenance bodyLimit signedIn"],
    ]);
  });

  it("give the router's answer, byte for byte, to every lane in every case, with maintenance off and on", async () => {
    const seen: Seen[] = [];
    for (const [label, f] of [["open", open], ["maintenance", closed]] as const) {
      for (const laneName of Object.keys(LANE_PATHS)) {
        for (const who of f.whos) {
          for (const variant of VARIANTS) {
            if (variant.suffix === "/" && laneName === "page shell") continue;
            await compare(f, label, laneName, LANE_PATHS[laneName](f, who), who, variant, seen);
          }
        }
      }
      const owner = f.whos.find((w) => w.name === "owner")!;
      for (const [id] of ODD_IDS(f.artistTrack)) {
        await compare(f, label, "status poll", `/api/status/${id}`, owner, VARIANTS[0], seen);
      }
    }
    // Every case was compared (only If-None-Match is skipped where the answer has no ETag).
    const whos = open.whos.length;
    expect(seen.filter((s) => s.variant !== "If-None-Match").length).toBe(
      2 * (7 * whos * (VARIANTS.length - 1) - whos) + 2 * ODD_IDS(1).length,
    );
    const via = (app: string, lane: string, who: string, variant = "GET", path?: string) =>
      seen.find((s) =>
        s.app === app && s.lane === lane && s.who === who && s.variant === variant && (!path || s.path === path)
      );
    // The everyday cases go through the lanes (else this test would compare the router with itself).
    for (const lane of ["config", "FAQ", "slider", "page shell"]) {
      for (const variant of ["GET", "HEAD", "If-None-Match", "brotli", "gzip", "no X-Request-Id"]) {
        expect(via("open", lane, "no token", variant), `${lane} ${variant}`).toMatchObject({ viaLane: true });
      }
    }
    for (const who of ["owner", "another user", "moderator", "demoted moderator", "admin", "demoted admin"]) {
      expect(via("open", "signed-in user", who), who).toMatchObject({ viaLane: true, status: 200 });
      expect(via("open", "artist's tracks", who), who).toMatchObject({ viaLane: true, status: 200 });
    }
    expect(via("open", "status poll", "owner")).toMatchObject({ viaLane: true, status: 200 });
    // With maintenance on: config and /api/auth/me stay open in the lanes; the rest go to the gate.
    expect(via("maintenance", "config", "no token")).toMatchObject({ viaLane: true, status: 200 });
    expect(via("maintenance", "signed-in user", "owner")).toMatchObject({ viaLane: true, status: 200 });
    expect(via("maintenance", "page shell", "no token")).toMatchObject({ viaLane: true, status: 200 });
    for (const lane of ["FAQ", "slider", "status poll", "artist's tracks"]) {
      expect(via("maintenance", lane, "owner"), lane).toMatchObject({ viaLane: false, status: 503 });
      expect(via("maintenance", lane, "admin"), lane).toMatchObject({ viaLane: false, status: 200 });
      expect(via("maintenance", lane, "demoted admin"), lane).toMatchObject({ viaLane: false, status: 503 });
    }
    // Every refusal is the router's own.
    for (const s of seen.filter((s) => s.status >= 400)) {
      expect(s.viaLane, `${s.app} ${s.lane} ${s.who} ${s.variant}`).toBe(false);
    }
    for (const lane of ["status poll", "signed-in user", "artist's tracks"]) {
      expect(via("open", lane, "no token"), lane).toMatchObject({ status: 401 });
      expect(via("open", lane, "bad token"), lane).toMatchObject({ status: 401 });
      expect(via("open", lane, "expired token"), lane).toMatchObject({ status: 401 });
      expect(via("open", lane, "banned owner"), lane).toMatchObject({ status: 403 });
      expect(via("open", lane, "owner banned elsewhere"), lane).toMatchObject({ status: 403 });
    }
    // Another user's, staff's and a demoted moderator's polls are the routes' (the staff's sight, 404).
    expect(via("open", "status poll", "another user")).toMatchObject({ viaLane: false, status: 404 });
    expect(via("open", "status poll", "moderator")).toMatchObject({ viaLane: false, status: 200 });
    expect(via("open", "status poll", "demoted moderator")).toMatchObject({ viaLane: false, status: 404 });
    expect(via("open", "status poll", "owner, no status key")).toMatchObject({ viaLane: false, status: 200 });
    // The id rule is parseId's: leading zeros are the same track, in the lane as in the route (decision 0208).
    for (const [id, inLane, status] of ODD_IDS(open.artistTrack)) {
      expect(via("open", "status poll", "owner", "GET", `/api/status/${id}`), id).toMatchObject({
        viaLane: inLane,
        status,
      });
    }
  });

  it("show a profile change on the next request", async () => {
    const headers = open.whos.find((w) => w.name === "owner")!.headers();
    const city = async () => (await (await open.t.app.request("/api/auth/me", { headers })).json()).user.city;
    expect(await city()).toBe("Москва");
    await open.t.ctx.users.update(open.artist.id, { city: "Казань" });
    expect(await city()).toBe("Казань");
  });
});

describe("the start-up check", () => {
  const check = (routes: typeof open.t.app.routes) => {
    const t = open.t;
    const lanes = t.app.lanes.map((p) => p.lane);
    // The app's own middlewares, named as app.ts names them.
    const named = new Map<unknown, "edge" | "maintenance" | "bodyLimit" | "signedIn">();
    const [edge, gate, limit] = t.app.routes.filter((r) => r.method === "ALL").map((r) => r.handler);
    named.set(edge, "edge").set(gate, "maintenance").set(limit, "bodyLimit").set(t.ctx.guards.user, "signedIn");
    return planLanes(routes, lanes, named, {
      api: t.app.lanes[0].headers,
      document: t.app.lanes[3].headers,
      miniApp: t.app.lanes[3].headers,
    });
  };

  it("passes the app as it is", () => {
    expect(check(open.t.app.routes).map((p) => p.pattern)).toEqual(open.t.app.lanes.map((p) => p.pattern));
  });

  it("stops the app when a middleware nobody reproduces stands in front of a lane", () => {
    const routes = [...open.t.app.routes];
    routes.splice(1, 0, {
      method: "ALL",
      path: "/api/*",
      handler: async (_c: unknown, next: () => Promise<void>) => await next(),
      basePath: "/",
    });
    expect(() => check(routes)).toThrow(LaneError);
    expect(() => check(routes)).toThrow(/lane "config": ALL \/api\/\* runs in front of GET \/api\/config/);
    // One on a single route: only that lane's check fails.
    const one = [...open.t.app.routes];
    const at = one.findIndex((r) => r.path === "/api/tracks" && r.method === "GET");
    one.splice(at, 0, { method: "GET", path: "/api/tracks", handler: () => undefined, basePath: "/" });
    expect(() => check(one)).toThrow(/lane "artist's tracks": GET \/api\/tracks runs in front/);
  });

  it("stops the app when a lane's route is not in the router, or not as the table can answer it", () => {
    const status = open.t.app.lanes.find((p) => p.name === "status poll")!.lane.route;
    expect(() => check(open.t.app.routes.filter((r) => r.handler !== status))).toThrow(
      /lane "status poll": no GET route/,
    );
    const narrowed = open.t.app.routes.map((
      r,
    ) => (r.handler === status ? { ...r, path: "/api/status/:id{[0-9]+}" } : r));
    expect(() => check(narrowed)).toThrow(/neither an exact path nor one ending in \/:id/);
  });

  it("stops the app when a lane's route loses or gains the sign-in guard", () => {
    const guard = open.t.ctx.guards.user;
    const me = open.t.app.lanes.find((p) => p.name === "signed-in user")!.lane.route;
    const meAt = open.t.app.routes.findIndex((r) => r.handler === me);
    expect(() => check(open.t.app.routes.filter((r, i) => !(i === meAt - 1 && r.handler === guard)))).toThrow(
      /lane "signed-in user": the lane checks a session its route \/api\/auth\/me does not ask for/,
    );
    const faq = open.t.app.lanes.find((p) => p.name === "FAQ")!.lane.route;
    const faqAt = open.t.app.routes.findIndex((r) => r.handler === faq);
    const guarded = [...open.t.app.routes];
    guarded.splice(faqAt, 0, { method: "GET", path: "/api/faq", handler: guard, basePath: "/" });
    expect(() => check(guarded)).toThrow(/lane "FAQ": \/api\/faq is behind the sign-in guard/);
  });
});

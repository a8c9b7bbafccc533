/**
 * Issue 12: GET /api/{admin,moderator}/tracks/{id}/listen and the stream its `stream_url` points at,
 * which an `<audio>` element plays: byte ranges, HEAD, 416, the signer checked on every request, and
 * listening never marks a track downloaded.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks } from "../../../db/schema.ts";
import { createTrack, createUser, linkSignerOf, signIn } from "../../testing/factories.ts";
import { AUDIO, audioBytes, type StaffFixture, staffFixture } from "../../testing/staff-test-kit.ts";
import { BAD_LISTEN_LINK, BAD_RANGE, parseRange } from "./listen-routes.ts";
import { LISTEN_TOKEN_TTL_S, signDownloadToken } from "./token.ts";

let f: StaffFixture;
let nowMs = Date.UTC(2025, 5, 1, 12, 0, 0);
const clock = { now: () => new Date(nowMs) };

beforeAll(async () => (f = await staffFixture({ clock, moderatorCategories: "label_koster" })));
afterAll(() => f.close());

const downloaded = async (id: number) =>
  (await f.t.ctx.db.select({ d: tracks.downloaded }).from(tracks).where(eq(tracks.id, id)))[0].d;

/** The stream as the browser asks for it: no Authorization header, only the signed address. */
const get = (url: string, headers: Record<string, string> = {}, method = "GET") =>
  f.t.app.request(url, { method, headers });

/** An analysed track in label_koster with the 320 kbps fixture stored. */
async function analysedTrack() {
  const track = await f.trackWithFile(AUDIO.amen, { directions: "label_koster" });
  await f.t.ctx.processor.analyseOlder();
  await f.t.ctx.queue.idle();
  return track;
}

describe("GET /api/admin|moderator/tracks/:id/listen", () => {
  it("gives the admin a short-lived stream address, the waveform and the length", async () => {
    const track = await analysedTrack();
    const r = await f.call("GET", `/api/admin/tracks/${track.id}/listen`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["duration_s", "expires_in", "peaks", "stream_url", "success"]);
    expect(r.body).toMatchObject({ success: true, expires_in: LISTEN_TOKEN_TTL_S });
    expect(r.body.stream_url).toMatch(/^\/api\/listen\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(r.body.duration_s as number).toBeCloseTo(8, 1);
    const peaks = r.body.peaks as [number, number][];
    expect(peaks).toHaveLength(1000);
    expect(peaks[500][1]).toBeCloseTo(0.5, 1); // a steady -6 dBFS tone
  });

  it("answers a moderator for tracks in their categories and 404 for the rest, like a missing id", async () => {
    const mine = await analysedTrack();
    const foreign = await f.trackWithFile(AUDIO.low, { directions: "label_neuropunk" });
    const ok = await f.call("GET", `/api/moderator/tracks/${mine.id}/listen`, { headers: f.as.moderator });
    expect(ok.status).toBe(200);
    expect((await get(ok.body.stream_url as string)).status).toBe(200);
    for (const id of [foreign.id, 99999999]) {
      const r = await f.call("GET", `/api/moderator/tracks/${id}/listen`, { headers: f.as.moderator });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: "Трек не найден" });
    }
    // The admin sees every category.
    expect((await f.call("GET", `/api/admin/tracks/${foreign.id}/listen`)).status).toBe(200);
  });

  it("is closed to anonymous callers and plain users, on both panels", async () => {
    const track = await analysedTrack();
    for (const panel of ["admin", "moderator"]) {
      expect((await f.call("GET", `/api/${panel}/tracks/${track.id}/listen`, { headers: f.as.anonymous })).status).toBe(
        401,
      );
      expect((await f.call("GET", `/api/${panel}/tracks/${track.id}/listen`, { headers: f.as.plain })).status).toBe(
        403,
      );
    }
    // A moderator is not an admin.
    expect((await f.call("GET", `/api/admin/tracks/${track.id}/listen`, { headers: f.as.moderator })).status).toBe(403);
  });

  it("answers 404 naming the track when it has no file, and no waveform before the analysis", async () => {
    const noFile = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    const r = await f.call("GET", `/api/admin/tracks/${noFile.id}/listen`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: `Файл трека не найден: ${noFile.filename}` });

    const fresh = await f.trackWithFile(AUDIO.low, { directions: "label_koster", duration: 8046 });
    const early = await f.call("GET", `/api/admin/tracks/${fresh.id}/listen`);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ peaks: null, duration_s: 8.046 });
  });
});

describe("the stream", () => {
  let url: string;
  let id: number;
  const bytes = audioBytes(AUDIO.amen);
  beforeAll(async () => {
    id = (await analysedTrack()).id;
    url = (await f.call("GET", `/api/admin/tracks/${id}/listen`)).body.stream_url as string;
  });

  it("serves the whole file to a plain GET, announcing byte ranges", async () => {
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it("answers a Range with 206 and exactly those bytes", async () => {
    const cases: Array<[string, number, number]> = [
      ["bytes=0-0", 0, 0],
      ["bytes=100-199", 100, 199],
      ["bytes=200000-", 200000, bytes.length - 1],
      ["bytes=-500", bytes.length - 500, bytes.length - 1],
      // Past the end is clamped to the end.
      [`bytes=${bytes.length - 10}-${bytes.length + 1000}`, bytes.length - 10, bytes.length - 1],
      // Across the local store's 64 KiB read chunks.
      ["bytes=65000-140000", 65000, 140000],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(url, { Range: range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(res.headers.get("content-length"), range).toBe(String(end - start + 1));
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(res.headers.get("content-type")).toBe("audio/mpeg");
      expect(new Uint8Array(await res.arrayBuffer()), range).toEqual(bytes.subarray(start, end + 1));
    }
  });

  it("answers HEAD with the headers and no body", async () => {
    const whole = await get(url, {}, "HEAD");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(bytes.length));
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect((await whole.arrayBuffer()).byteLength).toBe(0);
    const part = await get(url, { Range: "bytes=10-19" }, "HEAD");
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${bytes.length}`);
  });

  it("answers 416 with the file's length for a range it cannot satisfy", async () => {
    for (
      const range of [
        `bytes=${bytes.length}-`,
        `bytes=${bytes.length + 5}-${bytes.length + 9}`,
        "bytes=-0",
        "bytes=9-3",
        "bytes=abc",
      ]
    ) {
      const res = await get(url, { Range: range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
      expect(await res.json()).toEqual({ success: false, error: BAD_RANGE });
    }
  });

  it("does not mark the track downloaded", async () => {
    await get(url);
    await get(url, { Range: "bytes=0-99" });
    expect(await downloaded(id)).toBe(false);
  });
});

describe("the stream address is a credential", () => {
  it("refuses a forged, altered, expired or download link with 401, and a listening link on the download path", async () => {
    const track = await analysedTrack();
    const url = (await f.call("GET", `/api/admin/tracks/${track.id}/listen`)).body.stream_url as string;
    const token = url.split("/").pop()!;
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...payload, tids: [track.id + 1] })).replace(/=+$/, "")
      .replace(/\+/g, "-").replace(/\//g, "_");
    const download = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, f.admin), [track.id]);
    for (const bad of [`${h}.${forged}.${s}`, `${h}.${p}.${s.slice(0, -2)}xx`, "not-a-token", download]) {
      const res = await get(`/api/listen/${bad}`);
      expect(res.status, bad).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: BAD_LISTEN_LINK });
    }
    // Neither kind of link opens the other's door.
    expect((await get(`/api/downloads/${token}`)).status).toBe(401);

    nowMs += (LISTEN_TOKEN_TTL_S + 1) * 1000;
    try {
      expect((await get(url)).status).toBe(401);
    } finally {
      nowMs -= (LISTEN_TOKEN_TTL_S + 1) * 1000;
    }
    // Within its life the link plays again and again (the player seeks).
    expect((await get(url, { Range: "bytes=0-1" })).status).toBe(206);
  });

  it("is checked against its signer on every request: categories changed, banned or no longer staff 403", async () => {
    const track = await analysedTrack();
    const moderator = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
    const headers = (await signIn(f.t.ctx, moderator)).headers;
    const url = (await f.call("GET", `/api/moderator/tracks/${track.id}/listen`, { headers })).body
      .stream_url as string;
    expect((await get(url)).status).toBe(200);

    // Writes go through the users service, which drops the session cache (decision 0172).
    await f.t.ctx.users.update(moderator.id, { moderator_categories: "podcast_koster" });
    expect((await get(url)).status).toBe(403);
    // A new link after the change follows the new categories.
    const after = (await f.call("GET", `/api/moderator/tracks/${track.id}/listen`, { headers })).status;
    expect(after).toBe(404);
    await f.t.ctx.users.update(moderator.id, { moderator_categories: "label_koster", is_banned: true });
    expect((await get(url)).status).toBe(403);
    await f.t.ctx.users.update(moderator.id, { is_banned: false, is_moderator: false });
    expect((await get(url)).status).toBe(403);

    // A plain user's own signature is worth nothing.
    const plain = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, f.plain), [track.id], "listen");
    expect((await get(`/api/listen/${plain}`)).status).toBe(403);
  });

  it("dies with the session it was made in: a sign-out closes the listening and the download link", async () => {
    const track = await analysedTrack();
    const moderator = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
    const session = await signIn(f.t.ctx, moderator);
    const listen = (await f.call("GET", `/api/moderator/tracks/${track.id}/listen`, { headers: session.headers })).body
      .stream_url as string;
    const download = (await f.call("GET", `/api/moderator/tracks/download/${track.id}`, { headers: session.headers }))
      .body
      .download_url as string;
    expect((await get(listen, { Range: "bytes=0-1" })).status).toBe(206);
    expect((await get(download, {}, "HEAD")).status).toBe(200);

    const out = await f.t.app.request("/api/auth/logout", { method: "POST", headers: session.headers });
    expect(out.status).toBe(200);
    for (const url of [listen, download]) {
      const res = await get(url, { Range: "bytes=0-1" });
      expect(res.status, url).toBe(403);
      expect((await res.json()).success).toBe(false);
    }
    // Another session of the same moderator does not bring them back either.
    await signIn(f.t.ctx, moderator);
    expect((await get(listen)).status).toBe(403);
  });

  it("a link refused after a demotion or a ban stays refused when the rights come back within its life", async () => {
    const track = await analysedTrack();
    for (
      const [away, back] of [
        [{ is_moderator: false }, { is_moderator: true, moderator_categories: "label_koster" }],
        [{ is_banned: true, ban_reason: "Спам" }, { is_banned: false, ban_reason: null }],
      ] as const
    ) {
      const moderator = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
      const session = await signIn(f.t.ctx, moderator);
      const url = (await f.call("GET", `/api/moderator/tracks/${track.id}/listen`, { headers: session.headers })).body
        .stream_url as string;
      expect((await get(url)).status).toBe(200);
      nowMs += 60_000;
      try {
        await f.t.ctx.users.update(moderator.id, away);
        expect((await get(url)).status, JSON.stringify(away)).toBe(403);
        nowMs += 60_000;
        await f.t.ctx.users.update(moderator.id, back);
        // Ten minutes into the link's 30: still dead.
        nowMs += 8 * 60_000;
        expect((await get(url)).status, JSON.stringify(back)).toBe(403);
        // A link made now, after the rights came back, plays (with a session that is still live).
        const live = away.is_moderator === false ? session : await signIn(f.t.ctx, moderator);
        const fresh = await f.call("GET", `/api/moderator/tracks/${track.id}/listen`, { headers: live.headers });
        expect(fresh.status).toBe(200);
        expect((await get(fresh.body.stream_url as string)).status).toBe(200);
      } finally {
        nowMs -= 10 * 60_000;
      }
    }
  });

  it("answers 404 when the file is gone from storage", async () => {
    const track = await analysedTrack();
    const url = (await f.call("GET", `/api/admin/tracks/${track.id}/listen`)).body.stream_url as string;
    await f.t.ctx.storage.delete(track.storage_key!);
    for (const [headers, method] of [[{}, "GET"], [{ Range: "bytes=100-" }, "GET"], [{}, "HEAD"]] as const) {
      const res = await get(url, headers, method);
      expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(404);
      if (method === "GET") {
        expect(await res.json()).toEqual({ success: false, error: `Файл трека не найден: ${track.filename}` });
      }
    }
  });

  it("serves a seek with one storage request: the size comes from the row, not from a stat", async () => {
    const track = await analysedTrack();
    const url = (await f.call("GET", `/api/admin/tracks/${track.id}/listen`)).body.stream_url as string;
    const bytes = audioBytes(AUDIO.amen);
    const storage = f.t.ctx.storage;
    const stat = storage.stat;
    let stats = 0;
    storage.stat = (key) => {
      stats++;
      return stat.call(storage, key);
    };
    try {
      const res = await get(url, { Range: "bytes=1000-1999" });
      expect(res.status).toBe(206);
      expect(res.headers.get("content-range")).toBe(`bytes 1000-1999/${bytes.length}`);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));
      expect(stats, "no stat for a GET").toBe(0);
    } finally {
      storage.stat = stat;
    }
  });
});

describe("parseRange", () => {
  it("reads one bytes range, gives the whole file for none, several or another unit", () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: "whole" });
    expect(parseRange("items=0-5", 100)).toEqual({ kind: "whole" });
    expect(parseRange("bytes=0-5, 10-15", 100)).toEqual({ kind: "whole" });
    expect(parseRange("bytes=5-", 100)).toEqual({ kind: "part", start: 5, end: 99 });
    expect(parseRange("bytes = 5-9", 100)).toEqual({ kind: "part", start: 5, end: 9 });
    expect(parseRange("bytes=-150", 100)).toEqual({ kind: "part", start: 0, end: 99 });
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=1.5-2", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange(`bytes=${"9".repeat(30)}-`, 100)).toEqual({ kind: "unsatisfiable" });
  });
});

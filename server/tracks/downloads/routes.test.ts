import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks } from "../../../db/schema.ts";
import { createTrack, createUser, linkSignerOf, signIn } from "../../testing/factories.ts";
import { AUDIO, audioBytes, type StaffFixture, staffFixture } from "../../testing/staff-test-kit.ts";
import { contentDisposition, uniqueNames } from "./routes.ts";
import { DOWNLOAD_TOKEN_TTL_S, signDownloadToken } from "./token.ts";

let f: StaffFixture;
let nowMs = Date.UTC(2025, 5, 1, 12, 0, 0);
const clock = { now: () => new Date(nowMs) };

beforeAll(async () => (f = await staffFixture({ clock })));
afterAll(() => f.close());

const downloaded = async (id: number) =>
  (await f.t.ctx.db.select({ d: tracks.downloaded }).from(tracks).where(eq(tracks.id, id)))[0].d;

const fetchFile = (url: string, headers: Record<string, string> = {}) => f.t.app.request(url, { headers });

describe("download links", () => {
  it("GET /api/admin/tracks/download/:id gives a link that serves the MP3 byte for byte and marks it downloaded", async () => {
    const track = await f.trackWithFile(AUDIO.amen);
    const r = await f.call("GET", `/api/admin/tracks/download/${track.id}`);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const url = r.body.download_url as string;
    expect(url).toMatch(/^\/api\/downloads\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await downloaded(track.id)).toBe(false);

    // The client appends access_token; it is accepted and not needed (no Authorization header here).
    const res = await fetchFile(`${url}?access_token=whatever`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("content-length")).toBe(String(audioBytes(AUDIO.amen).length));
    expect(res.headers.get("content-disposition")).toContain(encodeURIComponent(AUDIO.amen));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(audioBytes(AUDIO.amen));
    expect(await downloaded(track.id)).toBe(true);
    // The same link works again while it is fresh (a browser may retry).
    expect((await fetchFile(url)).status).toBe(200);
  });

  it("POST /api/admin/tracks/download streams a stored ZIP holding both MP3s byte for byte", async () => {
    const one = await f.trackWithFile(AUDIO.amen, { filename: "Артист - Трек.mp3" });
    const two = await f.trackWithFile(AUDIO.low);
    const r = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [one.id, String(two.id)] } });
    expect(r.status).toBe(200);
    const res = await fetchFile(r.body.download_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="tracks-.*\.zip"/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual([AUDIO.low, "Артист - Трек.mp3"].sort());
    expect(files["Артист - Трек.mp3"]).toEqual(audioBytes(AUDIO.amen));
    expect(files[AUDIO.low]).toEqual(audioBytes(AUDIO.low));
    // Stored, not compressed: the archive is the files plus headers.
    expect(bytes.length).toBeGreaterThan(audioBytes(AUDIO.amen).length + audioBytes(AUDIO.low).length);
    expect(await downloaded(one.id)).toBe(true);
    expect(await downloaded(two.id)).toBe(true);
  });

  it("leaves tracks without a file out of a ZIP and names them in missing.txt, the other files intact", async () => {
    const one = await f.trackWithFile(AUDIO.amen, { filename: "Один - Трек.mp3" });
    // A failed duplicate: its file was discarded (decision 0021).
    const failed = await createTrack(f.t.ctx.db, { filename: "Дубль - Трек.mp3", status: "failed", storage_key: null });
    const gone = await f.trackWithFile(AUDIO.mono, { filename: "Gone - Later.mp3" });
    const two = await f.trackWithFile(AUDIO.low);
    const r = await f.call("POST", "/api/admin/tracks/download", {
      json: { track_ids: [one.id, failed.id, gone.id, two.id] },
    });
    expect(r.status).toBe(200);
    // The file vanishes from storage after the link was made.
    await f.t.ctx.storage.delete(gone.storage_key!);

    const res = await fetchFile(r.body.download_url as string);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual([AUDIO.low, "missing.txt", "Один - Трек.mp3"].sort());
    expect(files["Один - Трек.mp3"]).toEqual(audioBytes(AUDIO.amen));
    expect(files[AUDIO.low]).toEqual(audioBytes(AUDIO.low));
    const note = new TextDecoder().decode(files["missing.txt"]);
    expect(note.split("\n").filter(Boolean)).toEqual([
      "Эти треки не вошли в архив: их файлов нет в хранилище.",
      "Дубль - Трек.mp3",
      "Gone - Later.mp3",
    ]);
    // Only what was served counts as downloaded.
    expect(await downloaded(one.id)).toBe(true);
    expect(await downloaded(two.id)).toBe(true);
    expect(await downloaded(failed.id)).toBe(false);
    expect(await downloaded(gone.id)).toBe(false);
  });

  it("answers a ZIP with missing.txt when two tracks are asked for and only one has a file", async () => {
    const kept = await f.trackWithFile(AUDIO.amen, { filename: "Есть - Файл.mp3" });
    const none = await createTrack(f.t.ctx.db, { filename: "Нет - Файла.mp3", status: "failed", storage_key: null });
    const r = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [kept.id, none.id] } });
    expect(r.status).toBe(200);
    const res = await fetchFile(r.body.download_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="tracks-.*\.zip"/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["missing.txt", "Есть - Файл.mp3"].sort());
    expect(files["Есть - Файл.mp3"]).toEqual(audioBytes(AUDIO.amen));
    expect(new TextDecoder().decode(files["missing.txt"]).split("\n").filter(Boolean)).toEqual([
      "Эти треки не вошли в архив: их файлов нет в хранилище.",
      "Нет - Файла.mp3",
    ]);
    expect(await downloaded(kept.id)).toBe(true);
    expect(await downloaded(none.id)).toBe(false);
  });

  it("refuses a selection in which no track has a file, and a single track without one", async () => {
    const a = await createTrack(f.t.ctx.db, { status: "failed", storage_key: null });
    const b = await createTrack(f.t.ctx.db);
    const r = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [a.id, b.id] } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: "Ни у одного из выбранных треков нет файла" });
    const single = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [a.id] } });
    expect(single.status).toBe(404);
    expect(single.body.error).toBe(`Файл трека не найден: ${a.filename}`);

    // Files that vanish after the link was made: still a clear 404, nothing marked.
    const c = await f.trackWithFile(AUDIO.low);
    const link = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [a.id, c.id] } });
    expect(link.status).toBe(200);
    await f.t.ctx.storage.delete(c.storage_key!);
    const res = await fetchFile(link.body.download_url as string);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe("Ни у одного из выбранных треков нет файла");
    expect(await downloaded(c.id)).toBe(false);
  });

  it("names duplicate files apart inside the archive", () => {
    expect(uniqueNames(["A - B.mp3", "a - b.mp3", "A - B.mp3", "x/y\u0000.mp3"])).toEqual([
      "A - B.mp3",
      "a - b (2).mp3",
      "A - B (3).mp3",
      "x_y_.mp3",
    ]);
    expect(contentDisposition('Тр"ек.mp3')).toBe(
      `attachment; filename="_____.mp3"; filename*=UTF-8''${encodeURIComponent('Тр"ек.mp3')}`,
    );
  });

  it("refuses a tampered, forged, foreign or expired token", async () => {
    const track = await f.trackWithFile(AUDIO.mono);
    const r = await f.call("GET", `/api/admin/tracks/download/${track.id}`);
    const url = r.body.download_url as string;
    const token = url.split("/").pop()!;
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    const forgedPayload = btoa(JSON.stringify({ ...payload, tids: [1, 2, 3] })).replace(/=+$/, "")
      .replace(/\+/g, "-").replace(/\//g, "_");
    const bad = [
      `${h}.${forgedPayload}.${s}`,
      `${h}.${p}.${s.slice(0, -2)}xx`,
      "not-a-token",
      // An access token is not a download token.
      f.as.admin.Authorization.slice("Bearer ".length),
    ];
    for (const t of bad) {
      const res = await fetchFile(`/api/downloads/${t}`);
      expect(res.status, t).toBe(401);
      expect(await res.json()).toMatchObject({ success: false });
    }
    nowMs += (DOWNLOAD_TOKEN_TTL_S + 1) * 1000;
    try {
      const res = await fetchFile(url);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("Ссылка для скачивания недействительна или устарела");
    } finally {
      nowMs -= (DOWNLOAD_TOKEN_TTL_S + 1) * 1000;
    }
    expect(await downloaded(track.id)).toBe(false);
  });

  it("refuses a link whose signer is banned or no longer staff", async () => {
    const track = await f.trackWithFile(AUDIO.mono);
    const staff = await createUser(f.t.ctx.db, { is_admin: true });
    const token = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, staff), [track.id]);
    expect((await fetchFile(`/api/downloads/${token}`)).status).toBe(200);
    await f.t.ctx.users.update(staff.id, { is_admin: false });
    expect((await fetchFile(`/api/downloads/${token}`)).status).toBe(403);
  });

  it("gives a moderator's link only tracks in the moderator's categories, at signing and at download", async () => {
    const mine = await f.trackWithFile(AUDIO.low, { directions: "label_koster" });
    const foreign = await f.trackWithFile(AUDIO.low, { directions: "label_neuropunk" });
    const token = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, f.moderator), [mine.id, foreign.id]);
    expect((await fetchFile(`/api/downloads/${token}`)).status).toBe(404);
    const own = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, f.moderator), [mine.id]);
    expect((await fetchFile(`/api/downloads/${own}`)).status).toBe(200);
  });

  it("answers 404 for unknown tracks and tracks without a file, 400 for a bad id list", async () => {
    const noFile = await createTrack(f.t.ctx.db);
    expect((await f.call("GET", "/api/admin/tracks/download/999999")).status).toBe(404);
    const r = await f.call("GET", `/api/admin/tracks/download/${noFile.id}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toBe(`Файл трека не найден: ${noFile.filename}`);
    for (
      const json of [{}, { track_ids: [] }, { track_ids: "1,2" }, { track_ids: [0] }, { track_ids: [-3] }, {
        track_ids: ["x"],
      }]
    ) {
      const res = await f.call("POST", "/api/admin/tracks/download", { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    const withFile = await f.trackWithFile(AUDIO.low);
    const many = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [withFile.id, 999999] } });
    expect(many.status).toBe(404);
    // A file that vanished after the link was made.
    const gone = await f.trackWithFile(AUDIO.low);
    const link = (await f.call("GET", `/api/admin/tracks/download/${gone.id}`)).body.download_url as string;
    await f.t.ctx.storage.delete(gone.storage_key!);
    expect((await fetchFile(link)).status).toBe(404);
    expect(await downloaded(gone.id)).toBe(false);
  });

  it("does not serve a plain user's own signing attempt", async () => {
    const track = await f.trackWithFile(AUDIO.low);
    const r = await f.call("GET", `/api/admin/tracks/download/${track.id}`, { headers: f.as.plain });
    expect(r.status).toBe(403);
    const token = await signDownloadToken(f.t.ctx, await linkSignerOf(f.t.ctx, f.plain), [track.id]);
    expect((await fetchFile(`/api/downloads/${token}`)).status).toBe(403);
    const session = await signIn(f.t.ctx, f.plain);
    expect((await fetchFile(`/api/downloads/${token}?access_token=${session.access_token}`)).status).toBe(403);
  });
});

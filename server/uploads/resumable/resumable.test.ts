/**
 * Resumable uploads (issue 26): the start checked as POST /api/upload checks a file, parts sent and
 * resumed, completion into a track that is processed as any upload, the over-size refusal, the
 * cancel, the 24 h sweep, and another user's id answered 404; on local disk (the part endpoint) and
 * in a bucket (a real s3rver, the parts PUT to presigned addresses as a browser would).
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { tracks, uploadSessions, type User } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser, signIn } from "../../testing/factories.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../../testing/upload-helpers.ts";
import { startS3ServerForTests } from "../../testing/s3-server.ts";
import { isS3Storage } from "../../storage/s3-file-storage.ts";
import { createResumableUploads, UPLOAD_SESSION_TTL_MS } from "./service.ts";
import type { ResumableUploadView } from "../../../domain/resumable-upload.ts";

const MiB = 1024 * 1024;
const HOUR = 3_600_000;
let now = Date.UTC(2026, 0, 10, 12);
const clock = { now: () => new Date(now) };

/** Deterministic bytes that are not audio (xorshift), `n` long. */
function noise(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

type Upload = ResumableUploadView;

function client(t: TestApp, headers: Record<string, string>) {
  const json = async (res: Response) => ({ status: res.status, body: await res.json(), headers: res.headers });
  return {
    start: async (body: Record<string, unknown>) =>
      await json(
        await t.app.request("/api/upload/resumable", {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      ),
    get: async (id: string) => await json(await t.app.request(`/api/upload/resumable/${id}`, { headers })),
    list: async () => await json(await t.app.request("/api/upload/resumable", { headers })),
    /** A part sent to a path whose number is written as given (`01`, `1`). */
    putRaw: async (id: string, n: string, bytes: Uint8Array) =>
      await json(
        await t.app.request(`/api/upload/resumable/${id}/parts/${n}`, {
          method: "PUT",
          headers: { ...headers, "content-type": "application/octet-stream" },
          body: bytes as Uint8Array<ArrayBuffer>,
        }),
      ),
    put: async (id: string, n: number, bytes: Uint8Array) =>
      await json(
        await t.app.request(`/api/upload/resumable/${id}/parts/${n}`, {
          method: "PUT",
          headers: { ...headers, "content-type": "application/octet-stream" },
          body: bytes as Uint8Array<ArrayBuffer>,
        }),
      ),
    complete: async (id: string) =>
      await json(await t.app.request(`/api/upload/resumable/${id}/complete`, { method: "POST", headers })),
    cancel: async (id: string) =>
      await json(await t.app.request(`/api/upload/resumable/${id}`, { method: "DELETE", headers })),
  };
}

const partOf = (data: Uint8Array, u: Pick<Upload, "part_size">, n: number) =>
  data.subarray((n - 1) * u.part_size, n * u.part_size);

async function storedBytes(t: TestApp, key: string): Promise<Uint8Array> {
  const { body } = await t.ctx.storage.read(key);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

async function partDirExists(t: TestApp, id: string) {
  return await Deno.stat(`${t.dir}/upload-parts/${id}`).then(() => true, () => false);
}

describe("resumable uploads on local disk", () => {
  let t: TestApp;
  let artist: User;
  let api: ReturnType<typeof client>;
  beforeEach(async () => {
    now = Date.UTC(2026, 0, 10, 12);
    t = await createTestApp({
      clock,
      env: { UPLOAD_PART_MB: "5", MAX_UPLOAD_FILE_MB: "20", MAX_UPLOADS_PER_HOUR: "3", UPLOAD_IDLE_TIMEOUT_S: "1" },
    });
    artist = await createUser(t.ctx.db);
    api = client(t, (await signIn(t.ctx, artist)).headers);
  });
  afterEach(async () => {
    await t.close();
  });

  it("refuses a start as POST /api/upload refuses the file, with the same statuses and texts, before any byte", async () => {
    const good = { filename: "Artist - Title.mp3", size: 1000, directions: "label_neuropunk" };
    const anon = await t.app.request("/api/upload/resumable", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(good),
    });
    expect(anon.status).toBe(401);

    const banned = await createUser(t.ctx.db, { is_banned: true, ban_reason: "спам" });
    const bannedHeaders = (await signIn(t.ctx, banned)).headers;
    const bannedRes = await client(t, bannedHeaders).start(good);
    const bannedPost = await postUpload(t, bannedHeaders, [
      filePart(good.filename, noise(1000)),
      dirPart("label_neuropunk"),
    ]);
    expect(bannedRes.status).toBe(bannedPost.res.status);
    expect(bannedRes.body).toEqual(bannedPost.body);
    expect(bannedRes.body.success).toBe(false);

    // The same files through POST /api/upload give the same answers.
    const { headers } = await signIn(t.ctx, artist);
    const cases: Array<{ body: Record<string, unknown>; file: { name: string; data: Uint8Array }; dir: string }> = [
      {
        body: { ...good, filename: "no dash title.mp3" },
        file: { name: "no dash title.mp3", data: noise(1000) },
        dir: "label_neuropunk",
      },
      {
        body: { ...good, filename: "Artist - Title.wav" },
        file: { name: "Artist - Title.wav", data: noise(1000) },
        dir: "label_neuropunk",
      },
      { body: { ...good, directions: "nonsense" }, file: { name: good.filename, data: noise(1000) }, dir: "nonsense" },
      { body: { ...good, directions: "" }, file: { name: good.filename, data: noise(1000) }, dir: "" },
    ];
    for (const c of cases) {
      const resumable = await api.start(c.body);
      const parts = [filePart(c.file.name, c.file.data)];
      if (c.dir) parts.push(dirPart(c.dir));
      const multipart = await postUpload(t, headers, parts);
      expect(resumable.status, JSON.stringify(c.body)).toBe(multipart.res.status);
      expect(resumable.body.error, JSON.stringify(c.body)).toBe(multipart.body.error);
      expect(resumable.status).toBe(400);
    }
    const name = await api.start({ ...good, filename: "no dash title.mp3" });
    expect(name.body.invalid_files).toEqual([{ filename: "no dash title.mp3", error: expect.any(String) }]);

    // Over MAX_UPLOAD_FILE_MB: the same 413 and text as the multipart path's.
    const big = await api.start({ ...good, size: 20 * MiB + 1 });
    const bigPost = await postUpload(t, headers, [
      filePart(good.filename, noise(20 * MiB + 1)),
      dirPart("label_neuropunk"),
    ]);
    expect(big.status).toBe(413);
    expect(bigPost.res.status).toBe(413);
    expect(big.body.error).toBe(bigPost.body.error);

    expect(await t.ctx.db.select().from(uploadSessions)).toEqual([]);
  });

  it("counts a started upload towards MAX_UPLOADS_PER_HOUR, in both upload paths", async () => {
    const start = (i: number) =>
      api.start({ filename: `Artist - Song ${i}.mp3`, size: 1000, directions: "label_neuropunk" });
    expect((await start(1)).status).toBe(201);
    expect((await start(2)).status).toBe(201);
    // Two started, none completed: one more fits by POST /api/upload, then the hour is full.
    const { headers } = await signIn(t.ctx, artist);
    const post = await postUpload(t, headers, [
      filePart("Artist - Posted.mp3", fixture(FIXTURES.low)),
      dirPart("label_neuropunk"),
    ]);
    expect(post.res.status).toBe(200);
    const over = await start(3);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/^Слишком много загрузок за час: не больше 3 файлов\./);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const overPost = await postUpload(t, headers, [
      filePart("Artist - Posted 2.mp3", fixture(FIXTURES.low)),
      dirPart("label_neuropunk"),
    ]);
    expect(overPost.res.status).toBe(429);
    // An hour later the started uploads no longer count.
    now += HOUR + 1000;
    api = client(t, (await signIn(t.ctx, artist)).headers);
    expect((await start(4)).status).toBe(201);
  });

  it("takes parts, resumes with only the missing ones, and completes into a track stored byte for byte", async () => {
    const data = noise(12 * MiB + 12345);
    const started = await api.start({
      filename: "Artist - Big Noise.mp3",
      size: data.byteLength,
      last_modified: 1_700_000_000_000,
      directions: "label_neuropunk,podcast_neuropunk",
      ai_use: "partly",
    });
    expect(started.status).toBe(201);
    const u: Upload = started.body.upload;
    expect(u).toMatchObject({ mode: "local", part_size: 5 * MiB, part_count: 3, parts_done: [], part_urls: {} });
    expect(u.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(u.expires_at) - now).toBe(UPLOAD_SESSION_TTL_MS);

    expect((await api.put(u.id, 1, partOf(data, u, 1))).body).toEqual({ success: true, part: 1 });
    // A part cut short is not kept; a part larger than it should be is refused with 413.
    const short = await api.put(u.id, 3, partOf(data, u, 3).subarray(0, 100));
    expect(short.status).toBe(400);
    const long = await api.put(u.id, 3, data.subarray(2 * u.part_size - 1));
    expect(long.status).toBe(413);
    expect((await api.put(u.id, 4, new Uint8Array(1))).status).toBe(400);
    expect((await api.put(u.id, 3, partOf(data, u, 3))).status).toBe(200);

    // Completing too early names what is missing and leaves the upload to be continued.
    const early = await api.complete(u.id);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe("Загружены не все части файла: не хватает 1 из 3. Продолжите загрузку.");

    // The page reloads: it asks which parts are done and sends only the rest.
    const resumed = await api.get(u.id);
    expect(resumed.body.upload.parts_done).toEqual([1, 3]);
    expect((await api.put(u.id, 2, partOf(data, u, 2))).status).toBe(200);
    expect((await api.get(u.id)).body.upload.parts_done).toEqual([1, 2, 3]);

    const done = await api.complete(u.id);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, track_id: expect.any(Number) });
    const [track] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, done.body.track_id));
    expect(track).toMatchObject({
      user_id: artist.id,
      filename: "Artist - Big Noise.mp3",
      directions: "label_neuropunk,podcast_neuropunk",
      size: data.byteLength,
      ai_use: "partly",
    });
    expect(sha(await storedBytes(t, track.storage_key!))).toBe(sha(data));
    expect(await partDirExists(t, u.id)).toBe(false);
    // Completed: the id answers 404 from now on, but a completion asked again (its answer lost on
    // the way) gets the same track rather than a second one or an error.
    expect((await api.get(u.id)).status).toBe(404);
    expect((await api.complete(u.id)).body).toEqual({ success: true, track_id: done.body.track_id });
    expect(await t.ctx.db.select().from(tracks)).toHaveLength(1);
  });

  it("processes the completed track exactly as a POST /api/upload track: same status and failed-file text", async () => {
    const other = await createUser(t.ctx.db);
    const otherHeaders = (await signIn(t.ctx, other)).headers;
    for (
      const [name, data] of [["Test Artist - Amen Study.mp3", fixture(FIXTURES.amen)], [
        "Text Artist - Not Audio.mp3",
        fixture(FIXTURES.text),
      ]] as const
    ) {
      const started = await api.start({ filename: name, size: data.byteLength, directions: "label_neuropunk" });
      const u: Upload = started.body.upload;
      for (let n = 1; n <= u.part_count; n++) expect((await api.put(u.id, n, partOf(data, u, n))).status).toBe(200);
      const done = await api.complete(u.id);
      expect(done.status).toBe(200);
      const posted = await postUpload(t, otherHeaders, [filePart(name, data), dirPart("label_neuropunk")]);
      expect(posted.res.status).toBe(200);
      await t.ctx.queue.idle();
      const [mine] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, done.body.track_id));
      const [theirs] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, posted.body.track_ids[0]));
      expect(mine.status, name).not.toBe("processing");
      expect({ status: mine.status, error: mine.error, duration: mine.duration }).toEqual({
        status: theirs.status,
        error: theirs.error,
        duration: theirs.duration,
      });
      // The artist's status poll sees it as any upload's track.
      const status = await t.app.request(`/api/status/${mine.id}`, { headers: (await signIn(t.ctx, artist)).headers });
      expect(status.status).toBe(200);
    }
  });

  it("cuts off a part whose sender goes silent with 408 (UPLOAD_IDLE_TIMEOUT_S) and keeps nothing of it", async () => {
    const data = noise(6 * MiB);
    const u: Upload =
      (await api.start({ filename: "Artist - Stall.mp3", size: data.byteLength, directions: "label_neuropunk" }))
        .body.upload;
    let sent = false;
    const stalled = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent) return new Promise(() => {});
        sent = true;
        ctrl.enqueue(partOf(data, u, 1).slice(0, 64 * 1024));
      },
    }, { highWaterMark: 0 });
    const res = await t.app.request(`/api/upload/resumable/${u.id}/parts/1`, {
      method: "PUT",
      headers: { ...(await signIn(t.ctx, artist)).headers, "content-type": "application/octet-stream" },
      body: stalled,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(408);
    expect((await res.json()).error).toMatch(/^Загрузка прервана: данные не поступали 1 секунду\./);
    expect((await api.get(u.id)).body.upload.parts_done).toEqual([]);
  });

  it("answers 404 for another user's upload, and a cancel removes the parts", async () => {
    const data = noise(6 * MiB);
    const u: Upload =
      (await api.start({ filename: "Artist - Mine.mp3", size: data.byteLength, directions: "label_neuropunk" }))
        .body.upload;
    expect((await api.put(u.id, 1, partOf(data, u, 1))).status).toBe(200);
    const stranger = client(t, (await signIn(t.ctx, await createUser(t.ctx.db))).headers);
    for (
      const res of [
        await stranger.get(u.id),
        await stranger.put(u.id, 2, partOf(data, u, 2)),
        await stranger.complete(u.id),
        await stranger.cancel(u.id),
      ]
    ) {
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
    }
    expect((await api.get("x".repeat(32))).status).toBe(404);
    expect((await api.get("../../etc")).status).toBe(404);
    expect((await api.get(u.id)).body.upload.parts_done).toEqual([1]);

    expect((await api.cancel(u.id)).body).toEqual({ success: true });
    expect(await partDirExists(t, u.id)).toBe(false);
    expect((await api.get(u.id)).status).toBe(404);
  });

  it("takes part numbers only in plain decimal: `01`, `00001`, `+1`, `1.0` are refused with 400 (issue 32)", async () => {
    const data = noise(6 * MiB);
    const u: Upload =
      (await api.start({ filename: "Artist - Numbers.mp3", size: data.byteLength, directions: "label_neuropunk" }))
        .body.upload;
    for (const form of ["01", "00001", "+1", "1.0", "1e0", "0", "0x1", "%201"]) {
      const res = await api.putRaw(u.id, form, partOf(data, u, 1));
      expect(res.status, form).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Неверный номер части: ожидается число от 1 до 2." });
    }
    expect((await api.get(u.id)).body.upload.parts_done).toEqual([]);
    expect((await api.putRaw(u.id, "1", partOf(data, u, 1))).body).toEqual({ success: true, part: 1 });
    expect((await api.putRaw(u.id, "2", partOf(data, u, 2))).body).toEqual({ success: true, part: 2 });
    expect((await api.get(u.id)).body.upload.parts_done).toEqual([1, 2]);
  });

  it("GET /api/upload/resumable lists the artist's own unfinished uploads only, with what the page shows (issue 31)", async () => {
    const data = noise(11 * MiB);
    const older = (await api.start({
      filename: "Artist - Older.mp3",
      size: data.byteLength,
      last_modified: 1_700_000_000_123,
      directions: "label_neuropunk,podcast_neuropunk",
      ai_use: "no",
    })).body.upload as Upload;
    expect((await api.put(older.id, 2, partOf(data, older, 2))).status).toBe(200);
    now += 60_000;
    const newer = (await api.start({ filename: "Artist - Newer.mp3", size: 1000, directions: "label_neuropunk" }))
      .body.upload as Upload;
    now += 60_000;
    const cancelled = (await api.start({ filename: "Artist - Gone.mp3", size: 1000, directions: "label_neuropunk" }))
      .body.upload as Upload;
    expect((await api.cancel(cancelled.id)).status).toBe(200);

    const listed = await api.list();
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      success: true,
      uploads: [
        {
          id: newer.id,
          filename: "Artist - Newer.mp3",
          size: 1000,
          last_modified: null,
          directions: ["label_neuropunk"],
          part_size: 5 * MiB,
          part_count: 1,
          parts_done: [],
          bytes_done: 0,
          created_at: new Date(now - 60_000).toISOString(),
          expires_at: newer.expires_at,
        },
        {
          id: older.id,
          filename: "Artist - Older.mp3",
          size: data.byteLength,
          last_modified: 1_700_000_000_123,
          directions: ["label_neuropunk", "podcast_neuropunk"],
          part_size: 5 * MiB,
          part_count: 3,
          parts_done: [2],
          bytes_done: 5 * MiB,
          created_at: new Date(now - 120_000).toISOString(),
          expires_at: older.expires_at,
        },
      ],
    });

    // Another artist sees none of them; a visitor is asked to sign in.
    const stranger = client(t, (await signIn(t.ctx, await createUser(t.ctx.db))).headers);
    expect((await stranger.list()).body).toEqual({ success: true, uploads: [] });
    expect((await t.app.request("/api/upload/resumable")).status).toBe(401);

    // A completed upload and an expired one leave the list.
    for (const n of [1, 3]) expect((await api.put(older.id, n, partOf(data, older, n))).status).toBe(200);
    expect((await api.complete(older.id)).status).toBe(200);
    expect((await api.list()).body.uploads.map((u: Upload) => u.id)).toEqual([newer.id]);
    now += UPLOAD_SESSION_TTL_MS;
    expect(await createResumableUploads(t.ctx).list(artist.id)).toEqual([]);
  });

  it("the sweep aborts an upload left unfinished for 24 hours and removes its parts, once across instances", async () => {
    const data = noise(6 * MiB);
    const u: Upload =
      (await api.start({ filename: "Artist - Left.mp3", size: data.byteLength, directions: "label_neuropunk" }))
        .body.upload;
    expect((await api.put(u.id, 1, partOf(data, u, 1))).status).toBe(200);
    const a = createResumableUploads(t.ctx);
    const b = createResumableUploads(t.ctx);
    now += UPLOAD_SESSION_TTL_MS - 60_000;
    expect(await a.sweep()).toEqual({ aborted: 0, deleted: 0, orphans: 0 });
    expect(await partDirExists(t, u.id)).toBe(true);
    now += 2 * 60_000;
    const [ra, rb] = await Promise.all([a.sweep(), b.sweep()]);
    expect(ra.aborted + rb.aborted).toBe(1);
    expect(await partDirExists(t, u.id)).toBe(false);
    api = client(t, (await signIn(t.ctx, artist)).headers);
    expect((await api.get(u.id)).status).toBe(404);
    // A day later the row itself goes.
    now += 25 * HOUR;
    expect((await a.sweep()).deleted).toBe(1);
    expect(await t.ctx.db.select().from(uploadSessions)).toEqual([]);
  });

  it("the sweep removes a day-old part folder no upload owns (its row gone with its user)", async () => {
    const data = noise(6 * MiB);
    const u: Upload =
      (await api.start({ filename: "Artist - Gone.mp3", size: data.byteLength, directions: "label_neuropunk" }))
        .body.upload;
    expect((await api.put(u.id, 1, partOf(data, u, 1))).status).toBe(200);
    await t.ctx.db.delete(uploadSessions).where(eq(uploadSessions.id, u.id));
    const sweep = createResumableUploads(t.ctx);
    // Fresh on the file system's clock: left alone, since an upload may just have been started.
    now = Date.now();
    expect((await sweep.sweep()).orphans).toBe(0);
    expect(await partDirExists(t, u.id)).toBe(true);
    const dayAgo = new Date(Date.now() - UPLOAD_SESSION_TTL_MS - 60_000);
    await Deno.utime(`${t.dir}/upload-parts/${u.id}`, dayAgo, dayAgo);
    expect((await sweep.sweep()).orphans).toBe(1);
    expect(await partDirExists(t, u.id)).toBe(false);
  });
});

const s3 = await startS3ServerForTests({ bucket: "np-resumable" });

describe.skipIf(!s3)("resumable uploads into a bucket (S3_BUCKET set, s3rver)", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  afterAll(async () => {
    await s3?.stop();
  });
  beforeEach(async () => {
    now = Date.UTC(2026, 0, 10, 12);
    t = await createTestApp({
      clock,
      env: {
        UPLOAD_PART_MB: "5",
        MAX_UPLOAD_FILE_MB: "12",
        S3_BUCKET: s3!.bucket,
        S3_ENDPOINT: s3!.endpoint,
        S3_REGION: s3!.region,
        S3_ACCESS_KEY_ID: s3!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3!.secretAccessKey,
      },
    });
    api = client(t, (await signIn(t.ctx, await createUser(t.ctx.db))).headers);
  });
  afterEach(async () => {
    await t.close();
  });

  /** A PUT straight to the bucket, as the browser does, from another origin. */
  const putTo = async (url: string, bytes: Uint8Array) => {
    const res = await fetch(url, {
      method: "PUT",
      body: bytes as Uint8Array<ArrayBuffer>,
      headers: { origin: "https://demo.example" },
    });
    await res.body?.cancel();
    return res;
  };

  async function partsInBucket(u: Upload): Promise<number[] | null> {
    const [row] = await t.ctx.db.select().from(uploadSessions).where(eq(uploadSessions.id, u.id));
    if (!isS3Storage(t.ctx.storage)) throw new Error("not S3");
    const parts = await t.ctx.storage.multipart.listParts(row.storage_key, row.s3_upload_id!);
    return parts && parts.map((p) => p.n);
  }

  it("gives presigned part addresses, resumes from the bucket's parts, and completes into the original bytes", async () => {
    const data = noise(11 * MiB + 777, 11);
    const started = await api.start({
      filename: "Artist - Cloud.mp3",
      size: data.byteLength,
      directions: "label_neuropunk",
    });
    expect(started.status).toBe(201);
    const u: Upload = started.body.upload;
    expect(u).toMatchObject({ mode: "s3", part_count: 3, parts_done: [] });
    expect(Object.keys(u.part_urls).sort()).toEqual(["1", "2", "3"]);
    const url = new URL(u.part_urls["2"]);
    expect(url.searchParams.get("partNumber")).toBe("2");
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBeGreaterThanOrEqual(3600);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

    // The bucket takes the browser's cross-origin PUT (its CORS rule).
    const first = await putTo(u.part_urls["1"], partOf(data, u, 1));
    expect(first.status).toBe(200);
    expect(first.headers.get("access-control-allow-origin")).toBeTruthy();
    expect((await putTo(u.part_urls["3"], partOf(data, u, 3))).status).toBe(200);

    // The server's part endpoint is not for bucket uploads.
    expect((await api.put(u.id, 2, partOf(data, u, 2))).status).toBe(409);

    const resumed: Upload = (await api.get(u.id)).body.upload;
    expect(resumed.parts_done).toEqual([1, 3]);
    expect(Object.keys(resumed.part_urls)).toEqual(["2"]);
    expect((await api.complete(u.id)).status).toBe(409);
    expect((await putTo(resumed.part_urls["2"], partOf(data, u, 2))).status).toBe(200);

    const done = await api.complete(u.id);
    expect(done.status).toBe(200);
    const [track] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, done.body.track_id));
    expect(track).toMatchObject({ filename: "Artist - Cloud.mp3", size: data.byteLength });
    expect(sha(await storedBytes(t, track.storage_key!))).toBe(sha(data));
    expect((await api.get(u.id)).status).toBe(404);
  });

  it("a part the bucket stored short (a cut connection) is not done: listed to send again, then completes (issue 31)", async () => {
    const data = noise(11 * MiB + 777, 5);
    const u: Upload =
      (await api.start({ filename: "Artist - Short.mp3", size: data.byteLength, directions: "label_neuropunk" }))
        .body.upload;
    expect((await putTo(u.part_urls["1"], partOf(data, u, 1))).status).toBe(200);
    // What a cut delivered of part 2 reached the bucket: the bucket lists it, short.
    expect((await putTo(u.part_urls["2"], partOf(data, u, 2).subarray(0, MiB))).status).toBe(200);
    expect((await putTo(u.part_urls["3"], partOf(data, u, 3))).status).toBe(200);
    expect(await partsInBucket(u)).toEqual([1, 2, 3]);

    const early = await api.complete(u.id);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      success: false,
      error: "Часть 2 файла не того размера: отправьте её ещё раз.",
      resend_parts: [2],
    });
    const resumed: Upload = (await api.get(u.id)).body.upload;
    expect(resumed.parts_done).toEqual([1, 3]);
    expect(Object.keys(resumed.part_urls)).toEqual(["2"]);
    const [listed] = (await api.list()).body.uploads;
    expect(listed).toMatchObject({ id: u.id, parts_done: [1, 3], bytes_done: 5 * MiB + (data.byteLength - 10 * MiB) });

    expect((await putTo(resumed.part_urls["2"], partOf(data, u, 2))).status).toBe(200);
    const done = await api.complete(u.id);
    expect(done.status).toBe(200);
    const [track] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, done.body.track_id));
    expect(sha(await storedBytes(t, track.storage_key!))).toBe(sha(data));
  });

  it("refuses a completed size over MAX_UPLOAD_FILE_MB with 413 and removes the parts", async () => {
    const size = 12 * MiB;
    const u: Upload =
      (await api.start({ filename: "Artist - Too Big.mp3", size, directions: "label_neuropunk" })).body.upload;
    expect(u.part_count).toBe(3);
    // A presigned PUT cannot cap its size: the last part comes larger than declared.
    expect((await putTo(u.part_urls["1"], noise(5 * MiB))).status).toBe(200);
    expect((await putTo(u.part_urls["2"], noise(5 * MiB))).status).toBe(200);
    expect((await putTo(u.part_urls["3"], noise(3 * MiB))).status).toBe(200);
    expect(await partsInBucket(u)).toEqual([1, 2, 3]);
    const res = await api.complete(u.id);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("Файл «Artist - Too Big.mp3» слишком большой. Максимальный размер: 12 МБ");
    expect(await partsInBucket(u)).toBeNull();
    expect(await t.ctx.db.select().from(tracks)).toEqual([]);
    expect((await api.get(u.id)).status).toBe(404);
  });

  it("the sweep aborts the bucket's multipart upload of an upload left for 24 hours", async () => {
    const u: Upload =
      (await api.start({ filename: "Artist - Abandoned.mp3", size: 6 * MiB, directions: "label_neuropunk" }))
        .body.upload;
    expect((await putTo(u.part_urls["1"], noise(5 * MiB))).status).toBe(200);
    expect(await partsInBucket(u)).toEqual([1]);
    now += UPLOAD_SESSION_TTL_MS + 1000;
    expect((await createResumableUploads(t.ctx).sweep()).aborted).toBe(1);
    expect(await partsInBucket(u)).toBeNull();
  });
});

/**
 * Issue 14, object storage: the app wired to a real S3 server (s3rver, started here as the status
 * store tests start redis-server) through the S3_* variables, as `server/wiring.ts` wires it. The
 * whole track life reads and writes the bucket: upload (multipart parts), processing with its
 * analysis, download byte for byte, ZIP, listening with Range, delete, the start-up sweep; and the
 * public images, served under /static/storage/ or addressed at S3_PUBLIC_URL (decisions 0111–0114).
 * Without s3rver these are left out with a notice; with CI=true that is a failure.
 */
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackAnalysis, tracks } from "../../db/schema.ts";
import { tooLarge } from "../lib/http-error.ts";
import { receiveMultipart } from "../http/multipart.ts";
import { recoverStorage } from "../storage/recover-storage.ts";
import { createS3Storage, isS3Storage, type S3Storage } from "../storage/s3-file-storage.ts";
import { createPartPool, MIN_PART_SIZE } from "../storage/s3-part-pool.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { multipartBody, repeatingStream } from "../testing/multipart-body.ts";
import { startS3ServerForTests } from "../testing/s3-server.ts";
import { AUDIO, audioBytes, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";
import { ABORTED_MESSAGE } from "../uploads/receive-upload.ts";

const s3 = await startS3ServerForTests({ bucket: "np-life" });
afterAll(async () => await s3?.stop());

const env = (extra: Record<string, string> = {}): Record<string, string> =>
  s3
    ? {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      ...extra,
    }
    : {};

/** The bucket as it is, no prefix: what the app's stores put where. */
const bucket = (): S3Storage =>
  createS3Storage({
    endpoint: s3!.endpoint,
    bucket: s3!.bucket,
    accessKeyId: s3!.accessKeyId,
    secretAccessKey: s3!.secretAccessKey,
  });

const keysUnder = async (prefix: string) => (await Array.fromAsync(bucket().listKeys(prefix))).map((o) => o.key);

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Whole MPEG frames of the 128 kbps fixture (its Info frame left out), to repeat into a long MP3. */
function mpegFrames(): Uint8Array {
  const data = fixture(FIXTURES.low);
  const frameLen = (i: number) => Math.floor((144 * 128000) / 44100) + ((data[i + 2] >> 1) & 1);
  let pos = frameLen(0);
  const start = pos;
  while (pos + frameLen(pos) <= data.byteLength && data[pos] === 0xff) pos += frameLen(pos);
  return data.subarray(start, pos);
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

function imageForm(field: string, fields: Record<string, string> = {}) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append(field, new File([PNG as Uint8Array<ArrayBuffer>], "me.png", { type: "image/png" }));
  return fd;
}

describe.skipIf(!s3)("a track's life in the bucket (S3_BUCKET set, s3rver)", () => {
  let f: StaffFixture;
  beforeAll(async () => {
    f = await staffFixture({ env: env(), moderatorCategories: "label_koster" });
  });
  afterAll(() => f?.close());

  /** ~12 MB: two full 5 MiB parts and a last one, so the upload is a real multipart upload. */
  const frames = mpegFrames();
  const bigSize = Math.floor((2 * MIN_PART_SIZE + 1_500_000) / frames.byteLength) * frames.byteLength;
  const big = () => repeatingStream(frames, bigSize, { chunk: 60_000 });
  let bigBytes: Uint8Array;
  let bigId: number;
  let smallId: number;

  it("wires both stores to the bucket and keeps nothing on the local disk", () => {
    expect(isS3Storage(f.t.ctx.storage)).toBe(true);
    expect(isS3Storage(f.t.ctx.publicStorage)).toBe(true);
    expect(f.t.ctx.storage.localPath("ab/cd")).toBeNull();
  });

  it("streams an upload into the bucket with multipart, processes it from the object, analysis saved", async () => {
    bigBytes = await bytesOf(big());
    const { res, body } = await postUpload(f.t, f.as.plain, [
      { name: "files", filename: "Long Artist - Long Track.mp3", type: "audio/mpeg", data: big },
      filePart("Test Artist - Amen Study.mp3"),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(200);
    [bigId, smallId] = body.track_ids;
    await f.t.ctx.queue.idle();
    const rows = await f.t.ctx.db.select().from(tracks).where(eq(tracks.user_id, f.plain.id));
    expect(rows.map((r) => r.status)).toEqual(["completed", "completed"]);
    const bigRow = rows.find((r) => r.id === bigId)!;
    expect(bigRow.size).toBe(bigSize);
    expect(bigRow.checksum).toBe(sha256(bigBytes));
    expect(bigRow.bitrate).toBe(128000);
    // The objects are in the bucket under tracks/, with the stored size.
    const stored = await bucket().stat(`tracks/${bigRow.storage_key}`);
    expect(stored?.size).toBe(bigSize);
    // Processing read the object: the audio report is there.
    const analysis = await f.t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, bigId));
    expect(analysis).toHaveLength(1);
    await expect(Deno.stat(`${f.t.dir}/tracks`)).rejects.toThrow(Deno.errors.NotFound);
  });

  it("finds a duplicate by reading the object, and discards its object", async () => {
    const { res, body } = await postUpload(f.t, f.as.plain, [
      filePart("Other Artist - Same Bytes.mp3"),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(200);
    await f.t.ctx.queue.idle();
    const [row] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, body.track_ids[0]));
    expect(row.status).toBe("failed");
    expect(row.error).toBe("Этот аудиофайл уже был загружен ранее.");
    expect(row.storage_key).toBeNull();
  });

  it("serves the download from the bucket byte for byte, and a ZIP of both", async () => {
    const link = await f.call("GET", `/api/admin/tracks/download/${bigId}`);
    const res = await f.t.app.request(link.body.download_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(bigSize));
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(bigBytes));

    const zipLink = await f.call("POST", "/api/admin/tracks/download", { json: { track_ids: [bigId, smallId] } });
    const zipRes = await f.t.app.request(zipLink.body.download_url as string);
    expect(zipRes.status).toBe(200);
    const zip = new Uint8Array(await zipRes.arrayBuffer());
    expect(zipRes.headers.get("content-length")).toBe(String(zip.byteLength));
    const files = unzipSync(zip);
    expect(sha256(files["Long Artist - Long Track.mp3"])).toBe(sha256(bigBytes));
    expect(files["Test Artist - Amen Study.mp3"]).toEqual(fixture(FIXTURES.amen));
  });

  describe("listening with Range", () => {
    let url: string;
    beforeAll(async () => {
      url = (await f.call("GET", `/api/admin/tracks/${bigId}/listen`)).body.stream_url as string;
    });

    const cases: Array<[string, number, number]> = [
      ["bytes=1000-1999", 1000, 1999],
      // Across the first part boundary of the multipart upload.
      [`bytes=${MIN_PART_SIZE - 10}-${MIN_PART_SIZE + 9}`, MIN_PART_SIZE - 10, MIN_PART_SIZE + 9],
      ["bytes=-500", bigSize - 500, bigSize - 1],
      [`bytes=${bigSize - 100}-`, bigSize - 100, bigSize - 1],
      [`bytes=${bigSize - 10}-${bigSize + 5000}`, bigSize - 10, bigSize - 1],
    ];

    it.each(cases)("%s answers 206 with exact headers and the stored bytes", async (range, start, end) => {
      const res = await f.t.app.request(url, { headers: { Range: range } });
      expect(res.status).toBe(206);
      expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${bigSize}`);
      expect(res.headers.get("content-length")).toBe(String(end - start + 1));
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bigBytes.subarray(start, end + 1));
    });

    it("cuts the range out itself when the store answers a range with the whole object", async () => {
      // Some S3-compatible services answer 200 with the whole object to a range request (RFC 9110
      // lets them); the store then reports no range, and the route must slice.
      const storage = f.t.ctx.storage;
      const read = storage.read;
      let asked = 0;
      storage.read = (key, opts) => {
        if (opts?.range) asked++;
        return read(key);
      };
      try {
        const start = MIN_PART_SIZE + 123;
        const res = await f.t.app.request(url, { headers: { Range: `bytes=${start}-${start + 65_535}` } });
        expect(res.status).toBe(206);
        expect(res.headers.get("content-range")).toBe(`bytes ${start}-${start + 65_535}/${bigSize}`);
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(bigBytes.subarray(start, start + 65_536));
        expect(asked).toBe(1);
      } finally {
        storage.read = read;
      }
    });

    it("answers 416 past the end, and the whole file without a Range", async () => {
      const past = await f.t.app.request(url, { headers: { Range: `bytes=${bigSize}-` } });
      expect(past.status).toBe(416);
      expect(past.headers.get("content-range")).toBe(`bytes */${bigSize}`);
      expect(await past.json()).toMatchObject({ success: false });
      const whole = await f.t.app.request(url);
      expect(whole.status).toBe(200);
      expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bigBytes));
    });
  });

  it("deletes the object with the track", async () => {
    const [row] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, bigId));
    expect(await bucket().stat(`tracks/${row.storage_key}`)).not.toBeNull();
    const r = await f.call("DELETE", `/api/admin/tracks/${bigId}`);
    expect(r.status).toBe(200);
    expect(await bucket().stat(`tracks/${row.storage_key}`)).toBeNull();
  });

  it("keeps no object and no row when the client breaks off mid-upload, multipart parts already sent", async () => {
    const before = (await keysUnder("tracks/")).sort();
    const count = async () => (await f.t.ctx.db.select().from(tracks)).length;
    const rows = await count();
    const { res, body } = await postUpload(f.t, f.as.plain, [
      filePart("Kept Artist - Would Be Kept.mp3", fixture(FIXTURES.low)),
      {
        name: "files",
        filename: "Cut Artist - Cut Off.mp3",
        type: "audio/mpeg",
        // Past one 5 MiB part: CreateMultipartUpload and UploadPart have happened when it breaks.
        data: () => repeatingStream(frames, 9_000_000, { failAfter: MIN_PART_SIZE + 1_000_000 }),
      },
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(400);
    expect(body.error).toBe(ABORTED_MESSAGE);
    await f.t.ctx.queue.idle();
    expect(await count()).toBe(rows);
    // The first, complete file was removed again; the cut one never became an object.
    expect((await keysUnder("tracks/")).sort()).toEqual(before);
  });

  it("sweeps an unreferenced object out of the bucket at start-up and keeps the referenced ones", async () => {
    const storage = f.t.ctx.storage;
    await storage.write("zz/orphan-track", ReadableStream.from([new Uint8Array([1, 2, 3])]));
    const kept = await f.trackWithFile(AUDIO.low, { directions: "label_koster" });
    await f.t.ctx.publicStorage.write("avatars/00000000-0000-4000-8000-000000000000.png", ReadableStream.from([PNG]));
    const report = await recoverStorage(f.t.ctx, 0);
    expect(report.orphans).toBeGreaterThanOrEqual(2);
    expect(await bucket().stat("tracks/zz/orphan-track")).toBeNull();
    expect(await bucket().stat("public/avatars/00000000-0000-4000-8000-000000000000.png")).toBeNull();
    expect(await storage.stat(kept.storage_key!)).not.toBeNull();
    // The small upload of the first test is referenced by its row: still there.
    const [small] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, smallId));
    expect(await storage.stat(small.storage_key!)).not.toBeNull();
    const served = await f.call("GET", `/api/admin/tracks/download/${kept.id}`);
    const file = await f.t.app.request(served.body.download_url as string);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(audioBytes(AUDIO.low));
  });

  it("sweeps an unfinished multipart upload the store lists as partial", async () => {
    // s3rver cannot list unfinished uploads (ListMultipartUploads answers 501), so the listing is
    // given here as a store that can would give it; the sweep must abort it whatever its key.
    const storage = f.t.ctx.storage;
    const list = storage.list;
    const remove = storage.remove;
    const removed: string[] = [];
    storage.list = async function* () {
      yield { key: "ab/abandoned#upload=some-upload-id", partial: true, modifiedAt: new Date(0) };
    };
    storage.remove = (key) => {
      removed.push(key);
      return Promise.resolve();
    };
    try {
      const report = await recoverStorage(f.t.ctx, 0);
      expect(report.partials).toBe(1);
      expect(removed).toEqual(["ab/abandoned#upload=some-upload-id"]);
    } finally {
      storage.list = list;
      storage.remove = remove;
    }
  });
});

describe.skipIf(!s3)("an upload into the bucket that stalls (UPLOAD_IDLE_TIMEOUT_S)", () => {
  /** A direction, a whole file, then `fileBytes` of a second file, after which the client goes quiet. */
  function stalling(fileBytes: number): { body: ReadableStream<Uint8Array>; contentType: string } {
    const frames = mpegFrames();
    const mp = multipartBody([
      dirPart("label_koster"),
      filePart("Kept Artist - Would Be Kept.mp3", fixture(FIXTURES.low)),
      {
        name: "files",
        filename: "Stall Artist - Stalls.mp3",
        type: "audio/mpeg",
        data: () => repeatingStream(frames, fileBytes),
      },
    ]);
    const reader = mp.body.getReader();
    // multipartBody yields a lone CRLF after each part's data; the third one, after the stalled
    // file's data, is where the body stops.
    let crlfs = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        if (crlfs === 3) return new Promise(() => {}); // no closing boundary, no more bytes, still open
        const r = await reader.read();
        if (r.done) return;
        if (r.value.byteLength === 2 && r.value[0] === 13 && r.value[1] === 10 && ++crlfs === 3) return;
        ctrl.enqueue(r.value);
      },
    }, { highWaterMark: 0 });
    return { body, contentType: mp.contentType };
  }

  it("answers 408 after a part was sent, keeps no object and no row", async () => {
    const t = await createTestApp({ env: env({ UPLOAD_IDLE_TIMEOUT_S: "1" }) });
    try {
      const user = await createUser(t.ctx.db);
      const { headers } = await signIn(t.ctx, user);
      const before = (await keysUnder("tracks/")).sort();
      // Past one 5 MiB part: CreateMultipartUpload and UploadPart have happened when it stalls.
      const { body, contentType } = stalling(MIN_PART_SIZE + 1_000_000);
      const res = await t.app.request("/api/upload", {
        method: "POST",
        headers: { ...headers, "content-type": contentType },
        body,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(408);
      expect((await res.json()).error).toBe(
        "Загрузка прервана: данные не поступали 1 секунду. Файлы не сохранены, попробуйте ещё раз.",
      );
      await t.ctx.queue.idle();
      expect(await t.ctx.db.select().from(tracks).where(eq(tracks.user_id, user.id))).toEqual([]);
      expect((await keysUnder("tracks/")).sort()).toEqual(before);
    } finally {
      await t.close();
    }
  });

  it("gives the part buffer back to the pool", async () => {
    const partPool = createPartPool({ size: 2 });
    const storage = createS3Storage({
      endpoint: s3!.endpoint,
      bucket: s3!.bucket,
      accessKeyId: s3!.accessKeyId,
      secretAccessKey: s3!.secretAccessKey,
      prefix: "stall/",
      partPool,
    });
    const { body, contentType } = stalling(MIN_PART_SIZE + 1_000_000);
    const req = new Request(
      "http://x/",
      { method: "POST", headers: { "content-type": contentType }, body, duplex: "half" } as RequestInit,
    );
    let n = 0;
    const err = await receiveMultipart(req, {
      files: {
        files: {
          storage,
          maxBytes: 50 * 1024 * 1024,
          accept: () => `k${++n}`,
          tooLarge: () => tooLarge("too large"),
        },
      },
      limits: { fields: 5, fieldSize: 100, parts: 10 },
      idleTimeoutMs: 500,
      messages: { notMultipart: "not multipart", aborted: "aborted" },
    }).then(() => null, (e) => e);
    expect(err).toMatchObject({ status: 408 });
    expect(n, "both files were started").toBe(2);
    expect(partPool.stats().lent).toBe(0);
    expect(await keysUnder("stall/")).toEqual([]);
  });
});

describe.skipIf(!s3)("public images in the bucket", () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ env: env() });
    headers = (await signIn(t.ctx, await createUser(t.ctx.db))).headers;
    admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
  });
  afterAll(() => t?.close());

  it("stores an avatar under public/ and serves it at /static/storage/ with cache headers, HEAD and 304", async () => {
    const res = await t.app.request("/api/profile/update", { method: "POST", headers, body: imageForm("avatar") });
    expect(res.status).toBe(200);
    const avatar = (await res.json()).user.avatar as string;
    expect(avatar).toMatch(/^\/static\/storage\/avatars\/[0-9a-f-]{36}\.png$/);
    const key = avatar.slice("/static/storage/".length);
    expect(await keysUnder(`public/${key}`)).toEqual([`public/${key}`]);

    const served = await t.app.request(avatar);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-length")).toBe(String(PNG.byteLength));
    const etag = served.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const head = await t.app.request(avatar, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(PNG.byteLength));
    expect(head.headers.get("etag")).toBe(etag);
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const again = await t.app.request(avatar, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const changed = await t.app.request(avatar, { headers: { "If-None-Match": '"something-else"' } });
    expect(changed.status).toBe(200);
    expect(new Uint8Array(await changed.arrayBuffer())).toEqual(PNG);
  });

  it("answers 404 for a key that is not in the bucket, or could not be one", async () => {
    for (
      const path of [
        "/static/storage/avatars/00000000-0000-4000-8000-000000000000.png",
        "/static/storage/avatars/..%2F..%2Fsecret",
        "/static/storage/.hidden",
        "/static/storage/%E0%A4%A",
      ]
    ) {
      const get = await t.app.request(path);
      expect(get.status, path).toBe(404);
      expect((await t.app.request(path, { method: "HEAD" })).status, path).toBe(404);
    }
  });

  it("stores a slider image in the bucket and serves it, and the tile lists it under /static/storage/", async () => {
    const res = await t.app.request("/api/admin/slider", {
      method: "POST",
      headers: admin,
      body: imageForm("image", { tile_type: "link", redirect_url: "https://example.com/release" }),
    });
    expect(res.status).toBe(201);
    const tile = (await res.json()).slider;
    expect(tile.image_url).toBe(`/static/storage/slider/${tile.image_filename}`);
    expect(await bucket().stat(`public/slider/${tile.image_filename}`)).not.toBeNull();
    const served = await t.app.request(tile.image_url);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });
});

describe.skipIf(!s3)("public images at S3_PUBLIC_URL", () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let admin: Record<string, string>;
  let publicBase: string;
  beforeAll(async () => {
    // s3rver answers unsigned GETs, as a public bucket (or a CDN in front of it) would.
    publicBase = `${s3!.endpoint}/${s3!.bucket}`;
    t = await createTestApp({ env: env({ S3_PUBLIC_URL: publicBase }) });
    headers = (await signIn(t.ctx, await createUser(t.ctx.db))).headers;
    admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
  });
  afterAll(() => t?.close());

  it("gives avatars the bucket's public address, which serves the image; the stored path stays /static/storage/", async () => {
    const res = await t.app.request("/api/profile/update", { method: "POST", headers, body: imageForm("avatar") });
    expect(res.status).toBe(200);
    const avatar = (await res.json()).user.avatar as string;
    expect(avatar).toMatch(new RegExp(`^${publicBase}/public/avatars/[0-9a-f-]{36}\\.png$`));
    const served = await fetch(avatar);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // /api/auth/me says the same.
    const me = await (await t.app.request("/api/auth/me", { headers })).json();
    expect(me.user.avatar).toBe(avatar);
    // The database keeps the site path, so the address follows S3_PUBLIC_URL if it changes, and the
    // old address still answers.
    const sitePath = `/static/storage/${avatar.slice(`${publicBase}/public/`.length)}`;
    const local = await t.app.request(sitePath);
    expect(local.status).toBe(200);
    expect(new Uint8Array(await local.arrayBuffer())).toEqual(PNG);
  });

  it("gives slider images the public address, and lets the page load images from it (CSP)", async () => {
    const res = await t.app.request("/api/admin/slider", {
      method: "POST",
      headers: admin,
      body: imageForm("image", { tile_type: "link", redirect_url: "https://example.com/release" }),
    });
    expect(res.status).toBe(201);
    const tile = (await res.json()).slider;
    expect(tile.image_url).toBe(`${publicBase}/public/slider/${tile.image_filename}`);
    const list = await (await t.app.request("/api/slider")).json();
    expect(list.sliders.map((s: { image_url: string }) => s.image_url)).toContain(tile.image_url);
    const served = await fetch(tile.image_url);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const page = await t.app.request("/");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(new RegExp(`img-src [^;]*${new URL(publicBase).origin.replace(/[.]/g, "\\.")}`));
    await page.body?.cancel();
  });
});

describe.skipIf(!s3)("the admin's track view in the bucket", () => {
  it("keeps working for a track row whose object is gone (404 naming it)", async () => {
    const t = await createTestApp({ env: env() });
    try {
      const adminUser = await createUser(t.ctx.db, { is_admin: true });
      const h = (await signIn(t.ctx, adminUser)).headers;
      const track = await createTrack(t.ctx.db, { storage_key: "no/such-object", filename: "Gone - Track.mp3" });
      const link = await (await t.app.request(`/api/admin/tracks/download/${track.id}`, { headers: h })).json();
      const res = await t.app.request(link.download_url);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "Файл трека не найден: Gone - Track.mp3" });
    } finally {
      await t.close();
    }
  });
});

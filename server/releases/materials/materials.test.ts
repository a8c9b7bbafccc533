/**
 * A release's files (issue 34) end to end in-process: the resumable upload's start with `kind` and
 * `release_id` (own release, a stage that takes files, the name and size rules), its completion
 * writing the `release_materials` row as `checking`, and the deferred check's verdict: formats, rates
 * and depths, the demo's length, the same recording by the fingerprint, the loudness figures and the
 * true-peak flag, a replaced file, a restart.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { releaseHistory, releaseMaterials, releases, tracks, type User } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser, signIn, storedTrack } from "../../testing/factories.ts";
import { cut, decodeMp3, gain, normalise, pad, type Pcm, resample, wavFile } from "../../testing/master-audio.ts";
import { createReleaseMaterials } from "./service.ts";
import { MATERIAL_REASONS } from "./judge.ts";
import { materialsByRelease } from "./reads.ts";
import { startS3ServerForTests } from "../../testing/s3-server.ts";
import { recoverStorage } from "../../storage/recover-storage.ts";
import { isS3Storage } from "../../storage/s3-file-storage.ts";

const fixtures = decodeURIComponent(new URL("../../../test/fixtures/audio/", import.meta.url).pathname);
const DEMO = `${fixtures}fingerprint/Print Artist - Original.mp3`;
const OTHER = `${fixtures}fingerprint/Print Artist - Other Groove.mp3`;

let demoPcm: Pcm;
let otherPcm: Pcm;
beforeAll(async () => {
  demoPcm = await decodeMp3(DEMO);
  otherPcm = await decodeMp3(OTHER);
});

interface Ctx {
  t: TestApp;
  artist: User;
  headers: Record<string, string>;
  releaseId: number;
  changed: number[];
}

async function setUp(): Promise<Ctx> {
  const t = await createTestApp({ env: { UPLOAD_PART_MB: "5", MAX_MASTER_FILE_MB: "40" } });
  const artist = await createUser(t.ctx.db);
  const headers = (await signIn(t.ctx, artist)).headers;
  const demo = await storedTrack(t.ctx, await Deno.readFile(DEMO), artist.id, "Print Artist - Original.mp3");
  t.ctx.processor.enqueue(demo.id);
  await t.ctx.queue.idle();
  const [processed] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, demo.id));
  expect(processed.status).toBe("completed");
  const releaseId = await addRelease(t, demo.id);
  const changed: number[] = [];
  t.ctx.releaseMaterials.setAfterMaterialsChanged((id) => {
    changed.push(id);
  });
  return { t, artist, headers, releaseId, changed };
}

async function addRelease(
  t: TestApp,
  trackId: number,
  stage: typeof releases.$inferInsert.stage = "materials_requested",
) {
  const [r] = await t.ctx.db.insert(releases).values({
    track_id: trackId,
    direction: "label_neuropunk",
    stage,
    accepted_at: new Date(),
  }).returning();
  return r.id;
}

async function call(t: TestApp, headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await t.app.request(path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined
      ? undefined
      : body instanceof Uint8Array
      ? body as Uint8Array<ArrayBuffer>
      : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Sends `bytes` as a release file through the resumable protocol (local parts) and waits for its check. */
async function send(c: Ctx, kind: string, filename: string, bytes: Uint8Array, releaseId = c.releaseId) {
  const start = await call(c.t, c.headers, "POST", "/api/upload/resumable", {
    filename,
    size: bytes.length,
    kind,
    release_id: releaseId,
  });
  if (start.status !== 201) return start;
  const u = start.body.upload;
  for (let n = 1; n <= u.part_count; n++) {
    const part = bytes.subarray((n - 1) * u.part_size, n * u.part_size);
    const put = await call(c.t, c.headers, "PUT", `/api/upload/resumable/${u.id}/parts/${n}`, part);
    expect(put.status).toBe(200);
  }
  const done = await call(c.t, c.headers, "POST", `/api/upload/resumable/${u.id}/complete`);
  await c.t.ctx.releaseMaterials.idle();
  return done;
}

async function material(c: Ctx, kind = "master") {
  const [row] = await c.t.ctx.db.select().from(releaseMaterials).where(
    and(eq(releaseMaterials.release_id, c.releaseId), eq(releaseMaterials.kind, kind as "master")),
  );
  return row;
}

describe("a release's files: upload and check", () => {
  let c: Ctx;
  beforeEach(async () => {
    c = await setUp();
  });
  afterEach(async () => {
    await c.t.close();
  });

  it("takes a 24-bit 48 kHz WAV master made from the demo: accepted, with its figures for staff", async () => {
    const done = await send(
      c,
      "master",
      "Print Artist - Original (Master).wav",
      wavFile(resample(demoPcm, 48_000), 24),
    );
    expect(done).toEqual({ status: 200, body: { success: true, release_id: c.releaseId, kind: "master" } });
    const row = await material(c);
    expect(row).toMatchObject({ state: "accepted", reason: null, filename: "Print Artist - Original (Master).wav" });
    expect(row.report).toMatchObject({
      container: "wav",
      encoding: "int",
      bits: 24,
      sample_rate_hz: 48_000,
      channels: 2,
      fingerprint: { same: true },
      flags: [],
    });
    const report = row.report as {
      duration_s: number;
      demo_duration_s: number;
      loudness_lufs: number;
      true_peak_dbtp: number;
    };
    expect(Math.abs(report.duration_s - report.demo_duration_s)).toBeLessThan(0.1);
    expect(report.loudness_lufs).toBeCloseTo(-11.5, 0);
    expect(report.true_peak_dbtp).toBeLessThan(-1);
    expect(c.changed).toEqual([c.releaseId, c.releaseId]);
    const history = await c.t.ctx.db.select().from(releaseHistory).where(eq(releaseHistory.release_id, c.releaseId));
    expect(history.map((h) => h.action)).toEqual(["material_received", "material_checked"]);
    expect(history[0].user_id).toBe(c.artist.id);
    // The stored file is kept by the storage sweep (server/storage/recover-storage.ts), even when old.
    expect(await recoverStorage(c.t.ctx, -60_000)).toEqual({ partials: 0, orphans: 0 });
    expect(await c.t.ctx.storage.stat(row.storage_key)).toMatchObject({ size: row.size });
    const read = await materialsByRelease(c.t.ctx.db, [c.releaseId]);
    expect(read.get(c.releaseId)).toMatchObject([{ kind: "master", state: "accepted" }]);
    // Not an unfinished upload of the upload page.
    expect((await call(c.t, c.headers, "GET", "/api/upload/resumable")).body.uploads).toEqual([]);
  });

  it("takes 16-bit and float WAV at 44.1 kHz; a 96 kHz file is taken and noted", async () => {
    await send(c, "master", "m16.wav", wavFile(demoPcm, 16));
    expect(await material(c)).toMatchObject({ state: "accepted", report: { bits: 16, encoding: "int" } });
    await send(c, "master", "mf.wav", wavFile(demoPcm, "float"));
    expect(await material(c)).toMatchObject({ state: "accepted", report: { bits: 32, encoding: "float" } });
    await send(c, "master", "m96.wav", wavFile(resample(demoPcm, 96_000), 24));
    expect(await material(c)).toMatchObject({
      state: "accepted",
      report: { sample_rate_hz: 96_000, flags: ["high_sample_rate"], fingerprint: { same: true } },
    });
  });

  it("refuses 8-bit and 22.05 kHz files, and bytes that are not audio, each with its reason", async () => {
    const master = `${fixtures}master/`;
    await send(c, "master", "m8.wav", await Deno.readFile(`${master}pcm8-44k.wav`));
    expect(await material(c)).toMatchObject({
      state: "refused",
      reason: "Разрядность 8 бит не подходит: нужен PCM 16 или 24 бит либо 32 бит с плавающей точкой.",
      report: { bits: 8 },
    });
    await send(c, "master", "m22.wav", await Deno.readFile(`${master}pcm16-22k.wav`));
    expect(await material(c)).toMatchObject({
      state: "refused",
      reason: "Частота дискретизации 22,05 кГц не подходит: нужна 44,1 или 48 кГц (выше тоже можно).",
    });
    await send(c, "master", "mp3.wav", await Deno.readFile(DEMO));
    expect(await material(c)).toMatchObject({ state: "refused", reason: MATERIAL_REASONS.unknown });
  });

  it("compares the length with the demo's: a master 7 s longer is refused, an extended mix longer is taken", async () => {
    await send(c, "master", "long.wav", wavFile(pad(demoPcm, 0, 7), 16));
    expect(await material(c)).toMatchObject({
      state: "refused",
      reason:
        "Длительность файла 0:19 отличается от принятого демо (0:12) больше чем на 5 с. Пришлите мастер той же версии трека.",
    });
    await send(c, "master", "tail.wav", wavFile(pad(demoPcm, 0, 4), 16));
    expect(await material(c)).toMatchObject({ state: "accepted" });
    // An extended mix: 20 s more intro; its audio found 20 s in.
    await send(c, "extended", "ext.wav", wavFile(pad(demoPcm, 20, 0), 16));
    const ext = await material(c, "extended");
    expect(ext).toMatchObject({ state: "accepted", report: { fingerprint: { same: true } } });
    expect(await send(c, "extended", "short.wav", wavFile(cut(demoPcm, 5), 16))).toMatchObject({ status: 200 });
    expect(await material(c, "extended")).toMatchObject({
      state: "refused",
      reason: "Extended-версия (0:05) короче принятого демо (0:12): она должна быть длиннее.",
    });
  });

  it("refuses another song of the same tempo and key; takes a louder remaster, flagging its true peak", async () => {
    await send(c, "master", "other.wav", wavFile(otherPcm, 24));
    const other = await material(c);
    expect(other).toMatchObject({ state: "refused", reason: MATERIAL_REASONS.notSameRecording });
    expect((other.report as { fingerprint: { same: boolean; ber: number } }).fingerprint.same).toBe(false);

    await send(c, "master", "louder.wav", wavFile(gain(demoPcm, 4), 24));
    const louder = await material(c);
    expect(louder).toMatchObject({ state: "accepted", report: { fingerprint: { same: true } } });
    const r = louder.report as {
      loudness_lufs: number;
      true_peak_dbtp: number;
      clipped_samples: number;
      flags: string[];
    };
    expect(r.loudness_lufs).toBeGreaterThan(-9);
    expect(r.true_peak_dbtp).toBeGreaterThan(-0.1);
    expect(r.clipped_samples).toBeGreaterThan(0);
    expect(r.flags).toEqual(["true_peak_over", "clipped"]);

    // Full scale without clipping: the true peak alone flagged.
    await send(c, "instrumental", "peak.wav", wavFile(normalise(demoPcm, 0.999), "float"));
    const peak = await material(c, "instrumental");
    expect(peak).toMatchObject({ state: "accepted", report: { flags: ["true_peak_over"] } });
  });

  it("replaces a kind's file: the old stored file goes, the new one is checked", async () => {
    await send(c, "master", "first.wav", wavFile(otherPcm, 16));
    const first = await material(c);
    expect(first.state).toBe("refused");
    await send(c, "master", "second.wav", wavFile(demoPcm, 16));
    const second = await material(c);
    expect(second).toMatchObject({ state: "accepted", filename: "second.wav" });
    expect(second.storage_key).not.toBe(first.storage_key);
    expect(await c.t.ctx.storage.stat(first.storage_key)).toBeNull();
  });

  it("refuses a start for another's release, a closed one, a wrong name or size, with the reason", async () => {
    const wav = { filename: "m.wav", size: 1000, kind: "master", release_id: c.releaseId };
    const start = (body: unknown, headers = c.headers) => call(c.t, headers, "POST", "/api/upload/resumable", body);
    const stranger = await createUser(c.t.ctx.db);
    expect(await start(wav, (await signIn(c.t.ctx, stranger)).headers)).toEqual({
      status: 404,
      body: { success: false, error: "Релиз не найден." },
    });
    expect((await start({ ...wav, release_id: 999_999 })).status).toBe(404);
    const [{ track_id }] = await c.t.ctx.db.select().from(releases).where(eq(releases.id, c.releaseId));
    await c.t.ctx.db.update(releases).set({ direction: "label_koster" }).where(eq(releases.id, c.releaseId));
    const scheduled = await addRelease(c.t, track_id, "scheduled");
    expect(await start({ ...wav, release_id: scheduled })).toMatchObject({ status: 409 });
    expect(await start({ ...wav, filename: "Artist - Title.mp3" })).toEqual({
      status: 400,
      body: {
        success: false,
        error: "Файл «Artist - Title.mp3» не подходит: нужен WAV, FLAC или AIFF (.wav, .flac, .aif, .aiff).",
      },
    });
    for (const name of ["master.flac", "master.AIFF", "master.aif"]) {
      expect((await start({ ...wav, filename: name })).status).toBe(201);
    }
    expect(await start({ ...wav, size: 41 * 1024 * 1024 })).toMatchObject({ status: 413 });
    expect(await start({ ...wav, size: 0 })).toMatchObject({ status: 400 });
    expect(await start({ ...wav, kind: "stems" })).toMatchObject({ status: 400 });
    expect(await start({ filename: "m.wav", size: 10, kind: "master" })).toEqual({
      status: 400,
      body: { success: false, error: "Поле release_id: номер релиза." },
    });
    expect(await start({ ...wav, release_id: "1" })).toMatchObject({ status: 400 });
  });

  it("a release scheduled while its file was being sent takes it no more", async () => {
    const bytes = wavFile(demoPcm, 16);
    const s = await call(c.t, c.headers, "POST", "/api/upload/resumable", {
      filename: "m.wav",
      size: bytes.length,
      kind: "master",
      release_id: c.releaseId,
    });
    const u = s.body.upload;
    for (let n = 1; n <= u.part_count; n++) {
      await call(
        c.t,
        c.headers,
        "PUT",
        `/api/upload/resumable/${u.id}/parts/${n}`,
        bytes.subarray((n - 1) * u.part_size, n * u.part_size),
      );
    }
    await c.t.ctx.db.update(releases).set({ stage: "scheduled" }).where(eq(releases.id, c.releaseId));
    expect(await call(c.t, c.headers, "POST", `/api/upload/resumable/${u.id}/complete`)).toMatchObject({ status: 409 });
    expect(await material(c)).toBeUndefined();
  });

  it("checks again at start the files a stopped process left checking", async () => {
    const bytes = wavFile(demoPcm, 24);
    await c.t.ctx.storage.write("ab/left-checking", ReadableStream.from([bytes]));
    await c.t.ctx.db.insert(releaseMaterials).values({
      release_id: c.releaseId,
      kind: "master",
      state: "checking",
      filename: "m.wav",
      size: bytes.length,
      storage_key: "ab/left-checking",
    });
    const next = createReleaseMaterials({ ...c.t.ctx, afterMaterialsChanged: (id) => void c.changed.push(id) });
    expect(await next.resume()).toBe(1);
    await next.idle();
    expect(await material(c)).toMatchObject({ state: "accepted" });
    expect(c.changed).toEqual([c.releaseId]);
    await next.stop();
  });

  it("refuses with its reason a file missing from storage, leaving nothing checking", async () => {
    await c.t.ctx.db.insert(releaseMaterials).values({
      release_id: c.releaseId,
      kind: "master",
      state: "checking",
      filename: "m.wav",
      size: 10,
      storage_key: "ab/missing",
    });
    const next = createReleaseMaterials(c.t.ctx);
    await next.resume();
    await next.idle();
    expect(await material(c)).toMatchObject({ state: "refused", reason: MATERIAL_REASONS.missing });
    await next.stop();
  });
});

const s3 = await startS3ServerForTests({ bucket: "np-materials" });

describe.skipIf(!s3)("a release's file straight into the bucket (S3_BUCKET set, s3rver)", () => {
  afterAll(async () => {
    await s3?.stop();
  });

  it("sends the master's parts to presigned addresses and checks it from the bucket", async () => {
    const t = await createTestApp({
      env: {
        UPLOAD_PART_MB: "5",
        S3_BUCKET: s3!.bucket,
        S3_ENDPOINT: s3!.endpoint,
        S3_REGION: s3!.region,
        S3_ACCESS_KEY_ID: s3!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3!.secretAccessKey,
      },
    });
    try {
      expect(isS3Storage(t.ctx.storage)).toBe(true);
      const artist = await createUser(t.ctx.db);
      const headers = (await signIn(t.ctx, artist)).headers;
      const demo = await storedTrack(t.ctx, await Deno.readFile(DEMO), artist.id, "Print Artist - Original.mp3");
      t.ctx.processor.enqueue(demo.id);
      await t.ctx.queue.idle();
      const releaseId = await addRelease(t, demo.id);
      const bytes = wavFile(pad(resample(demoPcm, 48_000), 0, 2), 24);
      const start = await call(t, headers, "POST", "/api/upload/resumable", {
        filename: "Master.wav",
        size: bytes.length,
        kind: "master",
        release_id: releaseId,
      });
      expect(start.status).toBe(201);
      const u = start.body.upload;
      expect(u).toMatchObject({ mode: "s3", part_count: 1 });
      const put = await fetch(u.part_urls["1"], { method: "PUT", body: bytes as Uint8Array<ArrayBuffer> });
      await put.body?.cancel();
      expect(put.status).toBe(200);
      expect(await call(t, headers, "POST", `/api/upload/resumable/${u.id}/complete`)).toEqual({
        status: 200,
        body: { success: true, release_id: releaseId, kind: "master" },
      });
      await t.ctx.releaseMaterials.idle();
      const [row] = await t.ctx.db.select().from(releaseMaterials).where(eq(releaseMaterials.release_id, releaseId));
      expect(row).toMatchObject({
        state: "accepted",
        size: bytes.length,
        report: { bits: 24, sample_rate_hz: 48_000 },
      });
      expect(await t.ctx.storage.stat(row.storage_key)).toMatchObject({ size: bytes.length });
    } finally {
      await t.close();
    }
  });
});

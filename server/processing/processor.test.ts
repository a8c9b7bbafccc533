import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tracks } from "../../db/schema.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { openInstance } from "../testing/second-instance.ts";
import { createTrack, createUser, signIn, storedTrack } from "../testing/factories.ts";
import { allTracks, dirPart, filePart, fixture, FIXTURES, postUpload, storedFiles } from "../testing/upload-helpers.ts";
import { PROCESSING_ERRORS } from "./analyse-track.ts";
import { createProcessor } from "./processor.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedIn(app: TestApp = t) {
  const user = await createUser(app.ctx.db);
  return { user, headers: (await signIn(app.ctx, user)).headers };
}

/** The fingerprint fixtures (scripts/make-fingerprint-fixtures.ts). */
const printFixture = (name: string) => fixture(`fingerprint/${name}`);

async function row(app: TestApp, id: number) {
  const [r] = await app.ctx.db.select().from(tracks).where(eq(tracks.id, id));
  return r;
}

describe("the same recording, however re-encoded (issue 25)", () => {
  // A database per test: the earliest matching track is the one named.
  let f: TestApp;
  beforeEach(async () => {
    f = await createTestApp();
  });
  afterEach(() => f.close());

  it("fails the same person's re-encode of their earlier track as a duplicate (the fingerprint, issue 25)", async () => {
    const a = await signedIn(f);
    const first = await postUpload(f, a.headers, [
      filePart("Print Artist - Original.mp3", printFixture("Print Artist - Original.mp3")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    expect((await row(f, first.body.track_ids[0])).status).toBe("completed");

    // Other bytes (128 kbps, another name), the same recording.
    const again = await postUpload(f, a.headers, [
      filePart("Print Artist - Remaster.mp3", printFixture("Print Artist - Copy 128.mp3")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    expect(await row(f, again.body.track_ids[0])).toMatchObject({
      status: "failed",
      error: PROCESSING_ERRORS.duplicate,
      storage_key: null,
      same_audio_as: null,
    });
    const errors = await (await f.app.request("/api/errors", { headers: a.headers })).json();
    expect(errors).toEqual({ errors: [`Print Artist - Remaster.mp3: ${PROCESSING_ERRORS.duplicate}`] });

    // Another groove of theirs at the same tempo and key is a new track.
    const groove = await postUpload(f, a.headers, [
      filePart("Print Artist - Other Groove.mp3", printFixture("Print Artist - Other Groove.mp3")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    expect(await row(f, groove.body.track_ids[0])).toMatchObject({ status: "completed", same_audio_as: null });
  });

  it("accepts another person's re-encode of a track and tells only staff whose recording it is", async () => {
    const a = await signedIn(f);
    const first = await postUpload(f, a.headers, [
      filePart("Print Artist - Original.mp3", printFixture("Print Artist - Original.mp3")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    const originalId = first.body.track_ids[0] as number;

    const b = await signedIn(f);
    const again = await postUpload(f, b.headers, [
      filePart("Someone Else - Renamed.mp3", printFixture("Print Artist - Copy V0.mp3")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    const copyId = again.body.track_ids[0] as number;
    expect(await row(f, copyId)).toMatchObject({ status: "completed", error: null, same_audio_as: originalId });

    const admin = await createUser(f.ctx.db, { is_admin: true });
    const staff = (await signIn(f.ctx, admin)).headers;
    const original = await row(f, originalId);
    const detail = await (await f.app.request(`/api/admin/tracks/${copyId}`, { headers: staff })).json();
    expect(detail.track.same_audio_as).toEqual({
      track_id: originalId,
      username: a.user.username,
      upload_date: original.upload_date.toISOString(),
    });
    // Not a byte copy: the identical-bytes note stays empty.
    expect(detail.track.duplicate_of).toBeNull();
    const list = await (await f.app.request(`/api/admin/tracks?search=Renamed`, { headers: staff })).json();
    expect(list.tracks.find((x: { id: number }) => x.id === copyId).same_audio_as.track_id).toBe(originalId);
    const plain = await (await f.app.request(`/api/admin/tracks/${originalId}`, { headers: staff })).json();
    expect(plain.track.same_audio_as).toBeNull();

    // None of the uploader's answers carries it.
    for (
      const path of [
        "/api/tracks",
        "/api/tracks/history",
        `/api/status/${copyId}`,
        "/api/errors",
        "/api/success",
        "/api/track_ids",
      ]
    ) {
      const res = await f.app.request(path, { headers: b.headers });
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(text, path).not.toContain("same_audio");
      expect(text, path).not.toContain(a.user.username);
      expect(text, path).not.toContain("Print Artist - Original");
    }

    // Once the original is deleted, staff keep its number.
    expect((await f.app.request(`/api/admin/tracks/${originalId}`, { method: "DELETE", headers: staff })).status).toBe(
      200,
    );
    const after = await (await f.app.request(`/api/admin/tracks/${copyId}`, { headers: staff })).json();
    expect(after.track.same_audio_as).toEqual({ track_id: originalId, username: null, upload_date: null });
  });
});

describe("a copy at another speed, and another version (issue 38)", () => {
  let f: TestApp;
  beforeEach(async () => {
    f = await createTestApp();
  });
  afterEach(() => f.close());
  const version = (title: string) => fixture(`versions/Version Artist - ${title}.mp3`);

  it("refuses the same person's sped-up copy; accepts their mix without drums as another version, noted for staff only", async () => {
    const a = await signedIn(f);
    const first = await postUpload(f, a.headers, [
      filePart("Version Artist - Full Mix.mp3", version("Full Mix")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    const originalId = first.body.track_ids[0] as number;
    expect(await row(f, originalId)).toMatchObject({ status: "completed", similar_to_track_id: null });

    // 4 % faster and higher: the same recording, refused as today's duplicates are.
    const faster = await postUpload(f, a.headers, [
      filePart("Version Artist - Full Mix (Sped Up).mp3", version("Sped Up 4")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    expect(await row(f, faster.body.track_ids[0])).toMatchObject({
      status: "failed",
      error: PROCESSING_ERRORS.duplicate,
    });

    // The drums left out: another version, not a duplicate.
    const instrumental = await postUpload(f, a.headers, [
      filePart("Version Artist - Full Mix (No Drums).mp3", version("Without Drums")),
      dirPart("label_koster"),
    ]);
    await f.ctx.queue.idle();
    const instrumentalId = instrumental.body.track_ids[0] as number;
    expect(await row(f, instrumentalId)).toMatchObject({
      status: "completed",
      error: null,
      same_audio_as: null,
      similar_to_track_id: originalId,
    });

    const admin = await createUser(f.ctx.db, { is_admin: true });
    const staff = (await signIn(f.ctx, admin)).headers;
    const detail = await (await f.app.request(`/api/admin/tracks/${instrumentalId}`, { headers: staff })).json();
    expect(detail.track.similar_to_track_id).toBe(originalId);
    expect(detail.track.same_audio_as).toBeNull();
    const plain = await (await f.app.request(`/api/admin/tracks/${originalId}`, { headers: staff })).json();
    expect(plain.track.similar_to_track_id).toBeNull();
    for (const path of ["/api/tracks", "/api/tracks/history", `/api/status/${instrumentalId}`]) {
      const text = await (await f.app.request(path, { headers: a.headers })).text();
      expect(text, path).not.toContain("similar_to");
    }
  });
});

describe("processing verdicts", () => {
  it("fails a second upload of the same audio by the same person, and does not keep its file", async () => {
    const a = await signedIn();
    const first = await postUpload(t, a.headers, [filePart("Artist - First.mp3"), dirPart("label_koster")]);
    await t.ctx.queue.idle();
    expect((await row(t, first.body.track_ids[0])).status).toBe("completed");

    const again = await postUpload(t, a.headers, [filePart("Other - Name.mp3"), dirPart("label_koster")]);
    await t.ctx.queue.idle();
    const dup = await row(t, again.body.track_ids[0]);
    expect(dup).toMatchObject({
      status: "failed",
      error: PROCESSING_ERRORS.duplicate,
      storage_key: null,
      duplicate_of: null,
    });
    const errors = await (await t.app.request("/api/errors", { headers: a.headers })).json();
    expect(errors).toEqual({ errors: [`Other - Name.mp3: ${PROCESSING_ERRORS.duplicate}`] });
  });

  it("accepts the same audio from another person, tells staff whose it copies and tells the uploader nothing", async () => {
    const bytes = fixture(FIXTURES.low);
    const a = await signedIn();
    const first = await postUpload(t, a.headers, [filePart("Original - Track.mp3", bytes), dirPart("label_koster")]);
    await t.ctx.queue.idle();
    const originalId = first.body.track_ids[0] as number;
    expect((await row(t, originalId)).status).toBe("completed");

    const b = await signedIn();
    const again = await postUpload(t, b.headers, [filePart("Copier - Track.mp3", bytes), dirPart("label_koster")]);
    await t.ctx.queue.idle();
    const copyId = again.body.track_ids[0] as number;
    const copy = await row(t, copyId);
    expect(copy).toMatchObject({ status: "completed", error: null, duplicate_of: originalId });
    expect(copy.storage_key).not.toBeNull();

    // Staff see the original's number, owner and upload date.
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const staff = (await signIn(t.ctx, admin)).headers;
    const detail = await (await t.app.request(`/api/admin/tracks/${copyId}`, { headers: staff })).json();
    const original = await row(t, originalId);
    expect(detail.track.duplicate_of).toEqual({
      id: originalId,
      username: a.user.username,
      upload_date: original.upload_date.toISOString(),
      deleted: false,
    });
    const list = await (await t.app.request(`/api/admin/tracks?search=Copier`, { headers: staff })).json();
    expect(list.tracks.find((x: { id: number }) => x.id === copyId).duplicate_of.id).toBe(originalId);
    const plain = await (await t.app.request(`/api/admin/tracks/${originalId}`, { headers: staff })).json();
    expect(plain.track.duplicate_of).toBeNull();

    // The uploader's every answer about the copy reads like any accepted upload.
    for (
      const path of [
        "/api/tracks",
        "/api/tracks/history",
        `/api/status/${copyId}`,
        "/api/errors",
        "/api/success",
        "/api/track_ids",
      ]
    ) {
      const res = await t.app.request(path, { headers: b.headers });
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(text, path).not.toContain("duplicate");
      expect(text, path).not.toContain(a.user.username);
      expect(text, path).not.toContain("уже был загружен");
      expect(text, path).not.toContain("Original - Track");
    }
    expect(await (await t.app.request("/api/errors", { headers: b.headers })).json()).toEqual({ errors: [] });

    // Once the original is deleted, staff still learn the copy's origin by number.
    expect((await t.app.request(`/api/admin/tracks/${originalId}`, { method: "DELETE", headers: staff })).status).toBe(
      200,
    );
    const after = await (await t.app.request(`/api/admin/tracks/${copyId}`, { headers: staff })).json();
    expect(after.track.duplicate_of).toEqual({ id: originalId, username: null, upload_date: null, deleted: true });
  });

  it("lets exactly one of two copies in one batch complete", async () => {
    const u = await signedIn();
    const data = fixture(FIXTURES.mono);
    const { body } = await postUpload(t, u.headers, [
      filePart("Copy - One.mp3", data),
      filePart("Copy - Two.mp3", data),
      dirPart("podcast_koster"),
    ]);
    await t.ctx.queue.idle();
    const rows = await Promise.all(body.track_ids.map((id: number) => row(t, id)));
    expect(rows.map((r) => r.status).sort()).toEqual(["completed", "failed"]);
    expect(rows.find((r) => r.status === "failed")!.error).toBe(PROCESSING_ERRORS.duplicate);
  });

  it("fails an empty file", async () => {
    const u = await signedIn();
    const { res, body } = await postUpload(t, u.headers, [
      filePart("Empty - File.mp3", new Uint8Array()),
      dirPart("label_koster"),
    ]);
    expect(res.status).toBe(200);
    await t.ctx.queue.idle();
    expect(await row(t, body.track_ids[0])).toMatchObject({ status: "failed", error: PROCESSING_ERRORS.empty });
  });

  it("fails an MPEG layer II file as not MP3", async () => {
    // A layer II frame header (MPEG 1, 192 kbps, 44.1 kHz) repeated: MPEG audio, but not MP3.
    const frame = new Uint8Array(626);
    frame.set([0xff, 0xfd, 0xa0, 0x00]);
    const data = new Uint8Array(frame.byteLength * 50);
    for (let i = 0; i < 50; i++) data.set(frame, i * frame.byteLength);
    const u = await signedIn();
    const { body } = await postUpload(t, u.headers, [filePart("Layer - Two.mp3", data), dirPart("label_koster")]);
    await t.ctx.queue.idle();
    const r = await row(t, body.track_ids[0]);
    expect(r.status).toBe("failed");
    expect(r.error).toMatch(/^Файл не является аудио в формате MP3/);
  });
});

describe("a store without local paths (an object store)", () => {
  it("judges every fixture as the local store does", async () => {
    const app = await createTestApp();
    try {
      const { user } = await signedIn(app);
      const remote: FileStorage = { ...app.ctx.storage, localPath: () => null };
      const p = createProcessor({ ...app.ctx, storage: remote }, { retryDelayMs: 1 });
      const ids: Record<string, number> = {};
      for (const name of Object.values(FIXTURES)) {
        ids[name] = (await storedTrack(app.ctx, fixture(name), user.id, name)).id;
        p.enqueue(ids[name]);
      }
      await app.ctx.queue.idle();
      const state = async (name: string) => {
        const r = await row(app, ids[name]);
        return [r.status, r.duration, r.bitrate, r.error];
      };
      expect(await state(FIXTURES.amen)).toEqual(["completed", 8046, 320000, null]);
      expect(await state(FIXTURES.low)).toEqual(["completed", 8046, 128000, null]);
      expect(await state(FIXTURES.mono)).toEqual(["completed", 5040, 320000, null]);
      expect((await state(FIXTURES.cut)).slice(0, 2)).toEqual(["completed", 444]);
      expect((await state(FIXTURES.wave))[0]).toBe("failed");
      expect(await state(FIXTURES.text)).toEqual(["failed", null, null, PROCESSING_ERRORS.notMp3]);
    } finally {
      await app.close();
    }
  });
});

describe("retries", () => {
  function flaky(failures: number, calls: { n: number }): FileStorage {
    return {
      ...t.ctx.storage,
      // No local path: the job reads through `read`, which fails on demand.
      localPath: () => null,
      read(key) {
        calls.n++;
        if (calls.n <= failures) return Promise.reject(new Error("disk hiccup"));
        return t.ctx.storage.read(key);
      },
    };
  }

  it("retries a job that throws and completes it", async () => {
    const { user } = await signedIn();
    const track = await storedTrack(t.ctx, fixture(FIXTURES.low), user.id, "Retry - Once.mp3");
    const calls = { n: 0 };
    const p = createProcessor({ ...t.ctx, storage: flaky(1, calls) }, { retryDelayMs: 1 });
    p.enqueue(track.id);
    await t.ctx.queue.idle();
    expect(await row(t, track.id)).toMatchObject({ status: "completed", attempts: 2, bitrate: 128000 });
  });

  it("gives up after PROCESSING_MAX_ATTEMPTS and fails the track with its error", async () => {
    const { user } = await signedIn();
    const track = await storedTrack(t.ctx, fixture(FIXTURES.low), user.id, "Retry - Never.mp3");
    const calls = { n: 0 };
    const p = createProcessor({ ...t.ctx, storage: flaky(Infinity, calls) }, { retryDelayMs: 1 });
    p.enqueue(track.id);
    await t.ctx.queue.idle();
    const max = t.ctx.config.processingMaxAttempts;
    expect(calls.n).toBe(max);
    expect(await row(t, track.id)).toMatchObject({
      status: "failed",
      attempts: max,
      error: PROCESSING_ERRORS.exhausted(max),
    });
    // A transient failure is no verdict on the content: the file stays for a later look.
    expect((await row(t, track.id)).storage_key).not.toBeNull();
  });

  it("does not queue a track twice", async () => {
    const { user } = await signedIn();
    const track = await storedTrack(t.ctx, fixture(FIXTURES.vbr), user.id, "Queued - Twice.mp3");
    t.ctx.processor.enqueue(track.id);
    t.ctx.processor.enqueue(track.id);
    await t.ctx.queue.idle();
    expect(await row(t, track.id)).toMatchObject({ status: "completed", attempts: 1 });
  });
});

describe("restart", () => {
  it("finishes every track left `processing` by the previous process", async () => {
    const first = await createTestApp();
    try {
      const { user, headers } = await signedIn(first);
      // The process dies before its jobs run: the queue takes nothing more.
      await first.ctx.queue.close();
      const { res, body } = await postUpload(first, headers, [
        filePart(FIXTURES.amen, fixture(FIXTURES.amen)),
        filePart(FIXTURES.text, fixture(FIXTURES.text)),
        filePart(FIXTURES.mono, fixture(FIXTURES.mono)),
        dirPart("label_neuropunk"),
      ]);
      expect(res.status).toBe(200);
      // One of them was in the middle of its first attempt.
      await first.ctx.db.update(tracks).set({ attempts: 1 }).where(eq(tracks.id, body.track_ids[0]));
      expect((await allTracks(first)).map((r) => r.status)).toEqual(["processing", "processing", "processing"]);
      // A track staff created without a file is not the processor's business.
      const noFile = await createTrack(first.ctx.db, { user_id: user.id, status: "processing", storage_key: null });

      const second = await openInstance(first);
      try {
        expect(await second.ctx.processor.resume()).toBe(3);
        await second.ctx.queue.idle();
        const rows = Object.fromEntries((await allTracks(first)).map((r) => [r.filename, r]));
        expect(rows[FIXTURES.amen]).toMatchObject({ status: "completed", attempts: 2 });
        expect(rows[FIXTURES.mono]).toMatchObject({ status: "completed", attempts: 1 });
        expect(rows[FIXTURES.text]).toMatchObject({ status: "failed", error: PROCESSING_ERRORS.notMp3 });
        expect(rows[noFile.filename].status).toBe("processing");

        // The new process answers the pages from the database (its status store is empty).
        for (const id of body.track_ids) {
          const s = await (await second.app.request(`/api/status/${id}`, { headers })).json();
          expect(s.status).not.toBe("processing");
        }
        const ids = await (await second.app.request("/api/track_ids", { headers })).json();
        expect(ids).toEqual({ track_ids: body.track_ids });
        const errors = await (await second.app.request("/api/errors", { headers })).json();
        expect(errors.errors).toEqual([`${FIXTURES.text}: ${PROCESSING_ERRORS.notMp3}`]);
        expect((await storedFiles(first)).length).toBe(2);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });

  it("fails a track whose attempts ran out across restarts, keeping its file", async () => {
    const { user } = await signedIn();
    const track = await storedTrack(t.ctx, fixture(FIXTURES.amen), user.id, "Crashed - Often.mp3");
    const max = t.ctx.config.processingMaxAttempts;
    await t.ctx.db.update(tracks).set({ attempts: max }).where(eq(tracks.id, track.id));
    await t.ctx.processor.resume();
    await t.ctx.queue.idle();
    expect(await row(t, track.id)).toMatchObject({
      status: "failed",
      error: PROCESSING_ERRORS.exhausted(max),
      storage_key: track.storage_key,
    });
  });
});

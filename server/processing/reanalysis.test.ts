/**
 * Issue 22, re-analysis (docs/decisions/0217): reports of an older analyser are analysed again in
 * the background, leased so two instances never take the same track, only while no upload waits
 * for processing, writing the report alone (never the track's status, review or messages), and
 * keeping the old report when the file is gone or analysis fails.
 */
import { createClient } from "@libsql/client";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Buffer } from "node:buffer";
import {
  directionIntake,
  telegramOutbox,
  trackAnalysis,
  trackDecisions,
  trackFingerprints,
  tracks,
} from "../../db/schema.ts";
import { analyseMp3Frames } from "../audio/analyse-mp3.ts";
import { FINGERPRINT_VERSION } from "../audio/fingerprint-codes.ts";
import { printToBytes } from "../audio/fingerprint-index.ts";
import { parseConfig } from "../config.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { analysisReport, createUser, storedTrack } from "../testing/factories.ts";
import { openInstance } from "../testing/second-instance.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { fixture, FIXTURES, FIXTURES_DIR } from "../testing/upload-helpers.ts";
import { ANALYSIS_VERSION, REANALYSIS_MAX_ATTEMPTS } from "./analysis.ts";
import { PROCESSING_ERRORS } from "./analyse-track.ts";
import { createReanalysis, REANALYSIS_RETRY_MS } from "./reanalysis.ts";
import { startS3ServerForTests } from "../testing/s3-server.ts";
import { forgetRules } from "../intake/rules.ts";

/** The app's clock, moved by the tests (leases and retry pauses are read on it). */
let nowMs = Date.UTC(2026, 10, 25, 12);
const clock = { now: () => new Date(nowMs) };

let f: StaffFixture;
beforeAll(async () => (f = await staffFixture({ clock })));
afterAll(() => f.close());

const report = async (id: number) =>
  (await f.t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, id)))[0];
const trackRow = async (id: number) => (await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, id)))[0];

/** A completed track with its file and a report written by the previous analyser (version 1). */
async function olderTrack(
  file: string = FIXTURES.low,
  values: Parameters<StaffFixture["trackWithFile"]>[1] = {},
  on: StaffFixture = f,
) {
  const track = await on.trackWithFile(file, { directions: "label_koster", ...values });
  await on.t.ctx.processing.analysis.save(
    track.id,
    analysisReport({ bpm: 113.3, drop_s: 1.5, key: null, camelot: null, key_confidence: null, warnings: ["clipping"] }),
  );
  await on.t.ctx.db.update(trackAnalysis).set({ analysis_version: 1 }).where(eq(trackAnalysis.track_id, track.id));
  return track;
}

/** Runs the instance's re-analysis until nothing is due; the tracks it analysed again. */
async function drain(runner = f.t.ctx.reanalysis): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const step = await runner.runOnce();
    if (typeof step !== "number") return done;
    done.push(step);
  }
}

beforeEach(async () => {
  // Each test starts with nothing left to analyse again from an earlier one.
  await f.t.ctx.queue.idle();
  await drain();
});

describe("storage", () => {
  it("the migration keeps existing reports as version 1, with no key", async () => {
    const dir = await Deno.makeTempDir({ prefix: "np-migrate-" });
    try {
      const source = new URL("../../db/migrations/", import.meta.url);
      const journal = JSON.parse(await Deno.readTextFile(new URL("meta/_journal.json", source)));
      const entries = journal.entries as Array<{ tag: string }>;
      const mine = entries.findIndex((e) => e.tag === "0018_track_analysis_key_and_version");
      expect(mine).toBeGreaterThan(0);
      // The database as it was before this migration: every migration before it applied.
      await Deno.mkdir(`${dir}/before/meta`, { recursive: true });
      for (const e of entries.slice(0, mine)) {
        await Deno.copyFile(new URL(`${e.tag}.sql`, source), `${dir}/before/${e.tag}.sql`);
      }
      await Deno.writeTextFile(
        `${dir}/before/meta/_journal.json`,
        JSON.stringify({ ...journal, entries: entries.slice(0, mine) }),
      );
      const client = createClient({ url: `file:${dir}/app.db` });
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: `${dir}/before` });
      await db.run(sql`INSERT INTO tracks (id, filename, directions, upload_date, status)
        VALUES (1, 'A - B.mp3', 'label_koster', 0, 'completed')`);
      await db.run(sql`INSERT INTO track_analysis (track_id, duration_s, bpm, drop_s, warnings, analysed_at)
        VALUES (1, 200, 174, 60, '', 0)`);
      await migrate(db, { migrationsFolder: source.pathname });
      const rows = await db.all<Record<string, unknown>>(sql`SELECT * FROM track_analysis`);
      client.close();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        bpm: 174,
        drop_s: 60,
        musical_key: null,
        camelot: null,
        key_confidence: null,
        analysis_version: 1,
        reanalysis_attempts: 0,
        reanalysis_error: null,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("every report written now carries the current version and the key", async () => {
    expect(ANALYSIS_VERSION).toBeGreaterThan(1);
    const track = await f.trackWithFile(FIXTURES.low);
    await f.t.ctx.processing.analysis.save(
      track.id,
      analysisReport({ key: "F minor", camelot: "4A", key_confidence: 0.7 }),
    );
    expect(await report(track.id)).toMatchObject({
      musical_key: "F minor",
      camelot: "4A",
      key_confidence: 0.7,
      analysis_version: ANALYSIS_VERSION,
    });
    const body = (await f.call("GET", `/api/admin/tracks/${track.id}`)).body as { track: { analysis: object } };
    expect(body.track.analysis).toMatchObject({ key: "F minor", camelot: "4A" });
  });

  it("REANALYSIS is on by default and turned off by false or 0; anything else stops the server", () => {
    expect(parseConfig({}).reanalysis).toBe(true);
    expect(parseConfig({ REANALYSIS: "true" }).reanalysis).toBe(true);
    expect(parseConfig({ REANALYSIS: "false" }).reanalysis).toBe(false);
    expect(parseConfig({ REANALYSIS: "0" }).reanalysis).toBe(false);
    expect(() => parseConfig({ REANALYSIS: "off" })).toThrow(/REANALYSIS/);
  });
});

describe("re-analysis", () => {
  it("analyses older reports again and leaves current ones alone", async () => {
    const older = await olderTrack();
    const current = await f.trackWithFile(FIXTURES.low);
    await f.t.ctx.processing.analysis.save(current.id, analysisReport({ bpm: 150 }));
    const before = await report(current.id);
    nowMs += 1000;

    expect(await drain()).toEqual([older.id]);
    const after = await report(older.id);
    expect(after).toMatchObject({
      analysis_version: ANALYSIS_VERSION,
      bitrate_kbps: 128,
      warnings: "low_bitrate",
      error: null,
      reanalysis_owner: null,
      reanalysis_error: null,
    });
    // The new analyser's figures replace the old ones (the fixture is 8 s of sound, no 113.3 BPM).
    expect(after.bpm).not.toBe(113.3);
    expect(after.duration_s).toBeCloseTo(8, 0);
    expect(JSON.parse(after.peaks!)).toHaveLength(1000);
    expect(after.analysed_at.getTime()).toBe(nowMs);
    expect(await report(current.id)).toEqual(before);
    // Nothing is due any more, so the loop ends.
    expect(await f.t.ctx.processing.analysis.nextReanalysisAt()).toBeNull();
  });

  it("stores the fingerprint again with the report: an older version's is replaced, and then found (issue 38)", async () => {
    // 40 s: long enough to be matched (an 8 s track never is, 0247).
    const LONG = "Long Artist - Forty Seconds.mp3";
    const older = await olderTrack(LONG);
    // A fingerprint of the version before (never compared), as issue 25's analyser stored it.
    await f.t.ctx.db.insert(trackFingerprints).values({
      track_id: older.id,
      codes: Buffer.from(new Uint8Array(400).fill(7)),
      version: FINGERPRINT_VERSION - 1,
    });
    const file = await Deno.open(new URL(encodeURIComponent(LONG), FIXTURES_DIR));
    const print = (await analyseMp3Frames(file.readable)).fingerprint;
    // The query as another track (not processing: an upload waiting would hold the re-analysis back).
    const query = await f.trackWithFile(FIXTURES.low, { status: "failed" });
    expect((await f.t.ctx.processing.fingerprints.lookup(query.id, print)).map((m) => m.trackId)).not.toContain(
      older.id,
    );
    nowMs += 1000;

    expect(await drain()).toEqual([older.id]);
    const [stored] = await f.t.ctx.db.select().from(trackFingerprints).where(eq(trackFingerprints.track_id, older.id));
    expect(stored.version).toBe(FINGERPRINT_VERSION);
    expect(new Uint8Array(stored.codes)).toEqual(printToBytes(print));
    expect((await f.t.ctx.processing.fingerprints.lookup(query.id, print)).map((m) => [m.trackId, m.kind]))
      .toContainEqual(
        [older.id, "same"],
      );
  });

  it("keeps the direction's tempo window: a new tempo outside it is flagged, never refused after the fact", async () => {
    const older = await olderTrack("Synth Artist - Clipped Drop.mp3"); // 174 BPM
    // Лейбл Костёр now takes only 60–61 BPM and refuses the rest at upload (issue 25).
    await f.t.ctx.db.insert(directionIntake).values({
      direction: "label_koster",
      tempo_min: 60,
      tempo_max: 61,
      tempo_mode: "refuse",
      updated_at: new Date(nowMs),
    }).onConflictDoUpdate({
      target: directionIntake.direction,
      set: { tempo_min: 60, tempo_max: 61, tempo_mode: "refuse" },
    });
    forgetRules(f.t.ctx.db);
    try {
      nowMs += 1000;
      expect(await drain()).toEqual([older.id]);
      const after = await report(older.id);
      expect(after.bpm).not.toBeNull();
      expect(after.warnings!.split(",")).toContain("tempo_outside_window");
      expect((await trackRow(older.id)).status).toBe("completed");
    } finally {
      await f.t.ctx.db.delete(directionIntake).where(eq(directionIntake.direction, "label_koster"));
      forgetRules(f.t.ctx.db);
    }
  });

  it("also tries an older report that recorded a decode failure; a track without its file is skipped", async () => {
    const failed = await f.trackWithFile(FIXTURES.low);
    await f.t.ctx.processing.analysis.saveError(failed.id, "old decoder refused it");
    await f.t.ctx.db.update(trackAnalysis).set({ analysis_version: 1 }).where(eq(trackAnalysis.track_id, failed.id));
    const noFile = await olderTrack();
    await f.t.ctx.db.update(tracks).set({ storage_key: null }).where(eq(tracks.id, noFile.id));

    expect(await drain()).toEqual([failed.id]);
    expect(await report(failed.id)).toMatchObject({
      error: null,
      bitrate_kbps: 128,
      analysis_version: ANALYSIS_VERSION,
    });
    expect(await report(noFile.id)).toMatchObject({ analysis_version: 1, bpm: 113.3 });
  });

  it("writes only the report: status, downloaded, review state and messages stay as they were", async () => {
    const artist = await createUser(f.t.ctx.db, { telegram_id: `tg-${crypto.randomUUID().slice(0, 8)}` });
    const track = await olderTrack(FIXTURES.low, { user_id: artist.id, downloaded: true });
    await f.t.ctx.db.insert(trackDecisions).values({
      track_id: track.id,
      direction: "label_koster",
      status: "accepted",
      message: "Берём",
      decided_by: f.admin.id,
      decided_at: new Date(nowMs),
      revision: 1,
    });
    const rowBefore = await trackRow(track.id);
    const decisionsBefore = await f.t.ctx.db.select().from(trackDecisions).where(
      eq(trackDecisions.track_id, track.id),
    );
    const [{ n: messagesBefore }] = await f.t.ctx.db.select({ n: sql<number>`count(*)` }).from(telegramOutbox);

    expect(await drain()).toEqual([track.id]);
    expect(await trackRow(track.id)).toEqual(rowBefore);
    expect(await f.t.ctx.db.select().from(trackDecisions).where(eq(trackDecisions.track_id, track.id))).toEqual(
      decisionsBefore,
    );
    const [{ n: messagesAfter }] = await f.t.ctx.db.select({ n: sql<number>`count(*)` }).from(telegramOutbox);
    expect(messagesAfter).toBe(messagesBefore);
    const staff = (await f.call("GET", `/api/admin/tracks/${track.id}`)).body.track as Record<string, unknown>;
    expect(staff).toMatchObject({ status: "completed", downloaded: true });
    expect((await report(track.id)).analysis_version).toBe(ANALYSIS_VERSION);
  });

  it("waits while an upload's processing is queued, running or unclaimed, then goes on", async () => {
    const older = await olderTrack();
    const artist = await createUser(f.t.ctx.db);
    // An upload nobody has claimed yet (another instance's, or one this instance has not swept).
    const upload = await storedTrack(f.t.ctx, fixture(FIXTURES.amen), artist.id);
    expect(await f.t.ctx.reanalysis.runOnce()).toBe("busy");
    // This instance's processing queue has work: still waiting.
    f.t.ctx.processor.enqueue(upload.id);
    expect(f.t.ctx.queue.size + f.t.ctx.queue.running).toBeGreaterThan(0);
    expect(await f.t.ctx.reanalysis.runOnce()).toBe("busy");
    expect((await report(older.id)).analysis_version).toBe(1);

    await f.t.ctx.queue.idle();
    expect((await trackRow(upload.id)).status).toBe("completed");
    expect(await drain()).toEqual([older.id]);
  });

  it("an upload queued mid-track: the re-analysis stops, gives the track back uncounted, and ends later", async () => {
    const older = await olderTrack();
    const bytes = fixture(FIXTURES.low);
    let release!: () => void;
    const uploadJob = new Promise<void>((resolve) => (release = resolve));
    let chunks = 0;
    let uploaded = false;
    // The stored file in small chunks; after the first, an upload's job arrives on the queue.
    const slow: FileStorage = {
      ...f.t.ctx.storage,
      localPath: () => null,
      read: () =>
        Promise.resolve({
          size: bytes.length,
          body: new ReadableStream<Uint8Array>({
            pull(c) {
              const from = chunks * 16_384;
              if (from >= bytes.length) return c.close();
              c.enqueue(bytes.slice(from, from + 16_384));
              chunks++;
              if (!uploaded) {
                uploaded = true;
                f.t.ctx.queue.push(() => uploadJob);
              }
            },
          }),
        }),
    };
    const runner = createReanalysis({ ...f.t.ctx, storage: slow, tracks: f.t.ctx.tracks }, { owner: "gives-way" });
    expect(await runner.runOnce()).toBe("busy");
    expect(chunks).toBeLessThan(Math.ceil(bytes.length / 16_384));
    expect(await report(older.id)).toMatchObject({
      analysis_version: 1,
      bpm: 113.3,
      reanalysis_owner: null,
      reanalysis_until: null,
      reanalysis_attempts: 0,
    });
    // While the upload's job runs, nothing is taken.
    expect(await runner.runOnce()).toBe("busy");
    release();
    await f.t.ctx.queue.idle();
    chunks = 0;
    expect(await runner.runOnce()).toBe(older.id);
    expect((await report(older.id)).analysis_version).toBe(ANALYSIS_VERSION);
    await runner.stop();
  });

  it("two instances: each track is analysed once, and the newest goes first", async () => {
    const olders = [await olderTrack(), await olderTrack(), await olderTrack(), await olderTrack()];
    const second = await openInstance(f.t);
    try {
      const [a, b] = await Promise.all([drain(f.t.ctx.reanalysis), drain(second.ctx.reanalysis)]);
      const all = [...a, ...b];
      expect(all.sort()).toEqual(olders.map((t) => t.id).sort());
      expect(new Set(all).size).toBe(all.length);
      for (const t of olders) expect((await report(t.id)).analysis_version).toBe(ANALYSIS_VERSION);
    } finally {
      await second.close();
    }
    const [x, y] = [await olderTrack(), await olderTrack()];
    expect(await f.t.ctx.reanalysis.runOnce()).toBe(y.id);
    expect(await f.t.ctx.reanalysis.runOnce()).toBe(x.id);
  });

  it("a track held by an instance that died is taken once its lease has ended", async () => {
    const older = await olderTrack();
    const held = await f.t.ctx.processing.analysis.claimReanalysis("dead-instance", new Date(nowMs + 60_000));
    expect(held?.id).toBe(older.id);
    expect(await f.t.ctx.reanalysis.runOnce()).toBe("none");
    expect(await f.t.ctx.processing.analysis.nextReanalysisAt()).toEqual(new Date(nowMs + 60_000));
    nowMs += 60_000;
    expect(await drain()).toEqual([older.id]);
    // The dead instance's late verdict is refused: the report is the one written above.
    expect(await f.t.ctx.processing.analysis.saveReanalysis(older.id, analysisReport({ bpm: 1 }), "dead-instance"))
      .toBe(
        false,
      );
    expect((await report(older.id)).bpm).not.toBe(1);
  });

  it("a file gone from storage, or one the decoder refuses, keeps the old report and is not tried again", async () => {
    const gone = await olderTrack();
    await f.t.ctx.storage.delete((await trackRow(gone.id)).storage_key!);
    const garbage = await olderTrack(FIXTURES.text);

    expect((await drain()).sort()).toEqual([gone.id, garbage.id].sort());
    for (const id of [gone.id, garbage.id]) {
      expect(await report(id)).toMatchObject({
        analysis_version: 1,
        bpm: 113.3,
        drop_s: 1.5,
        warnings: "clipping",
        error: null,
        reanalysis_owner: null,
        reanalysis_attempts: REANALYSIS_MAX_ATTEMPTS,
      });
    }
    expect((await report(gone.id)).reanalysis_error).toBe(PROCESSING_ERRORS.missing);
    expect((await report(garbage.id)).reanalysis_error).toMatch(/^Файл не удалось декодировать как MP3/);
    // Staff still see the old report.
    const staff = (await f.call("GET", `/api/admin/tracks/${gone.id}`)).body.track as { analysis: { bpm: number } };
    expect(staff.analysis.bpm).toBe(113.3);
    nowMs += 10 * REANALYSIS_RETRY_MS;
    expect(await f.t.ctx.reanalysis.runOnce()).toBe("none");
    expect(await f.t.ctx.processing.analysis.nextReanalysisAt()).toBeNull();
  });

  it("a storage fault keeps the old report and is tried again after a pause, at most a few times", async () => {
    const older = await olderTrack();
    let reads = 0;
    const failing: FileStorage = {
      ...f.t.ctx.storage,
      localPath: () => null,
      read: () => {
        reads++;
        return Promise.reject(new Error("bucket unreachable"));
      },
    };
    const runner = createReanalysis({ ...f.t.ctx, storage: failing, tracks: f.t.ctx.tracks }, { owner: "faulty" });
    for (let attempt = 1; attempt <= REANALYSIS_MAX_ATTEMPTS; attempt++) {
      expect(await runner.runOnce()).toBe(older.id);
      expect(await report(older.id)).toMatchObject({
        analysis_version: 1,
        bpm: 113.3,
        reanalysis_error: "bucket unreachable",
        reanalysis_attempts: attempt,
      });
      // Not again at once: no hot loop.
      expect(await runner.runOnce()).toBe("none");
      nowMs += REANALYSIS_RETRY_MS;
    }
    expect(reads).toBe(REANALYSIS_MAX_ATTEMPTS);
    expect(await runner.runOnce()).toBe("none");
    expect(await f.t.ctx.processing.analysis.nextReanalysisAt()).toBeNull();
    await runner.stop();
  });

  it("the background loop (started by the server) analyses what is due; REANALYSIS off takes nothing", async () => {
    const olders = [await olderTrack(), await olderTrack()];
    const runner = createReanalysis({ ...f.t.ctx, tracks: f.t.ctx.tracks }, { owner: "background" });
    runner.start();
    await vi.waitFor(async () => {
      for (const t of olders) expect((await report(t.id)).analysis_version).toBe(ANALYSIS_VERSION);
    }, { timeout: 20_000, interval: 100 });
    await runner.stop();
    // Off: started, it takes nothing.
    const older = await olderTrack();
    const off = createReanalysis({ ...f.t.ctx, config: { ...f.t.ctx.config, reanalysis: false } }, { owner: "off" });
    off.start();
    await off.stop();
    expect(await report(older.id)).toMatchObject({
      analysis_version: 1,
      reanalysis_owner: null,
      reanalysis_attempts: 0,
    });
  });

  it("shutting down mid-track stops the analysis and gives the track back uncounted", async () => {
    const older = await olderTrack();
    const bytes = fixture(FIXTURES.low);
    let stopping: Promise<void> | undefined;
    let sent = 0;
    const storage: FileStorage = {
      ...f.t.ctx.storage,
      localPath: () => null,
      read: () =>
        Promise.resolve({
          size: bytes.length,
          body: new ReadableStream<Uint8Array>({
            pull(c) {
              if (sent >= bytes.length) return c.close();
              c.enqueue(bytes.slice(sent, sent + 16_384));
              sent += 16_384;
              stopping ??= runner.stop(60_000);
            },
          }),
        }),
    };
    const runner = createReanalysis({ ...f.t.ctx, storage, tracks: f.t.ctx.tracks }, { owner: "stopping" });
    expect(await runner.runOnce()).toBe("busy");
    await stopping;
    expect(sent).toBeLessThan(bytes.length);
    expect(await report(older.id)).toMatchObject({
      analysis_version: 1,
      reanalysis_owner: null,
      reanalysis_attempts: 0,
    });
    expect(await drain()).toEqual([older.id]);
  });

  it("shutting down gives the lease back without counting the attempt", async () => {
    const older = await olderTrack();
    const owner = f.t.ctx.reanalysis.owner;
    expect((await f.t.ctx.processing.analysis.claimReanalysis(owner, new Date(nowMs + 60_000)))?.id).toBe(older.id);
    expect(await f.t.ctx.processing.analysis.releaseReanalysis(owner)).toBe(1);
    expect(await report(older.id)).toMatchObject({ reanalysis_owner: null, reanalysis_attempts: 0 });
    expect(await drain()).toEqual([older.id]);
  });
});

const s3 = await startS3ServerForTests({ bucket: "np-reanalysis" });
afterAll(async () => await s3?.stop());

describe.skipIf(!s3)("re-analysis with the tracks in a bucket (S3_BUCKET, s3rver)", () => {
  let g: StaffFixture;
  beforeAll(async () => {
    g = await staffFixture({
      clock,
      env: {
        S3_BUCKET: s3!.bucket,
        S3_ENDPOINT: s3!.endpoint,
        S3_REGION: s3!.region,
        S3_ACCESS_KEY_ID: s3!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3!.secretAccessKey,
      },
    });
  });
  afterAll(() => g?.close());
  const stored = async (id: number) =>
    (await g.t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, id)))[0];

  it("reads the file from the bucket; a file gone from it keeps the old report", async () => {
    expect(g.t.ctx.storage.localPath("x")).toBeNull();
    const older = await olderTrack(FIXTURES.low, {}, g);
    const gone = await olderTrack(FIXTURES.low, {}, g);
    await g.t.ctx.storage.delete(
      (await g.t.ctx.db.select().from(tracks).where(eq(tracks.id, gone.id)))[0].storage_key!,
    );
    const done: Array<number | string> = [];
    for (
      let step = await g.t.ctx.reanalysis.runOnce();
      typeof step === "number";
      step = await g.t.ctx.reanalysis.runOnce()
    ) {
      done.push(step);
    }
    expect(done.sort()).toEqual([older.id, gone.id].sort());
    expect(await stored(older.id)).toMatchObject({
      analysis_version: ANALYSIS_VERSION,
      bitrate_kbps: 128,
      warnings: "low_bitrate",
    });
    expect(await stored(gone.id)).toMatchObject({
      analysis_version: 1,
      bpm: 113.3,
      reanalysis_error: PROCESSING_ERRORS.missing,
    });
  });
});

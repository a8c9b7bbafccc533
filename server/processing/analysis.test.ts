/**
 * Issue 12, the server half: processing stores the audio report of every accepted MP3, the staff
 * track objects and the artist's own list carry it, older tracks get it in the background, and the
 * staff lists sort by its figures and filter by its warnings.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackAnalysis, tracks } from "../../db/schema.ts";
import type { AudioAnalysis } from "../audio/analyse-mp3.ts";
import { parseFrameHeader } from "../audio/mpeg-frames.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { analysisReport, createTrack, createUser, signIn } from "../testing/factories.ts";
import { naughtyStrings, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";
import { PROCESSING_ERRORS } from "./analyse-track.ts";
import { createProcessor } from "./processor.ts";

const CLIPPED = "Synth Artist - Clipped Drop.mp3";
const REPORT_KEYS = [
  "bitrate_kbps",
  "bitrate_mode",
  "bpm",
  "camelot",
  "channels",
  "clipped_samples",
  "drop_s",
  "duration_s",
  "key",
  "key_confidence",
  "loudness_lufs",
  "sample_rate_hz",
  "true_peak_dbtp",
  "warnings",
];

let f: StaffFixture;
beforeAll(async () => (f = await staffFixture({ moderatorCategories: "label_koster" })));
afterAll(() => f.close());

async function artist() {
  const user = await createUser(f.t.ctx.db);
  return { user, headers: (await signIn(f.t.ctx, user)).headers };
}

const row = async (id: number) => (await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, id)))[0];
const stored = async (id: number) =>
  (await f.t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, id)))[0];

/** Uploads files as a new artist into label_koster and waits for processing. */
async function uploaded(files: Array<[string, Uint8Array]>) {
  const a = await artist();
  const { res, body } = await postUpload(f.t, a.headers, [
    ...files.map(([name, data]) => filePart(name, data)),
    dirPart("label_koster"),
  ]);
  expect(res.status).toBe(200);
  await f.t.ctx.queue.idle();
  return { ...a, ids: body.track_ids as number[] };
}

describe("processing stores the audio report", () => {
  let ids: number[];
  let owner: Awaited<ReturnType<typeof artist>>;
  beforeAll(async () => {
    const up = await uploaded([[FIXTURES.low, fixture(FIXTURES.low)], [CLIPPED, fixture(CLIPPED)]]);
    ids = up.ids;
    owner = up;
  });

  it("warns of the 128 kbps file's bitrate, and keeps the facts processing always recorded", async () => {
    const r = await f.call("GET", `/api/admin/tracks/${ids[0]}`);
    expect(r.status).toBe(200);
    const track = r.body.track as Record<string, unknown> & { analysis: Record<string, unknown> };
    expect(Object.keys(track.analysis).sort()).toEqual(REPORT_KEYS);
    expect(track.analysis).toMatchObject({
      bitrate_kbps: 128,
      bitrate_mode: "cbr",
      sample_rate_hz: 44100,
      channels: 2,
      clipped_samples: 0,
      warnings: ["low_bitrate"],
    });
    expect(track.analysis.duration_s as number).toBeCloseTo(8, 1);
    // The fields the panels already show are as before.
    expect(track).toMatchObject({ status: "completed", duration: 8046, has_file: true });
    expect((await row(ids[0])).bitrate).toBe(128000);
  });

  it("finds the clipping, the drop and the tempo of the synthetic drum and bass track", async () => {
    const { analysis } = (await f.call("GET", `/api/admin/tracks/${ids[1]}`)).body.track as {
      analysis: AudioAnalysis;
    };
    expect(analysis.warnings).toEqual(expect.arrayContaining(["clipping", "low_bitrate"]));
    expect(analysis.clipped_samples).toBeGreaterThan(0);
    expect(analysis.true_peak_dbtp!).toBeGreaterThan(0);
    expect(Math.abs(analysis.bpm! - 174)).toBeLessThan(1);
    // The drop lands at 6 s in the source.
    expect(Math.abs(analysis.drop_s! - 6)).toBeLessThan(0.5);
    expect(analysis).toMatchObject({ channels: 1, sample_rate_hz: 44100, bitrate_kbps: 96 });
  });

  it("keeps about 1,000 waveform pairs for the player", async () => {
    const peaks = JSON.parse((await stored(ids[1])).peaks!) as [number, number][];
    expect(peaks).toHaveLength(1000);
    expect(peaks.every(([lo, hi]) => -1 <= lo && lo <= hi && hi <= 1)).toBe(true);
  });

  it("shows the report in the admin list and, within the categories, in the moderator's list and detail", async () => {
    const list = await f.call("GET", `/api/admin/tracks?filename=${encodeURIComponent("Clipped Drop")}`);
    const inList = (list.body.tracks as Array<{ id: number; analysis: AudioAnalysis | null }>).find((t) =>
      t.id === ids[1]
    );
    expect(inList?.analysis?.warnings).toContain("clipping");

    const modList = await f.call("GET", "/api/moderator/tracks", { headers: f.as.moderator });
    const seen = (modList.body.tracks as Array<{ id: number; analysis: AudioAnalysis | null }>).filter((t) =>
      ids.includes(t.id)
    );
    expect(seen.map((t) => t.analysis?.bitrate_kbps).sort()).toEqual([128, 96].sort());
    const detail = await f.call("GET", `/api/moderator/tracks/${ids[0]}`, { headers: f.as.moderator });
    expect((detail.body.track as { analysis: AudioAnalysis }).analysis.warnings).toEqual(["low_bitrate"]);

    // Outside the moderator's categories the track, report and all, does not exist for them.
    await f.t.ctx.db.update(tracks).set({ directions: "label_neuropunk" }).where(eq(tracks.id, ids[0]));
    try {
      const hidden = await f.call("GET", `/api/moderator/tracks/${ids[0]}`, { headers: f.as.moderator });
      expect(hidden.status).toBe(404);
    } finally {
      await f.t.ctx.db.update(tracks).set({ directions: "label_koster" }).where(eq(tracks.id, ids[0]));
    }
  });

  it("shows the artist the length, bitrate and warnings of their own tracks, and no one else's", async () => {
    const mine = await f.call("GET", "/api/tracks", { headers: owner.headers });
    expect(mine.status).toBe(200);
    const items = mine.body.tracks as Array<Record<string, unknown> & { analysis: Record<string, unknown> | null }>;
    const low = items.find((t) => t.id === ids[0])!;
    expect(Object.keys(low).sort()).toEqual(["analysis", "decisions", "downloaded", "filename", "id", "upload_date"]);
    expect(Object.keys(low.analysis!).sort()).toEqual(["bitrate_kbps", "duration_s", "warnings"]);
    expect(low.analysis).toMatchObject({ bitrate_kbps: 128, warnings: ["low_bitrate"] });
    const clipped = items.find((t) => t.id === ids[1])!;
    expect(clipped.analysis!.warnings).toContain("clipping");

    const other = await artist();
    const theirs = await f.call("GET", "/api/tracks", { headers: other.headers });
    expect(theirs.body.tracks).toEqual([]);
  });
});

describe("content the decoder refuses", () => {
  it("fails a file of two MPEG frames with the decoder's Russian reason, and keeps no report or file", async () => {
    // Two frames of the 128 kbps file: music-metadata and the frame count accept them, the decoder
    // (which wants a run of three consistent frames) does not.
    const two = fixture(FIXTURES.low).slice(417, 417 + 835);
    const { ids, headers } = await uploaded([["Two - Frames.mp3", two]]);
    const r = await row(ids[0]);
    expect(r).toMatchObject({ status: "failed", storage_key: null });
    expect(r.error).toBe("Файл не удалось декодировать как MP3: в нём не найдено аудиокадров MPEG.");
    expect(await stored(ids[0])).toBeUndefined();
    const errors = await f.call("GET", "/api/errors", { headers });
    expect(errors.body.errors).toEqual([`Two - Frames.mp3: ${r.error}`]);
  });

  it("fails a text file as not MP3, with the text processing always gave", async () => {
    const { ids } = await uploaded([[FIXTURES.text, fixture(FIXTURES.text)]]);
    expect(await row(ids[0])).toMatchObject({ status: "failed", error: PROCESSING_ERRORS.notMp3 });
    const r = await f.call("GET", `/api/admin/tracks/${ids[0]}`);
    expect((r.body.track as { analysis: unknown }).analysis).toBeNull();
  });

  it("reads the stored file once per attempt (one pass feeds the checks and the analysis)", async () => {
    const { user } = await artist();
    const key = `tracks/${crypto.randomUUID()}`;
    await f.t.ctx.storage.write(key, ReadableStream.from([fixture(FIXTURES.amen)]));
    const track = await createTrack(f.t.ctx.db, { user_id: user.id, storage_key: key, status: "processing" });
    const reads = { n: 0 };
    // No local path: every byte goes through `read`.
    const counting: FileStorage = {
      ...f.t.ctx.storage,
      localPath: () => null,
      read(k, o) {
        reads.n++;
        return f.t.ctx.storage.read(k, o);
      },
    };
    const p = createProcessor({ ...f.t.ctx, storage: counting }, { retryDelayMs: 1 });
    p.enqueue(track.id);
    await f.t.ctx.queue.idle();
    expect(reads.n).toBe(1);
    expect(await row(track.id)).toMatchObject({
      status: "completed",
      id3_artist: "Test Artist",
      id3_title: "Amen Study",
    });
    expect((await stored(track.id)).bitrate_kbps).toBe(320);
  });
});

describe("what processing keeps recording from the one pass", () => {
  /** The fixture's audio frames alone (no ID3 tag, no Info frame), for building long files. */
  function audioFrames(data: Uint8Array): Uint8Array {
    let pos = 0;
    if (data[0] === 0x49 && data[1] === 0x44 && data[2] === 0x33) {
      pos = 10 + ((data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]);
    }
    const info = parseFrameHeader(data, pos)!;
    return data.subarray(pos + info.length);
  }

  it("reads the tags, format and report of a file longer than the head music-metadata is given", async () => {
    const amen = fixture(FIXTURES.amen);
    const frames = audioFrames(amen);
    const long = new Uint8Array(amen.length + frames.length * 5);
    long.set(amen);
    for (let i = 0; i < 5; i++) long.set(frames, amen.length + i * frames.length);
    expect(long.length).toBeGreaterThan(1.5 * 1024 * 1024);
    const { ids } = await uploaded([["Long - Amen.mp3", long]]);
    expect(await row(ids[0])).toMatchObject({
      status: "completed",
      size: long.length,
      bitrate: 320000,
      sample_rate: 44100,
      channels: 2,
      id3_artist: "Test Artist",
      id3_title: "Amen Study",
    });
    expect((await stored(ids[0])).bitrate_kbps).toBe(320);
  });

  it("gives a VBR file the average bitrate of its frames", async () => {
    const { ids } = await uploaded([[FIXTURES.vbr, fixture(FIXTURES.vbr)]]);
    const r = await row(ids[0]);
    const a = await stored(ids[0]);
    expect(a.bitrate_mode).toBe("vbr");
    expect(Math.abs(r.bitrate! / 1000 - a.bitrate_kbps!)).toBeLessThan(1);
  });

  it("takes artist and title from an ID3v1 tag at the end when the head has none", async () => {
    const low = fixture(FIXTURES.low);
    const tag = new Uint8Array(128);
    tag.set(new TextEncoder().encode("TAG"));
    tag.set(new TextEncoder().encode("Tail Title"), 3);
    tag.set(new TextEncoder().encode("Tail Artist"), 33);
    const withTag = new Uint8Array(low.length + 128);
    withTag.set(low);
    withTag.set(tag, low.length);
    const { ids } = await uploaded([["Tail - Tagged.mp3", withTag]]);
    expect(await row(ids[0])).toMatchObject({
      status: "completed",
      id3_artist: "Tail Artist",
      id3_title: "Tail Title",
    });
  });
});

describe("tracks completed before the analysis existed", () => {
  it("get their report in the background; an undecodable one is remembered and not tried again", async () => {
    const old = await f.trackWithFile(FIXTURES.low, { directions: "label_koster" });
    const broken = await f.trackWithFile(FIXTURES.text, { directions: "label_koster" });
    const noFile = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    expect((await f.call("GET", `/api/admin/tracks/${old.id}`)).body.track).toMatchObject({ analysis: null });

    const found = await f.t.ctx.processor.analyseOlder();
    expect(found).toBeGreaterThanOrEqual(2);
    await f.t.ctx.queue.idle();

    const track = (await f.call("GET", `/api/admin/tracks/${old.id}`)).body.track as { analysis: AudioAnalysis };
    expect(track.analysis).toMatchObject({ bitrate_kbps: 128, warnings: ["low_bitrate"] });
    expect(JSON.parse((await stored(old.id)).peaks!)).toHaveLength(1000);
    // The text file stays a completed track (it was accepted once), with no report and its reason kept.
    const b = await stored(broken.id);
    expect(b.error).toMatch(/^Файл не удалось декодировать как MP3/);
    expect((await f.call("GET", `/api/admin/tracks/${broken.id}`)).body.track).toMatchObject({
      status: "completed",
      analysis: null,
    });
    expect(await stored(noFile.id)).toBeUndefined();
    expect(await f.t.ctx.processing.analysis.unanalysedIds()).not.toContain(broken.id);
    expect(await f.t.ctx.processing.analysis.unanalysedIds()).not.toContain(old.id);
  });
});

describe("sorting by the report and filtering by warning", () => {
  let mine: number[];

  beforeAll(async () => {
    const db = f.t.ctx.db;
    const guest = `sort-${crypto.randomUUID().slice(0, 8)}`;
    const make = (name: string) =>
      createTrack(db, { filename: `${name} - Sort.mp3`, guest_username: guest, directions: "podcast_koster" });
    const [a, b, c, none] = [await make("A"), await make("B"), await make("C"), await make("D")];
    await f.t.ctx.processing.analysis.save(
      a.id,
      analysisReport({ duration_s: 200, bitrate_kbps: 128, loudness_lufs: -6, bpm: 172, warnings: ["low_bitrate"] }),
    );
    await f.t.ctx.processing.analysis.save(
      b.id,
      analysisReport({
        duration_s: 400,
        bitrate_kbps: 320,
        loudness_lufs: null,
        bpm: null,
        clipped_samples: 5,
        warnings: ["clipping", "too_quiet"],
      }),
    );
    await f.t.ctx.processing.analysis.save(
      c.id,
      analysisReport({
        duration_s: 300,
        bitrate_kbps: 256,
        loudness_lufs: -12,
        bpm: 140.5,
        warnings: ["low_bitrate", "tempo_outside_dnb"],
      }),
    );
    mine = [a.id, b.id, c.id, none.id];
  });

  const order = async (query: string) => {
    const r = await f.call("GET", `/api/admin/tracks?direction=podcast_koster&${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.tracks as Array<{ id: number }>).map((t) => t.id).filter((id) => mine.includes(id));
  };

  it("sorts by duration, bitrate, loudness and BPM both ways, tracks without the figure last", async () => {
    const [a, b, c, none] = mine;
    expect(await order("sort=duration")).toEqual([a, c, b, none]);
    expect(await order("sort=-duration")).toEqual([b, c, a, none]);
    expect(await order("sort=duration&order=desc")).toEqual([b, c, a, none]);
    expect(await order("sort=bitrate")).toEqual([a, c, b, none]);
    expect(await order("sort=-bitrate")).toEqual([b, c, a, none]);
    expect(await order("sort=loudness")).toEqual([c, a, b, none]);
    // b was analysed but has no loudness and no tempo: with the unanalysed track, after the rest,
    // in id order the same way round.
    expect(await order("sort=-loudness")).toEqual([a, c, none, b]);
    expect(await order("sort=bpm")).toEqual([c, a, b, none]);
    expect(await order("sort=-bpm")).toEqual([a, c, none, b]);
  });

  it("sorts by key in the Camelot wheel's order (number, then letter) and by drop, both ways", async () => {
    const db = f.t.ctx.db;
    const guest = `key-${crypto.randomUUID().slice(0, 8)}`;
    const keyed: Array<[string | null, string | null, number | null]> = [
      ["A minor", "8A", 30],
      ["B major", "1B", 95.5],
      ["F minor", "4A", null],
      [null, null, 12],
      ["E major", "12B", 61],
      ["C major", "8B", 30],
      ["G# minor", "1A", 44],
    ];
    const ids: number[] = [];
    for (const [key, camelot, drop_s] of keyed) {
      const t = await createTrack(db, {
        filename: `${guest} - ${camelot}.mp3`,
        guest_username: guest,
        directions: "label_koster",
      });
      await f.t.ctx.processing.analysis.save(t.id, analysisReport({ key, camelot, drop_s }));
      ids.push(t.id);
    }
    const byCamelot = (ids_: number[]) => ids_.map((id) => keyed[ids.indexOf(id)][1]);
    const list = async (base: string, query: string, headers = f.as.admin) => {
      const r = await f.call("GET", `${base}?user=${guest}&page_size=100&${query}`, { headers });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.tracks as Array<{ id: number }>).map((t) => t.id);
    };
    expect(byCamelot(await list("/api/admin/tracks", "sort=key"))).toEqual(["1A", "1B", "4A", "8A", "8B", "12B", null]);
    expect(byCamelot(await list("/api/admin/tracks", "sort=-key"))).toEqual([
      "12B",
      "8B",
      "8A",
      "4A",
      "1B",
      "1A",
      null,
    ]);
    expect(byCamelot(await list("/api/admin/tracks", "sort=key&order=desc"))).toEqual(
      ["12B", "8B", "8A", "4A", "1B", "1A", null],
    );
    // The moderator's list (label_koster is theirs) sorts the same way.
    expect(byCamelot(await list("/api/moderator/tracks", "sort=key", f.as.moderator))).toEqual(
      ["1A", "1B", "4A", "8A", "8B", "12B", null],
    );
    expect(byCamelot(await list("/api/moderator/tracks", "sort=-key", f.as.moderator))).toEqual(
      ["12B", "8B", "8A", "4A", "1B", "1A", null],
    );
    // By drop: ties by id the same way round, no drop last.
    expect(byCamelot(await list("/api/admin/tracks", "sort=drop"))).toEqual([
      null,
      "8A",
      "8B",
      "1A",
      "12B",
      "1B",
      "4A",
    ]);
    expect(byCamelot(await list("/api/admin/tracks", "sort=-drop"))).toEqual([
      "1B",
      "12B",
      "1A",
      "8B",
      "8A",
      null,
      "4A",
    ]);
    const one = (await f.call("GET", `/api/admin/tracks?user=${guest}&sort=key`)).body.tracks as Array<
      { analysis: object }
    >;
    expect(one[0].analysis).toMatchObject({ key: "G# minor", camelot: "1A" });
    const bad = await f.call("GET", "/api/admin/tracks?sort=camelot");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: "Некорректное поле сортировки" });
  });

  it("keeps the old sort fields and the newest-first default", async () => {
    const [a, b, c, none] = mine;
    expect(await order("")).toEqual([none, c, b, a]);
    expect(await order("sort=id")).toEqual([none, c, b, a]);
    expect(await order("sort=filename")).toEqual([a, b, c, none]);
  });

  it("filters by one warning or by any, with the counts to match, and refuses an unknown one", async () => {
    const [a, b, c] = mine;
    expect((await order("warning=low_bitrate")).sort()).toEqual([a, c].sort());
    expect(await order("warning=clipping")).toEqual([b]);
    expect((await order("warning=any")).sort()).toEqual([a, b, c].sort());
    expect(await order("warning=all")).toHaveLength(4);
    const paged = await f.call(
      "GET",
      "/api/admin/tracks?direction=podcast_koster&warning=tempo_outside_dnb&page=1&page_size=10",
    );
    expect(paged.body).toMatchObject({ filtered: 1, page: 1, pages: 1 });
    for (const bad of ["loud", "LOW_BITRATE", "'; drop table tracks; --"]) {
      const r = await f.call("GET", `/api/admin/tracks?warning=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: "Неизвестное предупреждение" });
    }
    expect((await f.call("GET", "/api/admin/tracks?sort=peaks")).status).toBe(400);
  });

  it("answers naughty warning and sort values with 400, never a server error", async () => {
    for (const s of naughtyStrings) {
      const v = encodeURIComponent(s);
      for (const query of [`warning=${v}`, `sort=${v}&warning=any`]) {
        const r = await f.call("GET", `/api/moderator/tracks?${query}`, { headers: f.as.moderator });
        expect(r.status, query).toBeLessThan(500);
        expect(r.body.success, query).toBe(r.status === 200);
      }
    }
  });
});

/**
 * What processing refuses before it spends the server on a file (issue 20): an ID3v2 tag over its
 * budget, a track longer than MAX_TRACK_MINUTES (judged from the frame headers before decoding, and
 * a decode that passes it stopped), and a length counted only from confirmed frames. The fixtures
 * are generated (server/testing/hostile-mp3.ts); the large ones' figures are in `deno task bench hostile`.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks } from "../../db/schema.ts";
import { trackTooLongMessage } from "../audio/analyse-mp3.ts";
import { parseFrameHeader } from "../audio/mpeg-frames.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { bytesOf, id3Frame, id3Tag, mpeg25File, tagBomb, utf8Text } from "../testing/hostile-mp3.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";
import { analyseTrack } from "./analyse-track.ts";
import { ID3_LIMITS, ID3_REFUSED_MESSAGE } from "./id3v2.ts";

let t: TestApp;
beforeAll(async () => {
  // One minute, so that the over-long files stay small.
  t = await createTestApp({ env: { MAX_TRACK_MINUTES: "1" } });
});
afterAll(() => t.close());

const row = async (id: number) => (await t.ctx.db.select().from(tracks).where(eq(tracks.id, id)))[0];

/** Uploads one file as a new artist and waits for processing; the track row and the artist's error list. */
async function processed(name: string, data: Uint8Array) {
  const user = await createUser(t.ctx.db);
  const { headers } = await signIn(t.ctx, user);
  const { res, body } = await postUpload(t, headers, [filePart(name, data), dirPart("label_koster")]);
  expect(res.status).toBe(200);
  await t.ctx.queue.idle();
  const errors = (await (await t.app.request("/api/errors", { headers })).json()).errors as string[];
  return { track: await row(body.track_ids[0]), errors };
}

/** The app's storage with a file stored under a new key, read only through `read`, counting the bytes read. */
async function counted(data: Uint8Array | { size: number; chunks: () => AsyncGenerator<Uint8Array> }) {
  const key = `tracks/${crypto.randomUUID()}`;
  await t.ctx.storage.write(
    key,
    data instanceof Uint8Array ? ReadableStream.from([data]) : ReadableStream.from(data.chunks()),
  );
  const read = { bytes: 0 };
  const storage: FileStorage = {
    ...t.ctx.storage,
    localPath: () => null,
    async read(k, o) {
      const r = await t.ctx.storage.read(k, o);
      return {
        ...r,
        body: r.body.pipeThrough(
          new TransformStream({
            transform(chunk, c) {
              read.bytes += chunk.byteLength;
              c.enqueue(chunk);
            },
          }),
        ),
      };
    },
  };
  return { storage, key, read };
}

describe("an ID3v2 tag over its budget", () => {
  it("fails the track with the Russian reason the artist sees, and keeps no file", async () => {
    // 5,000 tiny TXXX frames (the bomb has 3.4 million): over the 1,000-frame budget.
    const data = await bytesOf(tagBomb({ frames: 5000, audio: fixture(FIXTURES.amen) }));
    const { track, errors } = await processed("Bomb - Tag.mp3", data);
    expect(track).toMatchObject({ status: "failed", error: ID3_REFUSED_MESSAGE(), storage_key: null });
    expect(errors).toEqual([`Bomb - Tag.mp3: ${ID3_REFUSED_MESSAGE()}`]);
  });

  it("refuses a tag that declares more bytes than the budget after reading its first chunk only", async () => {
    const big = id3Tag([id3Frame("PRIV", new Uint8Array(ID3_LIMITS.maxBytes))]);
    const audio = fixture(FIXTURES.low);
    const data = new Uint8Array(big.length + audio.length);
    data.set(big);
    data.set(audio, big.length);
    const { storage, key, read } = await counted(data);
    const verdict = await analyseTrack(storage, key, { maxTrackMinutes: 30 });
    expect(verdict).toMatchObject({ status: "failed", error: ID3_REFUSED_MESSAGE(), discard: true });
    expect(read.bytes).toBeLessThan(1024 * 1024);
  });

  it("still reads title and artist past a large picture", async () => {
    const tag = id3Tag([
      id3Frame("APIC", new Uint8Array(2 * 1024 * 1024)),
      id3Frame("TPE1", utf8Text("Картинка")),
      id3Frame("TIT2", utf8Text("После обложки")),
    ]);
    const audio = fixture(FIXTURES.low);
    const data = new Uint8Array(tag.length + audio.length);
    data.set(tag);
    data.set(audio, tag.length);
    const { track } = await processed("Picture - Big.mp3", data);
    expect(track).toMatchObject({
      status: "completed",
      id3_artist: "Картинка",
      id3_title: "После обложки",
      duration: 8046,
    });
  });
});

describe("a track longer than MAX_TRACK_MINUTES", () => {
  it("is refused from its frame headers before decoding, with the reason the artist sees", async () => {
    // 10 minutes of MPEG-2.5 8 kbps, no Xing tag: its size at its frames' bitrate says 10 minutes.
    const file = mpeg25File({ seconds: 600 });
    const { track, errors } = await processed("Long - Hours.mp3", await bytesOf(file));
    expect(track).toMatchObject({ status: "failed", error: trackTooLongMessage(1), storage_key: null });
    expect(errors).toEqual([`Long - Hours.mp3: ${trackTooLongMessage(1)}`]);
    expect(trackTooLongMessage(30)).toBe("Трек длиннее 30 мин: такие длинные файлы не принимаются.");

    const { storage, key, read } = await counted(file);
    await analyseTrack(storage, key, { maxTrackMinutes: 1 });
    expect(read.bytes).toBeLessThan(file.size / 4);
  });

  it("is refused when its Xing tag declares more than the limit", async () => {
    const file = mpeg25File({ seconds: 10, declaredSeconds: 120 });
    const { storage, key } = await counted(file);
    expect(await analyseTrack(storage, key, { maxTrackMinutes: 1 })).toMatchObject({
      status: "failed",
      error: trackTooLongMessage(1),
    });
  });

  it("stops a decode that passes the limit when the headers claimed less", async () => {
    // The Xing tag says 30 s; the frames go on for 10 minutes.
    const file = mpeg25File({ seconds: 600, declaredSeconds: 30 });
    const { storage, key, read } = await counted(file);
    expect(await analyseTrack(storage, key, { maxTrackMinutes: 1 })).toMatchObject({
      status: "failed",
      error: trackTooLongMessage(1),
    });
    // Stopped about a minute in (8 KB of frames a minute... at 1 kB/s), not at the end.
    expect(read.bytes).toBeLessThan(file.size / 4);
  });

  it("takes a track just under the limit", async () => {
    const { track } = await processed("Short - Enough.mp3", await bytesOf(mpeg25File({ seconds: 50 })));
    expect(track).toMatchObject({
      status: "completed",
      duration: 49968,
      bitrate: 8000,
      sample_rate: 8000,
      channels: 1,
    });
  });
});

describe("the length of a track", () => {
  it("counts only frames the next frame confirms, not frame-like headers in junk", async () => {
    // Four real frames of the 128 kbps file, then 500 KB with a valid header every 100 bytes: a count
    // that takes every header it meets made 26 s of this (53 minutes of 49 MB in the issue).
    const low = fixture(FIXTURES.low);
    const info = parseFrameHeader(low, 0)!;
    let end = info.length;
    for (let i = 0; i < 4; i++) end += parseFrameHeader(low, end)!.length;
    const junk = new Uint8Array(500 * 1024);
    for (let i = 50; i + 4 <= junk.length; i += 100) junk.set(low.subarray(info.length, info.length + 4), i);
    const data = new Uint8Array(end + junk.length);
    data.set(low.subarray(0, end));
    data.set(junk, end);
    const { track } = await processed("Junk - Headers.mp3", data);
    expect(track.status).toBe("completed");
    expect(track.duration).toBe(Math.round((4 * 1152 * 1000) / 44100));
  });
});

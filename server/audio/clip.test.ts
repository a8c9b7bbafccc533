import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, type FileStorage } from "../storage/file-storage.ts";
import { ClipError, clipStart, cutClip, id3Tag, mainDataBegin } from "./clip.ts";
import { parseFrameHeader } from "./mpeg-frames.ts";
import { clipFirstFrameIndex, FRAME_S, frameOffsets, probeMp3 as probe, sweepMp3 } from "../testing/clip-checks.ts";

const FIXTURES = new URL("../../test/fixtures/audio/", import.meta.url);

let dir: string;
let storage: FileStorage;
let sweepBytes: Uint8Array;

async function store(name: string, key: string) {
  const bytes = await Deno.readFile(new URL(name, FIXTURES));
  await storage.write(key, ReadableStream.from([bytes]));
  return bytes;
}

beforeAll(async () => {
  dir = await Deno.makeTempDir({ prefix: "clip-test-" });
  storage = createLocalStorage(dir);
  sweepBytes = await sweepMp3();
  await storage.write("sweep.mp3", ReadableStream.from([sweepBytes]));
});
afterAll(() => Deno.remove(dir, { recursive: true }));

describe("the staff card's clip (issue 27)", () => {
  it("is 30 s within one frame, starts within one frame of the drop and carries the title and artist", async () => {
    const file = sweepBytes;
    for (const dropS of [5.3, 7, 12.04]) {
      const clip = await cutClip(storage, "sweep.mp3", {
        dropS,
        durationS: 45,
        artist: "Long Artist",
        title: "Forty Seconds",
      });
      const probed = await probe(clip.bytes);
      expect(Math.abs(probed.duration - 30)).toBeLessThanOrEqual(FRAME_S);
      expect(probed.tags).toMatchObject({ title: "Forty Seconds", artist: "Long Artist" });
      // The clip's first frame is the original's frame that starts within one frame of the drop.
      const index = clipFirstFrameIndex(file, clip.bytes);
      expect(index).not.toBeNull();
      const startS = index! * FRAME_S;
      expect(startS).toBeCloseTo(clip.startS, 6);
      expect(Math.abs(startS - dropS)).toBeLessThanOrEqual(FRAME_S);
      // …and the drop's own frame (from which the audio decodes whole) starts within a frame after it.
      expect(clip.cleanStartS - dropS).toBeGreaterThanOrEqual(0);
      expect(clip.cleanStartS - dropS).toBeLessThan(FRAME_S);
    }
  });

  it("includes the frames the start's bit reservoir reaches into, and no more", async () => {
    const file = await store("Long Artist - Forty Seconds.mp3", "long.mp3");
    const clip = await cutClip(storage, "long.mp3", { dropS: 10, durationS: 40, artist: "a", title: "t" });
    const offsets = frameOffsets(file);
    const startIndex = Math.round(clip.cleanStartS / FRAME_S);
    const at = offsets[startIndex];
    const reservoir = mainDataBegin(file, at, parseFrameHeader(file, at)!);
    const lead = startIndex - Math.round(clip.startS / FRAME_S);
    if (reservoir === 0) expect(lead).toBe(0);
    else {
      expect(lead).toBeGreaterThanOrEqual(1);
      // The lead frames' audio data covers the reservoir; one frame fewer would not.
      const dataOf = (i: number) => parseFrameHeader(file, offsets[i])!.length - 36;
      let covered = 0;
      for (let i = startIndex - lead; i < startIndex; i++) covered += dataOf(i);
      expect(covered).toBeGreaterThanOrEqual(reservoir);
      expect(covered - dataOf(startIndex - lead)).toBeLessThan(reservoir);
    }
  });

  it("starts at 30 % without a drop, and never so late that the clip runs short", () => {
    expect(clipStart({ dropS: null, durationS: 200 })).toBeCloseTo(60);
    expect(clipStart({ dropS: 3, durationS: 200 })).toBe(3);
    expect(clipStart({ dropS: 190, durationS: 200 })).toBe(170);
    expect(clipStart({ dropS: null, durationS: 40 })).toBe(10);
    expect(clipStart({ dropS: null, durationS: 20 })).toBe(0);
  });

  it("of a track shorter than 30 s is the whole track", async () => {
    await store("Test Artist - Amen Study.mp3", "short.mp3");
    const clip = await cutClip(storage, "short.mp3", { dropS: 2, durationS: 8, artist: "Test Artist", title: "Amen" });
    const probed = await probe(clip.bytes);
    expect(clip.startS).toBe(0);
    expect(Math.abs(probed.duration - 8)).toBeLessThan(0.1);
  });

  it("cannot be cut from a file that is not MP3", async () => {
    await store("Text Artist - Not Audio.mp3", "text.mp3");
    await expect(cutClip(storage, "text.mp3", { dropS: null, durationS: 10, artist: "a", title: "b" }))
      .rejects.toBeInstanceOf(ClipError);
  });

  it("writes an ID3v2.4 tag with UTF-8 TIT2 and TPE1", () => {
    const tag = id3Tag("Заголовок", "Артист");
    expect(new TextDecoder().decode(tag.subarray(0, 3))).toBe("ID3");
    expect(tag[3]).toBe(4);
    const text = new TextDecoder().decode(tag);
    expect(text).toContain("TIT2");
    expect(text).toContain("Заголовок");
    expect(text).toContain("TPE1");
    expect(text).toContain("Артист");
  });
});

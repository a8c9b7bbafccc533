import { describe, expect, it } from "vitest";
import { analyseMp3 } from "./analyse-mp3.ts";
import { createPcmAnalyser } from "./pcm-analyser.ts";
import { readKey, scoreKeys } from "./key.ts";
import { feed, noiseSource, sine } from "../testing/audio-signals.ts";
import { CHORD_KEYS, chordTrack, keyVerdict } from "../testing/chords.ts";
import { groove, type GroovePattern } from "../testing/grooves.ts";

const FIXTURES = new URL("../../test/fixtures/audio/", import.meta.url);

function read(channels: Float32Array[], fs: number) {
  const a = createPcmAnalyser(fs, channels.length);
  feed(a.push, channels, 4608);
  return a.finish();
}

describe("key of chord progressions in all 24 keys (issue 22)", () => {
  // Formats, tuning and drums vary from key to key: 44.1 or 48 kHz, mono or stereo, up to 25 cents
  // off A = 440 Hz, over the two-step groove or not.
  const readings = CHORD_KEYS.map((k, i) => {
    const fs = i % 3 === 0 ? 48000 : 44100;
    const facts = read(
      chordTrack({
        tonic: k.tonic,
        mode: k.mode,
        seconds: 16,
        sampleRate: fs,
        channels: i % 2 === 0 ? 2 : 1,
        drums: i % 4 !== 3,
        tuningCents: ((i * 7) % 11) * 5 - 25,
        seed: i + 1,
      }),
      fs,
    );
    return { ...k, facts };
  });

  it("reads the key right on at least 85 %, and the relative or a fifth away on the rest", () => {
    const verdicts = readings.map((r) => keyVerdict(r.camelot, r.facts.camelot));
    const right = verdicts.filter((v) => v === "right").length;
    expect(right / readings.length).toBeGreaterThanOrEqual(0.85);
    expect(verdicts.filter((v) => v === "other")).toEqual([]);
  });

  it("gives the name and code of one key, with a confidence in 0–1", () => {
    for (const { facts } of readings) {
      expect(facts.key).not.toBeNull();
      const k = CHORD_KEYS.find((c) => c.key === facts.key)!;
      expect(facts.camelot).toBe(k.camelot);
      expect(facts.key_confidence).toBeGreaterThan(0.5);
      expect(facts.key_confidence).toBeLessThanOrEqual(1);
      expect(Math.round(facts.key_confidence! * 1000) / 1000).toBe(facts.key_confidence);
    }
  });
});

describe("no key where there is nothing tonal", () => {
  const FS = 44100;
  const none = { key: null, camelot: null, key_confidence: null };

  it.each(["two-step", "dubstep", "house"] as GroovePattern[])(
    "drums only (%s groove), with and without a sub",
    (p) => {
      expect(read(groove({ pattern: p, bpm: 174, seconds: 16, sampleRate: FS }), FS)).toMatchObject(none);
      expect(read(groove({ pattern: p, bpm: 172, seconds: 16, sampleRate: 48000, channels: 2, bassFrom: 4 }), 48000))
        .toMatchObject(none);
    },
  );

  it("silence, noise, and a lone tone", () => {
    expect(read([new Float32Array(FS * 10)], FS)).toMatchObject(none);
    const noise = noiseSource(4);
    expect(read([Float32Array.from({ length: FS * 10 }, () => 0.3 * noise())], FS)).toMatchObject(none);
    for (const hz of [110, 440, 1000]) expect(read([sine(hz, -6, 10, FS)], FS)).toMatchObject(none);
  });

  it("a summary with no sound, or too few tonal frames", () => {
    const chroma = Float64Array.from([5, 0, 3, 0, 4, 3, 0, 5, 0, 3, 0, 2]);
    expect(readKey({ chroma, frames: 0, tonalFrames: 0 })).toEqual({ key: null, camelot: null, confidence: null });
    expect(readKey({ chroma, frames: 100, tonalFrames: 10 }).key).toBeNull();
    expect(readKey({ chroma, frames: 100, tonalFrames: 90 }).key).toBe("C major");
  });
});

describe("key profiles", () => {
  it("the same seven notes read as the major or its relative minor by which triad is leaned on", () => {
    // C major's scale with the C–E–G triad stronger, then with A–C–E stronger.
    const scale = [1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1];
    const lean = (triad: number[]) => Float64Array.from(scale, (x, pc) => x * (triad.includes(pc) ? 3 : 1));
    expect(scoreKeys(lean([0, 4, 7]))[0]).toMatchObject({ tonic: 0, mode: "major" });
    expect(scoreKeys(lean([9, 0, 4]))[0]).toMatchObject({ tonic: 9, mode: "minor" });
  });
});

describe("key through real MP3s (test/fixtures/audio, make-key-fixtures.ts)", () => {
  it.each([
    ["Key Artist - F Minor.mp3", "F minor", "4A"], // 128 kbps CBR, 44.1 kHz stereo, over drums
    ["Key Artist - Bb Major.mp3", "Bb major", "6B"], // V2, 48 kHz mono, 15 cents flat
    ["Key Artist - C Sharp Minor.mp3", "C# minor", "12A"], // 96 kbps, 44.1 kHz mono, 25 cents sharp, drums
  ])("%s reads %s (%s)", async (name, key, camelot) => {
    const a = await analyseMp3((await Deno.open(new URL(name, FIXTURES))).readable);
    expect(a).toMatchObject({ key, camelot });
    expect(a.key_confidence).toBeGreaterThan(0.5);
  });

  it("two steady tones (the 220 and 330 Hz fixture) have no key", async () => {
    const a = await analyseMp3((await Deno.open(new URL("Test Artist - Amen Study.mp3", FIXTURES))).readable);
    expect(a).toMatchObject({ key: null, camelot: null, key_confidence: null });
  });
});

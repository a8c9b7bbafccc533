import { describe, expect, it } from "vitest";
import { analyseMp3 } from "./analyse-mp3.ts";
import { createPcmAnalyser } from "./pcm-analyser.ts";
import { createKeyChroma, readKey, scoreKeys } from "./key.ts";
import { createBandEnvelopes } from "./band-envelopes.ts";
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

describe("the same recording, one key (issue 38)", () => {
  // A short piece: 12 s of the F minor chord loop over the groove, 44.1 kHz stereo.
  const FS = 44100;
  const piece = chordTrack({ tonic: 5, mode: "minor", seconds: 12, sampleRate: FS, channels: 2, drums: true, seed: 7 });

  /** Band-limited (windowed-sinc, 32 taps) resampling of each channel to `to` Hz. */
  function resample(channels: Float32Array[], from: number, to: number): Float32Array[] {
    const half = 16, cutoff = Math.min(1, to / from) * 0.95;
    return channels.map((x) => {
      const out = new Float32Array(Math.floor((x.length * to) / from));
      for (let i = 0; i < out.length; i++) {
        const t = (i * from) / to, c = Math.floor(t);
        let s = 0;
        for (let k = c - half + 1; k <= c + half; k++) {
          if (k < 0 || k >= x.length) continue;
          const d = t - k;
          const sinc = d === 0 ? 1 : Math.sin(Math.PI * cutoff * d) / (Math.PI * cutoff * d);
          s += x[k] * cutoff * sinc * (0.5 + 0.5 * Math.cos((Math.PI * d) / half));
        }
        out[i] = s;
      }
      return out;
    });
  }

  const pad = (channels: Float32Array[], samples: number) =>
    channels.map((x) => {
      const out = new Float32Array(samples + x.length);
      out.set(x, samples);
      return out;
    });

  /** The key as the analyser reads it: the band envelopes' half-rate mix into the chroma (pcm-analyser.ts). */
  function keyOf(channels: Float32Array[], fs: number) {
    const chroma = createKeyChroma(fs / 2);
    feed(createBandEnvelopes(fs, channels.length, (mono, length) => chroma.push(mono, length)).push, channels, 4608);
    return chroma.finish();
  }

  it("0–5 s of leading silence in 0.1 s steps, at 44.1 and 48 kHz: one key and Camelot code", () => {
    const at48 = resample(piece, FS, 48000);
    const readings = new Set<string>();
    for (let tenths = 0; tenths <= 50; tenths++) {
      for (const [channels, fs] of [[piece, FS], [at48, 48000]] as const) {
        const r = keyOf(pad(channels, Math.round((tenths * fs) / 10)), fs);
        readings.add(`${r.key} ${r.camelot}`);
      }
    }
    expect([...readings]).toEqual(["F minor 4A"]);
    // The whole analyser agrees, with the longest silence.
    expect(read(pad(at48, 5 * 48000), 48000)).toMatchObject({ key: "F minor", camelot: "4A" });
  });
});

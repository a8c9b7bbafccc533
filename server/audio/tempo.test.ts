import { describe, expect, it } from "vitest";
import { createPcmAnalyser } from "./pcm-analyser.ts";
import { type DrumOptions, drums, feed, noiseSource, sine } from "../testing/audio-signals.ts";
import { estimateTempo } from "./tempo.ts";
import { foldToDnb } from "../../domain/tempo.ts";
import { expectedBpm, groove, type GrooveOptions, type GroovePattern } from "../testing/grooves.ts";
import { warningsFor } from "./warnings.ts";

const FS = 44100;

function analyse(x: Float32Array, fs = FS) {
  const a = createPcmAnalyser(fs, 1);
  feed(a.push, [x], 4608);
  return a.finish();
}

const track = (o: Partial<DrumOptions> & { bpm: number }) =>
  drums({ seconds: 30, sampleRate: FS, kick: 0.6, snare: 0.4, ...o });

describe("tempo folding into drum and bass's 160–190 BPM", () => {
  it.each([
    [87, 174],
    [80, 160],
    [95, 190],
    [348, 174],
    [380, 190],
    [175, 175],
    [79.9, 79.9],
    [96, 96],
    [128, 128],
    [400, 400],
  ])("%d → %d", (bpm, folded) => expect(foldToDnb(bpm)).toBe(folded));
});

describe("tempo detection", () => {
  it("finds 174 BPM in a kick and snare loop", () => {
    expect(analyse(track({ bpm: 174 })).bpm).toBeCloseTo(174, 0);
  });

  it("finds 174 BPM in a four-to-the-floor kick track", () => {
    expect(analyse(track({ bpm: 174, snare: 0, kickEveryBeat: true, kick: 0.8 })).bpm).toBeCloseTo(174, 0);
  });

  it("folds a half-time 87 BPM loop to 174 (and hears 87 before folding)", () => {
    const x = track({ bpm: 87 });
    expect(analyse(x).bpm).toBeCloseTo(174, 0);
  });

  it("reads the tempo precisely, not to the nearest envelope hop", () => {
    // Hops are 5 ms; 172 and 176 BPM fall between lags and must still come out right.
    for (const bpm of [172, 176, 165.5]) expect(Math.abs(analyse(track({ bpm })).bpm! - bpm)).toBeLessThan(0.3);
  });

  it("keeps the tempo of a loop outside drum and bass (no folding possible)", () => {
    expect(analyse(track({ bpm: 128, hats: 0.2 })).bpm).toBeCloseTo(128, 0);
    expect(analyse(track({ bpm: 140 })).bpm).toBeCloseTo(140, 0);
  });

  it("holds up under a sub bass and noise", () => {
    const x = track({ bpm: 174, bass: 0.3, hats: 0.2 });
    const noise = noiseSource(5);
    for (let i = 0; i < x.length; i++) x[i] += 0.1 * noise();
    expect(analyse(x).bpm).toBeCloseTo(174, 0);
  });

  it("has no tempo for silence, a steady tone, noise, or a file too short to tell", () => {
    expect(analyse(new Float32Array(FS * 20)).bpm).toBeNull();
    for (const f of [45, 220, 1000]) expect(analyse(sine(f, -6, 20, FS)).bpm).toBeNull();
    const noise = noiseSource(11);
    expect(analyse(Float32Array.from({ length: FS * 20 }, () => 0.3 * noise())).bpm).toBeNull();
    expect(analyse(track({ bpm: 174, seconds: 3 })).bpm).toBeNull();
  });

  it("judges an envelope directly: clicks at 174 BPM, and none at all", () => {
    const rate = 200;
    const env = new Float32Array(rate * 20);
    for (let t = 0; t < 20; t += 60 / 174) env[Math.round(t * rate)] = 1;
    const found = estimateTempo(env, rate)!;
    expect(found.bpm).toBeCloseTo(174, 0);
    expect(found.confidence).toBeGreaterThan(0.5);
    expect(estimateTempo(new Float32Array(rate * 20), rate)).toBeNull();
  });
});

/**
 * Issue 22: the standard two-step groove (kick on 1 and the "and" of 3, snare on 2 and 4, hats on
 * the eighths) read at 2/3 or 0.4 of its tempo, and a 140 BPM dubstep groove at 186.6 with no
 * warning. Generated PCM goes straight into the analyser, as the decoder hands it over.
 */
describe("tempo of drum grooves (issue 22)", () => {
  const GROOVES: [GroovePattern, number][] = [
    ...[160, 165, 170, 172, 174, 175, 178, 180].map((bpm) => ["two-step", bpm] as [GroovePattern, number]),
    ["two-step", 85],
    ["two-step", 86],
    ["two-step", 87],
    ["dubstep", 140],
    ["house", 128],
  ];
  const FORMATS: [number, 1 | 2][] = [[44100, 1], [48000, 2]];
  const cases = GROOVES.flatMap(([pattern, bpm]) => FORMATS.map(([rate, ch]) => [pattern, bpm, rate, ch] as const));

  function read(o: GrooveOptions) {
    const a = createPcmAnalyser(o.sampleRate, o.channels ?? 1);
    feed(a.push, groove(o), 4608);
    return a.finish();
  }

  it.each(cases)("%s at %d BPM (%d Hz, %d ch) reads its tempo within 1 BPM", (pattern, bpm, rate, ch) => {
    const facts = read({ pattern, bpm, seconds: 20, sampleRate: rate, channels: ch, bassFrom: 8 });
    const expected = expectedBpm({ bpm });
    expect(facts.bpm).not.toBeNull();
    expect(Math.abs(facts.bpm! - expected)).toBeLessThanOrEqual(1);
    expect(facts.bpm_confidence!).toBeGreaterThan(0.3);
    const warnings = warningsFor({
      bitrate_kbps: 320,
      clipped_samples: 0,
      loudness_lufs: -8,
      bpm: facts.bpm,
      duration_s: 20,
    });
    // The "outside drum and bass" warning: for 140 and 128, for nothing in 160–190.
    expect(warnings.includes("tempo_outside_dnb")).toBe(expected < 160 || expected > 190);
  });

  it("hears the hats: closed hats alone on the eighths carry the tempo", () => {
    for (const bpm of [170, 174]) {
      expect(Math.abs(analyse(drums({ bpm, seconds: 20, sampleRate: FS, hats: 0.4 })).bpm! - bpm)).toBeLessThanOrEqual(
        1,
      );
    }
  });

  it("holds the two-step groove under noise and a sub bass from the start", () => {
    const [x] = groove({ pattern: "two-step", bpm: 174, seconds: 20, sampleRate: FS, bassFrom: 0, seed: 9 });
    const noise = noiseSource(21);
    for (let i = 0; i < x.length; i++) x[i] += 0.05 * noise();
    expect(Math.abs(analyse(x).bpm! - 174)).toBeLessThanOrEqual(1);
  });

  it("keeps the confidence it measured, and none when there was nothing to measure", () => {
    const silence = analyse(new Float32Array(FS * 20));
    expect(silence.bpm).toBeNull();
    expect(silence.bpm_confidence).toBeNull();
    const noise = noiseSource(11);
    const hiss = analyse(Float32Array.from({ length: FS * 20 }, () => 0.3 * noise()));
    expect(hiss.bpm).toBeNull();
    expect(hiss.bpm_confidence).toBeGreaterThanOrEqual(0);
    expect(hiss.bpm_confidence).toBeLessThan(0.1);
  });
});

import { describe, expect, it } from "vitest";
import { createPcmAnalyser } from "./pcm-analyser.ts";
import { type DrumOptions, drums, feed, noiseSource, sine } from "../testing/audio-signals.ts";
import { estimateTempo, foldToDnb } from "./tempo.ts";

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

import { describe, expect, it } from "vitest";
import { concat, dbToGain, feed, noiseSource, sine } from "../testing/audio-signals.ts";
import { createTruePeakMeter, interpolatorPhases } from "./true-peak.ts";

const db = (x: number) => 20 * Math.log10(x);

/** A sine with 20 ms raised-cosine fades, so no edge rings past its level. */
function faded(freq: number, levelDb: number, seconds: number, fs: number, phase = 0) {
  const s = sine(freq, levelDb, seconds, fs, phase);
  const n = Math.round(0.02 * fs);
  for (let i = 0; i < n; i++) {
    const g = 0.5 - 0.5 * Math.cos((Math.PI * i) / n);
    s[i] *= g;
    s[s.length - 1 - i] *= g;
  }
  return s;
}

/** Every output of every phase computed, no block skipped: the largest |value|, sample peak included. */
function bruteForcePeak(x: Float32Array): number {
  const phases = interpolatorPhases();
  const w = concat(new Float32Array(15), x, new Float32Array(8));
  let peak = 0;
  for (let n = 0; n + 15 < w.length; n++) {
    peak = Math.max(peak, Math.abs(w[n + 7]));
    for (const p of phases) {
      let y = 0;
      for (let k = 0; k < 16; k++) y += p[k] * w[n + 15 - k];
      peak = Math.max(peak, Math.abs(y));
    }
  }
  return peak;
}

function meter(channels: Float32Array[], chunk?: number) {
  const m = createTruePeakMeter(channels.length);
  feed(m.push, channels, chunk);
  m.finish();
  return m;
}

describe("true peak (4× oversampling)", () => {
  it("has phases with unity gain at DC", () => {
    for (const p of interpolatorPhases()) expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("finds the inter-sample peak of an fs/4 sine sampled at 45°, 3 dB over the sample peak", () => {
    // Samples land at ±sin(45°) = ±0.707 of the amplitude; the waveform itself reaches the amplitude.
    const s = faded(44100 / 4, -1, 1, 44100, Math.PI / 4);
    const m = meter([s, s]);
    expect(db(m.samplePeak())).toBeCloseTo(-1 - 3.01, 1);
    expect(Math.abs(db(m.peak()) + 1)).toBeLessThan(0.1);
    expect(db(m.peak()) - db(m.samplePeak())).toBeGreaterThan(2.9);
  });

  it("reads an over (above 0 dBFS between samples) from samples that are all under full scale", () => {
    const s = faded(48000 / 4, 1, 1, 48000, Math.PI / 4); // samples at -2 dBFS, waveform at +1 dBTP
    const m = meter([s]);
    expect(m.samplePeak()).toBeLessThan(1);
    expect(db(m.peak())).toBeGreaterThan(0.8);
  });

  it("reads a low-frequency sine at its sample peak", () => {
    const s = faded(997, -6, 1, 44100);
    const m = meter([s, s]);
    expect(db(m.peak())).toBeCloseTo(-6, 1);
    expect(m.peak()).toBeGreaterThanOrEqual(m.samplePeak());
  });

  it("takes the louder channel and sees the very last sample", () => {
    const left = new Float32Array(1000);
    const right = new Float32Array(1000);
    right[999] = dbToGain(-3);
    expect(db(meter([left, right]).samplePeak())).toBeCloseTo(-3, 5);
  });

  it("gives the same figure whatever the chunk size", () => {
    const s = concat(faded(11025, -2, 0.5, 44100, 0.3), faded(15000, -4, 0.5, 44100, 1.1));
    const whole = meter([s], s.length).peak();
    for (const chunk of [1, 5, 16, 1152, 9000]) expect(meter([s], chunk).peak()).toBeCloseTo(whole, 6);
  });

  it("skips only blocks that cannot hold a new peak: an over between quieter samples later on is still read", () => {
    // A -6 dB tone sets the peak; quiet noise (skipped) follows; then an fs/4 sine at 45° whose
    // samples (-7 dBFS) all stay under that peak while its waveform reaches -4 dBTP.
    const noise = noiseSource(7);
    const hush = Float32Array.from({ length: 20000 }, () => dbToGain(-40) * noise());
    const s = concat(faded(997, -6, 0.5, 44100), hush, faded(44100 / 4, -4, 0.2, 44100, Math.PI / 4), hush);
    const expected = bruteForcePeak(s);
    expect(db(expected)).toBeCloseTo(-4, 1);
    for (const chunk of [1, 5, 1152, s.length]) expect(meter([s], chunk).peak()).toBeCloseTo(expected, 12);
  });
});

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

/**
 * The figure as the JavaScript loop before 0455 computed it: every output of the symmetric form, in
 * the same order of operations, none skipped, the sample peak counted first.
 */
function loopPeak(channels: Float32Array[]): number {
  const [p1, p2, p3] = interpolatorPhases();
  const e1 = p1.map((p, k) => (p + p3[k]) / 2), o1 = p1.map((p, k) => (p - p3[k]) / 2);
  let peak = 0;
  for (const x of channels) {
    for (const v of x) peak = Math.max(peak, Math.abs(v));
  }
  for (const x of channels) {
    const w = Float64Array.from(concat(new Float32Array(15), x, new Float32Array(8)));
    for (let n = 15; n < w.length; n++) {
      let even1 = 0, odd1 = 0, even2 = 0;
      for (let k = 0; k < 8; k++) {
        const s = w[n - k] + w[n - 15 + k], d = w[n - k] - w[n - 15 + k];
        even1 = k === 0 ? e1[k] * s : even1 + e1[k] * s;
        odd1 = k === 0 ? o1[k] * d : odd1 + o1[k] * d;
        even2 = k === 0 ? p2[k] * s : even2 + p2[k] * s;
      }
      peak = Math.max(peak, Math.abs(even1 + odd1), Math.abs(even1 - odd1), Math.abs(even2));
    }
  }
  return peak;
}

describe("true peak's WebAssembly kernel (0455)", () => {
  const noise = noiseSource(11);
  const loud = (n: number, gain: number) => Float32Array.from({ length: n }, () => gain * noise());

  it("gives the JavaScript loop's figure to the bit: stereo, mono, four channels, any chunk size", () => {
    const left = concat(loud(5000, 0.9), faded(44100 / 4, -2, 0.1, 44100, 0.7), loud(3000, 0.3));
    const right = concat(loud(3000, 0.5), faded(11025, -1, 0.15, 44100, 1.3), loud(5000, 0.95));
    for (const chunk of [1, 7, 16, 1152, 9000, left.length]) {
      expect(meter([left, right], chunk).peak()).toBe(loopPeak([left, right]));
      expect(meter([right], chunk).peak()).toBe(loopPeak([right]));
    }
    expect(meter([left, right, right, left], 1000).peak()).toBe(loopPeak([left, right]));
  });

  it("reads a chunk longer than its slice, and meters pushed in turn keep their own history", () => {
    const big = [loud(300_000, 0.8), loud(300_000, 0.7)];
    expect(meter(big, big[0].length).peak()).toBe(loopPeak(big));
    const a = [loud(20000, 0.6)], b = [loud(20000, 0.9), loud(20000, 0.2)];
    const ma = createTruePeakMeter(1), mb = createTruePeakMeter(2);
    for (let i = 0; i < 20000; i += 1000) {
      ma.push(a.map((x) => x.subarray(i, i + 1000)), 1000);
      mb.push(b.map((x) => x.subarray(i, i + 1000)), 1000);
    }
    ma.finish();
    mb.finish();
    expect(ma.peak()).toBe(loopPeak(a));
    expect(mb.peak()).toBe(loopPeak(b));
  });
});

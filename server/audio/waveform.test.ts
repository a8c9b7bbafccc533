import { describe, expect, it } from "vitest";
import { feed } from "../testing/audio-signals.ts";
import { createPeakCollector, PEAK_PAIRS } from "./waveform.ts";

function peaksOf(channels: Float32Array[], chunk?: number, target?: number) {
  const p = createPeakCollector(channels.length);
  feed(p.push, channels, chunk);
  return p.peaks(target);
}

describe("waveform peaks", () => {
  it("gives 1,000 pairs for a track of any length, each the min and max of its slice", () => {
    for (const n of [44100 * 3, 44100 * 60 + 17, 123457]) {
      // A ramp from -1 to 1: slice k spans values from -1 + 2k/1000 to -1 + 2(k+1)/1000.
      const ramp = Float32Array.from({ length: n }, (_, i) => -1 + (2 * i) / (n - 1));
      const peaks = peaksOf([ramp]);
      expect(peaks).toHaveLength(PEAK_PAIRS);
      // Slices differ from an exact thousandth by at most one fine bucket (< n/2048 samples).
      const slack = 2 / 2048 + 1e-3;
      peaks.forEach(([lo, hi], k) => {
        expect(Math.abs(lo - (-1 + (2 * k) / PEAK_PAIRS))).toBeLessThan(slack);
        expect(Math.abs(hi - (-1 + (2 * (k + 1)) / PEAK_PAIRS))).toBeLessThan(slack);
      });
    }
  });

  it("gives one pair per sample for a very short input", () => {
    const x = Float32Array.from({ length: 300 }, (_, i) => Math.sin(i));
    const peaks = peaksOf([x]);
    expect(peaks).toHaveLength(300);
    expect(peaks[1]).toEqual([Math.round(Math.sin(1) * 1e4) / 1e4, Math.round(Math.sin(1) * 1e4) / 1e4]);
  });

  it("takes both channels, rounds to 4 decimals and clamps to -1..1", () => {
    const n = 44100;
    const left = new Float32Array(n).fill(0.123456);
    const right = new Float32Array(n).fill(-0.5);
    right[n - 1] = -1.7;
    const peaks = peaksOf([left, right]);
    expect(peaks[0]).toEqual([-0.5, 0.1235]);
    expect(peaks[PEAK_PAIRS - 1]).toEqual([-1, 0.1235]);
  });

  it("finds a single click in its slice", () => {
    const n = 44100 * 10;
    const x = new Float32Array(n);
    x[Math.floor(n * 0.7501)] = 0.9;
    const peaks = peaksOf([x]);
    const hits = peaks.flatMap(([, hi], k) => (hi > 0 ? [k] : []));
    expect(hits).toEqual([750]);
  });

  it("does not depend on the chunk size", () => {
    const x = Float32Array.from({ length: 200000 }, (_, i) => Math.sin(i / 300) * Math.cos(i / 7000));
    const whole = peaksOf([x], x.length);
    for (const chunk of [1, 999, 4608]) expect(peaksOf([x], chunk)).toEqual(whole);
  });
});

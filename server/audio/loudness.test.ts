import { describe, expect, it } from "vitest";
import { createLoudnessMeter, kWeightingFilters } from "./loudness.ts";
import { concat, feed, sine } from "../testing/audio-signals.ts";

function measure(sampleRate: number, channels: Float32Array[], chunk?: number) {
  const m = createLoudnessMeter(sampleRate, channels.length);
  feed(m.push, channels, chunk);
  return m;
}

describe("K-weighting", () => {
  it("reproduces the 48 kHz coefficients tabulated in ITU-R BS.1770-4", () => {
    const [shelf, highPass] = kWeightingFilters(48000);
    const table = [
      [shelf.b0, 1.53512485958697],
      [shelf.b1, -2.69169618940638],
      [shelf.b2, 1.19839281085285],
      [shelf.a1, -1.69065929318241],
      [shelf.a2, 0.73248077421585],
      [highPass.b0, 1],
      [highPass.b1, -2],
      [highPass.b2, 1],
      [highPass.a1, -1.99004745483398],
      [highPass.a2, 0.99007225036621],
    ];
    for (const [ours, standard] of table) expect(ours).toBeCloseTo(standard, 10);
  });

  it("recomputes the coefficients for other sample rates", () => {
    expect(kWeightingFilters(44100)[0].a1).not.toBeCloseTo(kWeightingFilters(48000)[0].a1, 3);
  });
});

describe("integrated loudness (BS.1770-4)", () => {
  it.each([48000, 44100, 32000, 22050, 11025])(
    "reads a 997 Hz sine at -20 dBFS in both channels as -20 LUFS at %i Hz",
    (fs) => {
      const s = sine(997, -20, 5, fs);
      const lufs = measure(fs, [s, s]).integrated()!;
      expect(Math.abs(lufs + 20)).toBeLessThan(0.1); // the standard's own check allows ±0.5
    },
  );

  it("weights each channel by 1: one channel alone is 3 dB quieter", () => {
    const s = sine(997, -20, 5, 48000);
    expect(measure(48000, [s]).integrated()!).toBeCloseTo(-23.01, 1);
    expect(measure(48000, [s, new Float32Array(s.length)]).integrated()!).toBeCloseTo(-23.01, 1);
  });

  it("attenuates low bass (the high-pass) and lifts the top (the shelf)", () => {
    const at = (f: number) => {
      const s = sine(f, -20, 3, 48000);
      return measure(48000, [s, s]).integrated()!;
    };
    // At 997 Hz the curve gives +0.69 dB (hence the -0.691 in the formula); the shelf's +4 dB holds
    // from a few kHz up, and the high-pass takes several dB off at 20 Hz.
    expect(at(8000) - at(997)).toBeGreaterThan(3);
    expect(at(8000) - at(997)).toBeLessThan(4);
    expect(at(20) - at(997)).toBeLessThan(-2);
  });

  it("has 400 ms blocks every 100 ms: 1 s of sound makes 7 blocks", () => {
    const s = sine(997, -20, 1, 48000);
    expect(measure(48000, [s, s]).blocks().length).toBe(7);
    // 11.025 kHz has 1102.5 samples per 100 ms: the edges do not drift.
    const t = sine(997, -20, 10, 11025);
    expect(measure(11025, [t, t]).blocks().length).toBe(97);
  });

  it("gives the same figure whatever the chunk size", () => {
    const s = concat(sine(997, -20, 2, 44100), sine(300, -35, 2, 44100));
    const whole = measure(44100, [s, s], s.length).integrated()!;
    for (const chunk of [1, 17, 1152, 4410, 100000]) {
      expect(measure(44100, [s, s], chunk).integrated()!).toBeCloseTo(whole, 9);
    }
  });

  it("has no loudness for silence or a signal under the -70 LUFS absolute gate", () => {
    const silence = new Float32Array(48000 * 3);
    expect(measure(48000, [silence, silence]).integrated()).toBeNull();
    const faint = sine(997, -75, 3, 48000); // -75 LUFS
    expect(measure(48000, [faint, faint]).integrated()).toBeNull();
    const justAbove = sine(997, -65, 3, 48000);
    expect(measure(48000, [justAbove, justAbove]).integrated()!).toBeCloseTo(-65, 0);
  });

  it("leaves out of the absolute gate's mean the silent part of a track", () => {
    // 5 s of -20 LUFS then 20 s of silence. Ungated the mean would be -27; gated, the 47 whole blocks
    // count plus the three straddling the end (3/4, 1/2 and 1/4 of the energy): -20 + 10·log10(48.5/50).
    const s = concat(sine(997, -20, 5, 48000), new Float32Array(48000 * 20));
    const expected = -20 + 10 * Math.log10(48.5 / 50);
    expect(measure(48000, [s, s]).integrated()!).toBeCloseTo(expected, 1);
  });

  it("drops blocks more than 10 LU under the gated mean (relative gate)", () => {
    // -20 and -40 LUFS halves: the -40 half is 20 LU down and is gated out, so the figure is -20,
    // not the energy mean of both (-22.97).
    const far = concat(sine(997, -20, 10, 48000), sine(997, -40, 10, 48000));
    expect(Math.abs(measure(48000, [far, far]).integrated()! + 20)).toBeLessThan(0.1);
    // -20 and -26 halves are within 10 LU: both count, energy mean 10·log10((1 + 10^-0.6)/2) - 20.
    const near = concat(sine(997, -20, 10, 48000), sine(997, -26, 10, 48000));
    const expected = 10 * Math.log10((1 + 10 ** -0.6) / 2) - 20;
    expect(Math.abs(measure(48000, [near, near]).integrated()! - expected)).toBeLessThan(0.1);
  });
});

/**
 * The 400 ms blocks' mean squares as the JavaScript loop before 0455 computed them: each channel
 * through both stages in Direct Form I, the newest feedback term last, summed per range as
 * `left + right` (or the lone channel), the ranges split at the chunks and the 100 ms edges.
 */
function loopBlocks(fs: number, channels: Float32Array[], chunk: number): number[] {
  const [s, h] = kWeightingFilters(fs);
  const states = channels.map(() => new Float64Array(8));
  const one = (x: Float32Array, st: Float64Array, from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) {
      const y = s.b0 * x[i] + s.b1 * st[0] + s.b2 * st[1] - s.a2 * st[3] - s.a1 * st[2];
      st[1] = st[0], st[0] = x[i], st[3] = st[2], st[2] = y;
      const z = h.b0 * y + h.b1 * st[4] + h.b2 * st[5] - h.a2 * st[7] - h.a1 * st[6];
      st[5] = st[4], st[4] = y, st[7] = st[6], st[6] = z;
      sum += z * z;
    }
    return sum;
  };
  let subIndex = 0, subEnd = Math.floor(fs / 10), sample = 0, subSum = 0;
  const ring: [number, number][] = [];
  const blocks: number[] = [];
  feed(
    (chs, length) => {
      for (let from = 0; from < length;) {
        const to = Math.min(length, from + (subEnd - sample));
        for (let c = 0; c < chs.length; c += 2) {
          subSum += c + 1 < chs.length
            ? one(chs[c], states[c], from, to) + one(chs[c + 1], states[c + 1], from, to)
            : one(chs[c], states[c], from, to);
        }
        sample += to - from;
        from = to;
        if (sample !== subEnd) continue;
        ring[subIndex & 3] = [subSum, subEnd - Math.floor((subIndex * fs) / 10)];
        subSum = 0;
        if (subIndex >= 3) {
          blocks.push(
            (ring[0][0] + ring[1][0] + ring[2][0] + ring[3][0]) / (ring[0][1] + ring[1][1] + ring[2][1] + ring[3][1]),
          );
        }
        subIndex++;
        subEnd = Math.floor(((subIndex + 1) * fs) / 10);
      }
    },
    channels,
    chunk,
  );
  return blocks;
}

describe("K-weighting's WebAssembly kernel (0455)", () => {
  it("gives the JavaScript loop's block mean squares to the bit: stereo, mono, three channels, any chunk", () => {
    const left = concat(sine(997, -12, 1.3, 44100), sine(60, -3, 0.7, 44100, 0.4));
    const right = concat(sine(5000, -20, 0.9, 44100, 1), sine(200, -6, 1.1, 44100));
    for (const chunk of [1, 1000, 9000, 100_000]) {
      expect([...measure(44100, [left, right], chunk).blocks()]).toEqual(loopBlocks(44100, [left, right], chunk));
      expect([...measure(44100, [right], chunk).blocks()]).toEqual(loopBlocks(44100, [right], chunk));
    }
    const three = [left, right, left.map((x) => x / 2)];
    expect([...measure(48000, three, 4096).blocks()]).toEqual(loopBlocks(48000, three, 4096));
  });
});

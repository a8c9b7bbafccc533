/**
 * Integrated loudness per ITU-R BS.1770-4 (the measure EBU R128 uses).
 *
 * - K-weighting: a high shelf (about +4 dB above 1.5 kHz, the head's effect) then a high-pass (about
 *   38 Hz, "RLB"). The standard tabulates both biquads for 48 kHz only; here they are designed from
 *   their analog prototypes (centre frequency, gain, Q) by the bilinear transform with the centre
 *   frequency pre-warped, which gives back the 48 kHz table (tested) and the same curve at 44.1, 32,
 *   24, 22.05, 16, 12, 11.025 and 8 kHz.
 * - Mean square over 400 ms blocks overlapping by 75 %: kept as 100 ms sub-blocks, four to a block.
 *   Sub-block edges fall at sample floor(k·fs/10), so 11.025 kHz has no rounding drift.
 * - Channel weights: 1 for left and right; a mono file is measured as its one channel (no +3 dB
 *   "dual mono" assumption).
 * - Gating: blocks above -70 LUFS (absolute), then above the mean of those minus 10 LU (relative);
 *   L = -0.691 + 10·log10(mean of the kept blocks' mean squares).
 * A measurement with no block above -70 LUFS (silence, or under 400 ms of audio) has no loudness:
 * `integrated()` gives null rather than -Infinity, which JSON cannot carry.
 */

import { filterRange } from "./loudness-kernel.ts";

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * A biquad's poles lie inside the unit circle (the stability triangle): |a2| < 1 and |a1| < 1 + a2.
 * A filter designed at or above the Nyquist frequency fails this (issue 22: a 4 kHz band edge at
 * 5.5 kHz gave a2 = 5.64) and its output grows without bound.
 */
export const isStableBiquad = (f: Biquad): boolean => Math.abs(f.a2) < 1 && Math.abs(f.a1) < 1 + f.a2;

/**
 * Highest frequency a filter is designed at, as a share of the sample rate: every corner or centre
 * frequency is given relative to the rate it runs at and held below the Nyquist frequency (0.5), where
 * the bilinear transform's pre-warping and the cookbook's formulas still hold (docs/decisions/0218).
 * None of today's filters reaches it at the lowest MPEG rate (8 kHz; the bands run at 4 kHz there).
 */
export const MAX_DESIGN_SHARE = 0.45;
export const designFrequency = (f0: number, sampleRate: number): number => Math.min(f0, MAX_DESIGN_SHARE * sampleRate);

// Analog prototypes of the two K-weighting stages, fitted to the standard's 48 kHz coefficients.
const SHELF = { f0: 1681.974450955533, gainDb: 3.999843853973347, q: 0.7071752369554196 };
const HIGH_PASS = { f0: 38.13547087602444, q: 0.5003270373238773 };

/** The two K-weighting biquads for a sample rate (a0 normalised to 1). */
export function kWeightingFilters(sampleRate: number): [Biquad, Biquad] {
  let k = Math.tan((Math.PI * designFrequency(SHELF.f0, sampleRate)) / sampleRate);
  const vh = 10 ** (SHELF.gainDb / 20);
  // The shelf's mid-band gain: where the prototype sits between 0 dB and the full shelf.
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / SHELF.q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / SHELF.q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / SHELF.q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / SHELF.q + k * k) / a0,
  };
  k = Math.tan((Math.PI * designFrequency(HIGH_PASS.f0, sampleRate)) / sampleRate);
  a0 = 1 + k / HIGH_PASS.q + k * k;
  // The standard's high-pass numerator is 1, -2, 1 (unnormalised: its gain is part of the -0.691).
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / HIGH_PASS.q + k * k) / a0,
  };
  return [shelf, highPass];
}

export const ABSOLUTE_GATE_LUFS = -70;
export const RELATIVE_GATE_LU = -10;

const blockLoudness = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);

export interface LoudnessMeter {
  /** Planar samples, one array per channel, `length` samples each. */
  push(channels: Float32Array[], length: number): void;
  /** Integrated loudness in LUFS, or null when no block passes the absolute gate. */
  integrated(): number | null;
  /** The mean square of each 400 ms block so far (for tests and the curious). */
  blocks(): Float64Array;
}

export function createLoudnessMeter(sampleRate: number, channelCount: number): LoudnessMeter {
  const [s, h] = kWeightingFilters(sampleRate);
  // Filter state per pair of channels: x1 x2 y1 y2 for each stage, each value for both (interleaved).
  const state = Array.from({ length: Math.ceil(channelCount / 2) }, () => new Float64Array(16));

  let subIndex = 0; // index of the sub-block being filled
  let subEnd = Math.floor(sampleRate / 10); // absolute sample index where it ends
  let sample = 0; // absolute index of the next sample
  let subSum = 0; // Σ weighted squares in the current sub-block, all channels
  // The last four whole sub-blocks (energy and length), as a ring.
  const ringSum = new Float64Array(4);
  const ringLen = new Float64Array(4);
  let blocks = new Float64Array(1024);
  let blockCount = 0;

  function closeSubBlock() {
    const len = subEnd - Math.floor((subIndex * sampleRate) / 10);
    ringSum[subIndex & 3] = subSum;
    ringLen[subIndex & 3] = len;
    subSum = 0;
    if (subIndex >= 3) {
      const z = (ringSum[0] + ringSum[1] + ringSum[2] + ringSum[3]) /
        (ringLen[0] + ringLen[1] + ringLen[2] + ringLen[3]);
      if (blockCount === blocks.length) {
        const grown = new Float64Array(blocks.length * 2);
        grown.set(blocks);
        blocks = grown;
      }
      blocks[blockCount++] = z;
    }
    subIndex++;
    subEnd = Math.floor(((subIndex + 1) * sampleRate) / 10);
  }

  // The shelf's b0 b1 b2 a1 a2, then the high-pass's, as loudness-kernel.ts reads them.
  const coefs = Float64Array.of(s.b0, s.b1, s.b2, s.a1, s.a2, h.b0, h.b1, h.b2, h.a1, h.a2);

  return {
    push(channels, length) {
      let from = 0;
      while (from < length) {
        const to = Math.min(length, from + (subEnd - sample));
        // Two channels go through one loop, a lane each (loudness-kernel.ts): each filter's feedback
        // is a chain of dependent multiply-adds, and two side by side run as fast as one. Every
        // channel weight is 1 (left, right, or the one mono channel).
        for (let c = 0; c < channelCount; c += 2) {
          const right = c + 1 < channelCount ? channels[c + 1] : null;
          subSum += filterRange(channels[c], right, from, to, state[c >> 1], coefs);
        }
        sample += to - from;
        from = to;
        if (sample === subEnd) closeSubBlock();
      }
    },

    integrated() {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < blockCount; i++) {
        if (blockLoudness(blocks[i]) > ABSOLUTE_GATE_LUFS) {
          sum += blocks[i];
          n++;
        }
      }
      if (n === 0) return null;
      const relativeGate = blockLoudness(sum / n) + RELATIVE_GATE_LU;
      sum = 0;
      n = 0;
      for (let i = 0; i < blockCount; i++) {
        const l = blockLoudness(blocks[i]);
        if (l > ABSOLUTE_GATE_LUFS && l > relativeGate) {
          sum += blocks[i];
          n++;
        }
      }
      return blockLoudness(sum / n);
    },

    blocks: () => blocks.slice(0, blockCount),
  };
}

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

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

// Analog prototypes of the two K-weighting stages, fitted to the standard's 48 kHz coefficients.
const SHELF = { f0: 1681.974450955533, gainDb: 3.999843853973347, q: 0.7071752369554196 };
const HIGH_PASS = { f0: 38.13547087602444, q: 0.5003270373238773 };

/** The two K-weighting biquads for a sample rate (a0 normalised to 1). */
export function kWeightingFilters(sampleRate: number): [Biquad, Biquad] {
  let k = Math.tan((Math.PI * SHELF.f0) / sampleRate);
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
  k = Math.tan((Math.PI * HIGH_PASS.f0) / sampleRate);
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
  // Filter state per channel: x1 x2 y1 y2 for each stage.
  const state = Array.from({ length: channelCount }, () => new Float64Array(8));

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
      const z = (ringSum[0] + ringSum[1] + ringSum[2] + ringSum[3]) / (ringLen[0] + ringLen[1] + ringLen[2] + ringLen[3]);
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

  return {
    push(channels, length) {
      let from = 0;
      while (from < length) {
        const to = Math.min(length, from + (subEnd - sample));
        for (let c = 0; c < channelCount; c++) {
          const x = channels[c];
          const st = state[c];
          let sx1 = st[0], sx2 = st[1], sy1 = st[2], sy2 = st[3];
          let hx1 = st[4], hx2 = st[5], hy1 = st[6], hy2 = st[7];
          let sum = 0;
          for (let i = from; i < to; i++) {
            const x0 = x[i];
            const y = s.b0 * x0 + s.b1 * sx1 + s.b2 * sx2 - s.a1 * sy1 - s.a2 * sy2;
            sx2 = sx1;
            sx1 = x0;
            sy2 = sy1;
            sy1 = y;
            const z = h.b0 * y + h.b1 * hx1 + h.b2 * hx2 - h.a1 * hy1 - h.a2 * hy2;
            hx2 = hx1;
            hx1 = y;
            hy2 = hy1;
            hy1 = z;
            sum += z * z;
          }
          st[0] = sx1, st[1] = sx2, st[2] = sy1, st[3] = sy2;
          st[4] = hx1, st[5] = hx2, st[6] = hy1, st[7] = hy2;
          subSum += sum; // every channel weight is 1 (left, right, or the one mono channel)
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

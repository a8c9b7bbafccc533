/**
 * Waveform peaks for a player, gathered in the same pass as everything else, without knowing the
 * length in advance: samples go into fine buckets (min and max over all channels) that start one
 * sample wide; whenever 4,096 are full, neighbours are merged pairwise and the bucket width doubles.
 * At the end the 2,048–4,096 fine buckets (fewer for a short file) are merged into `target` output
 * pairs, each taking the fine buckets that start inside its share of the length: the widths differ
 * by at most one fine bucket, under 1/2,000 of the track. So no estimate from a Xing header or the
 * file size is needed, and memory is fixed (two arrays of 4,096 numbers).
 */

const FINE = 4096;
export const PEAK_PAIRS = 1000;

export interface PeakCollector {
  push(channels: Float32Array[], length: number): void;
  /** Up to `target` [min, max] pairs, rounded to 4 decimals and clamped to -1..1. */
  peaks(target?: number): [number, number][];
}

const round4 = (x: number) => Math.round(Math.max(-1, Math.min(1, x)) * 10000) / 10000 + 0; // + 0: no -0

export function createPeakCollector(channelCount: number): PeakCollector {
  const mins = new Float32Array(FINE);
  const maxs = new Float32Array(FINE);
  let count = 0; // whole fine buckets
  let width = 1; // samples per fine bucket
  let filled = 0; // samples in the open bucket
  let lo = Infinity;
  let hi = -Infinity;

  function mergePairs() {
    for (let i = 0; i < FINE / 2; i++) {
      mins[i] = Math.min(mins[2 * i], mins[2 * i + 1]);
      maxs[i] = Math.max(maxs[2 * i], maxs[2 * i + 1]);
    }
    count = FINE / 2;
    width *= 2;
  }

  return {
    push(channels, length) {
      // The open bucket's extremes in locals while scanning: a closure variable written in the loop
      // is a heap number the optimiser must box and reload (0104).
      let bucketLo = +lo, bucketHi = +hi;
      let i = 0;
      while (i < length) {
        const end = Math.min(length, i + (width - filled));
        for (let c = 0; c < channelCount; c++) {
          const x = channels[c];
          for (let j = i; j < end; j++) {
            const v = x[j];
            if (v < bucketLo) bucketLo = v;
            if (v > bucketHi) bucketHi = v;
          }
        }
        filled += end - i;
        i = end;
        if (filled === width) {
          mins[count] = bucketLo;
          maxs[count] = bucketHi;
          count++;
          bucketLo = Infinity;
          bucketHi = -Infinity;
          filled = 0;
          if (count === FINE) mergePairs();
        }
      }
      lo = bucketLo;
      hi = bucketHi;
    },

    peaks(target = PEAK_PAIRS) {
      const n = count + (filled > 0 ? 1 : 0);
      const bucketMin = (i: number) => (i < count ? mins[i] : lo);
      const bucketMax = (i: number) => (i < count ? maxs[i] : hi);
      const out: [number, number][] = [];
      if (n <= target) {
        for (let i = 0; i < n; i++) out.push([round4(bucketMin(i)), round4(bucketMax(i))]);
        return out;
      }
      for (let k = 0; k < target; k++) {
        const from = Math.floor((k * n) / target);
        const to = Math.floor(((k + 1) * n) / target);
        let a = Infinity, b = -Infinity;
        for (let i = from; i < to; i++) {
          a = Math.min(a, bucketMin(i));
          b = Math.max(b, bucketMax(i));
        }
        out.push([round4(a), round4(b)]);
      }
      return out;
    },
  };
}

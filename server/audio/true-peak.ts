/**
 * True peak per ITU-R BS.1770-4 annex 2: the signal is oversampled 4× (the annex's factor for 44.1
 * and 48 kHz; MP3 never goes above 48 kHz) by a polyphase FIR interpolator and the largest absolute
 * value of the oversampled signal is the true peak.
 *
 * The interpolator is our own design of the annex's kind: a 65-tap windowed sinc (Kaiser, β = 5)
 * with its cut-off at the input's Nyquist frequency, split into four phases of 16 taps. Its gain
 * stays within ±0.05 dB up to 0.4·fs (17.6 kHz at 44.1 kHz; the annex's 48-tap example droops more
 * there). The centre tap sits on a multiple of four, so phase 0 is the input sample itself (sinc
 * zeros): only phases 1–3 are computed. Float arithmetic throughout, so the annex's -12.04 dB
 * headroom for fixed-point is not needed.
 *
 * Most outputs cannot be a new peak, and are not computed: every phase sums to 1, so over a window
 * whose samples lie within c ± r an output lies within |c| + G·r (G the largest sum of a phase's
 * absolute taps, about 2.1). Each block of 16 outputs is skipped when that bound for its window (the
 * lowest and highest of its 31 samples) stays under the peak so far, the sample peak included, with
 * a margin of 1e-9 that covers the arithmetic's rounding: the figure is the one every output gives,
 * and on music most blocks go (a steady tone or a bass note swings little within 0.7 ms), though
 * hardly any of a dense full-scale loop's do.
 */

const PHASES = 4;
const TAPS = 16; // per phase
const KAISER_BETA = 5;

/** Zeroth-order modified Bessel function of the first kind (series; converges fast for β ≤ 10). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

/** Phases 1..3 of the interpolator: `phase[q][k]` weighs the input sample k steps back. */
export function interpolatorPhases(): Float64Array[] {
  const length = PHASES * TAPS + 1;
  const centre = (length - 1) / 2;
  const h = new Float64Array(length);
  for (let j = 0; j < length; j++) {
    const t = (j - centre) / PHASES; // in input samples
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    const r = (j - centre) / centre;
    h[j] = sinc *
      (besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / besselI0(KAISER_BETA));
  }
  const phases: Float64Array[] = [];
  for (let q = 1; q < PHASES; q++) {
    const p = new Float64Array(TAPS);
    let sum = 0;
    for (let k = 0; k < TAPS; k++) {
      p[k] = h[q + PHASES * k];
      sum += p[k];
    }
    // Unity gain at DC for each phase, so a constant signal reads its own level.
    for (let k = 0; k < TAPS; k++) p[k] /= sum;
    phases.push(p);
  }
  return phases;
}

export interface TruePeakMeter {
  push(channels: Float32Array[], length: number): void;
  /** End of the signal: runs the interpolator past the last samples (call once, before reading). */
  finish(): void;
  /** The largest absolute value of the 4× oversampled signal, linear (1 = full scale). */
  peak(): number;
  /** The largest absolute sample value, linear. */
  samplePeak(): number;
}

const HALF = TAPS / 2;
/** Outputs per block skipped or computed together; a block's window lies in two segments of samples. */
const SEG = 16;
/** The skipping bound is raised by this much to cover rounding (the sums' errors are near 1e-15). */
const MARGIN = 1 + 1e-9;

/**
 * Notes the lowest and highest sample of each segment of SEG samples of `w[0 … total)`; gives the
 * largest absolute sample (the history's samples were counted before: the figure is the same).
 */
function noteSegments(w: Float64Array, total: number, segLo: Float64Array, segHi: Float64Array): number {
  let peak = 0;
  for (let s = 0; s * SEG < total; s++) {
    let lo = w[s * SEG], hi = lo;
    const end = Math.min(total, (s + 1) * SEG);
    for (let j = s * SEG + 1; j < end; j++) {
      const v = w[j];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    segLo[s] = lo;
    segHi[s] = hi;
    if (hi > peak) peak = hi;
    if (-lo > peak) peak = -lo;
  }
  return peak;
}

export function createTruePeakMeter(channelCount: number): TruePeakMeter {
  const [p1, p2, p3] = interpolatorPhases();
  // The filter is symmetric about its centre, so phase 3 is phase 1 reversed and phase 2 is its own
  // mirror. Over sample pairs (k, TAPS-1-k): phase 2 = Σ e2·(x_k + x_mirror), and phases 1 and 3 =
  // Σ e1·(sum) ± o1·(difference): 24 multiplies per sample instead of 48.
  const e1 = new Float64Array(HALF),
    o1 = new Float64Array(HALF),
    e2 = new Float64Array(HALF);
  for (let k = 0; k < HALF; k++) {
    e1[k] = (p1[k] + p3[k]) / 2;
    o1[k] = (p1[k] - p3[k]) / 2;
    e2[k] = p2[k];
  }
  const [e1_0, e1_1, e1_2, e1_3, e1_4, e1_5, e1_6, e1_7] = e1;
  const [o1_0, o1_1, o1_2, o1_3, o1_4, o1_5, o1_6, o1_7] = o1;
  const [e2_0, e2_1, e2_2, e2_3, e2_4, e2_5, e2_6, e2_7] = e2;
  // G: phases 1 and 3 have the taps e1 ± o1 (on one side of the centre, then the other), phase 2 e2 twice.
  let g1 = 0, g2 = 0;
  for (let k = 0; k < HALF; k++) {
    g1 += Math.abs(e1[k] + o1[k]) + Math.abs(e1[k] - o1[k]);
    g2 += 2 * Math.abs(e2[k]);
  }
  const gain = Math.max(g1, g2);
  const hist = TAPS - 1;
  // Per channel: the last `hist` samples, then the new chunk (grown as needed).
  const work = Array.from({ length: channelCount }, () => new Float64Array(hist + 8192));
  // The lowest and highest sample of each segment of SEG samples of the work array.
  let segLo = new Float64Array(1024), segHi = new Float64Array(1024);
  let peak = 0;
  let samplePeak = 0;

  /**
   * Whether block `s`'s outputs provably stay under `tp` (see the module comment): its outputs
   * read work[SEG·s … SEG·s + SEG + 14], within segments s and s + 1.
   */
  function quiet(s: number, segments: number, tp: number): boolean {
    const lo = s + 1 < segments && segLo[s + 1] < segLo[s] ? segLo[s + 1] : segLo[s];
    const hi = s + 1 < segments && segHi[s + 1] > segHi[s] ? segHi[s + 1] : segHi[s];
    const mid = (hi + lo) / 2;
    return ((mid < 0 ? -mid : mid) + gain * ((hi - lo) / 2)) * MARGIN < tp;
  }

  const meter: TruePeakMeter = {
    push(channels, length) {
      for (let c = 0; c < channelCount; c++) {
        let w = work[c];
        const total = hist + length;
        if (w.length < total) {
          const grown = new Float64Array(total);
          grown.set(w.subarray(0, hist));
          w = work[c] = grown;
        }
        const x = channels[c];
        w.set(x.length === length ? x : x.subarray(0, length), hist);
        const segments = Math.ceil(total / SEG);
        if (segLo.length < segments) {
          segLo = new Float64Array(segments);
          segHi = new Float64Array(segments);
        }
        const sp = Math.max(samplePeak, noteSegments(w, total, segLo, segHi));
        let tp = peak > sp ? peak : sp;
        // Runs of blocks that may hold a new peak, each read in one pass; the blocks between skipped.
        const blocks = Math.ceil(length / SEG);
        for (let s = 0; s < blocks;) {
          while (s < blocks && quiet(s, segments, tp)) s++;
          if (s === blocks) break;
          const from = s * SEG;
          while (s < blocks && !quiet(s, segments, tp)) s++;
          const to = Math.min(length, s * SEG);
          let r0 = w[from], r1 = w[from + 1], r2 = w[from + 2], r3 = w[from + 3], r4 = w[from + 4];
          let r5 = w[from + 5], r6 = w[from + 6], r7 = w[from + 7], r8 = w[from + 8], r9 = w[from + 9];
          let r10 = w[from + 10], r11 = w[from + 11], r12 = w[from + 12], r13 = w[from + 13], r14 = w[from + 14];
          for (let n = from + 15; n < to + 15; n++) {
            const r15 = w[n];
            const s0 = r15 + r0, d0 = r15 - r0;
            const s1 = r14 + r1, d1 = r14 - r1;
            const s2 = r13 + r2, d2 = r13 - r2;
            const s3 = r12 + r3, d3 = r12 - r3;
            const s4 = r11 + r4, d4 = r11 - r4;
            const s5 = r10 + r5, d5 = r10 - r5;
            const s6 = r9 + r6, d6 = r9 - r6;
            const s7 = r8 + r7, d7 = r8 - r7;
            const even1 = e1_0 * s0 + e1_1 * s1 + e1_2 * s2 + e1_3 * s3 +
              e1_4 * s4 + e1_5 * s5 + e1_6 * s6 + e1_7 * s7;
            const odd1 = o1_0 * d0 + o1_1 * d1 + o1_2 * d2 + o1_3 * d3 +
              o1_4 * d4 + o1_5 * d5 + o1_6 * d6 + o1_7 * d7;
            let even2 = e2_0 * s0 + e2_1 * s1 + e2_2 * s2 + e2_3 * s3 +
              e2_4 * s4 + e2_5 * s5 + e2_6 * s6 + e2_7 * s7;
            let a = even1 + odd1;
            let d = even1 - odd1;
            if (a < 0) a = -a;
            if (d < 0) d = -d;
            if (even2 < 0) even2 = -even2;
            if (a > tp) tp = a;
            if (d > tp) tp = d;
            if (even2 > tp) tp = even2;
            r0 = r1, r1 = r2, r2 = r3, r3 = r4, r4 = r5, r5 = r6, r6 = r7, r7 = r8;
            r8 = r9, r9 = r10, r10 = r11, r11 = r12, r12 = r13, r13 = r14, r14 = r15;
          }
        }
        peak = tp;
        samplePeak = sp;
        w.copyWithin(0, length, total);
      }
    },
    finish() {
      // The filter lags the input by half its length: that many silent samples bring the last through.
      const tail = Array.from(
        { length: channelCount },
        () => new Float32Array(HALF),
      );
      meter.push(tail, HALF);
    },
    peak: () => peak,
    samplePeak: () => samplePeak,
  };
  return meter;
}

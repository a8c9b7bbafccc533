/**
 * The key's chroma front end (issue 38, docs/decisions/0410): harmonic pitch-class profiles in the
 * manner of Gómez (2006, "Tonal description of music audio signals"), written here from the published
 * description. key.ts reads the key from what this collects.
 *
 * Fed with band-envelopes.ts's half-rate mono mix. Framing is anchored to the content: nothing is
 * read before the first sample above -80 dBFS, and from there the mix is low-passed (a binomial
 * half-band, then a 4th-order Butterworth near 1.1 kHz), decimated to about 2.8 kHz (2.7 at 48 kHz
 * input) and cut into back-to-back Hann-windowed frames of 2048 samples (about 0.74 s, bins of about
 * 1.35 Hz: a semitone is two bins apart at 40 Hz). Every frame is read: leading silence
 * moves nothing, and another sample rate moves the frames by a fraction of a frame over a track, not
 * by whole frames read or passed over.
 *
 * Per frame:
 * - spectral peaks: a bin higher than its two neighbours on each side and than twice the mean around
 *   it (a semitone each way); frequency by parabolic interpolation of the log magnitudes;
 * - a peak's weight is its height above that mean; with `WHITEN`, divided by the spectral envelope
 *   (the mean magnitude a third of an octave each way: spectral whitening);
 * - harmonic weighting (`HARMONICS` = 8): a peak at f also counts, at 0.6^(h−1) of its weight, for
 *   the pitch f/h (it may be the h-th harmonic of a lower note); a third histogram keeps the peaks'
 *   own pitches unweighted, for counting the notes heard (key.ts);
 * - two views into 120-bin (10-cent) pitch-class histograms: the main view from peaks between 65 Hz
 *   and 2 kHz (1.15 kHz at this rate: 0.42 of it) and the bass view from peaks between 40 and
 *   200 Hz. Each frame's histograms are scaled to a sum of 1 (loud and quiet parts count alike) and
 *   added to the current segment's.
 *
 * Segments are SEGMENT_FRAMES frames (about 9 s); key.ts reads the key from their duration-weighted
 * sum and how many of them agree with it.
 * The reference frequency (tuning) is estimated at the end over the whole track (circular mean of
 * the histogram within a semitone). Memory: a frame buffer, and 240 numbers per segment (30 KB for an
 * hour).
 */
import type { Biquad } from "./loudness.ts";
import { hannWindow, makeFft, realSplitTwiddles } from "./onset-flux.ts";
import { passFilter } from "./band-envelopes.ts";

/** Decimated rate aimed at: the input's divided by the largest whole factor that keeps at least this. */
const TARGET_RATE = 2500;
let TREBLE_LOW_HZ = 65;
const TREBLE_HIGH_HZ = 2000;
const BASS_LOW_HZ = 40;
const BASS_HIGH_HZ = 200;
/** A frame of at least this long (the next power of two in samples). */
const FRAME_SECONDS = 0.6;
export const FINE = 10; // histogram bins per semitone
export const BINS = 12 * FINE;
/** C0 in Hz (A4 = 440). */
const C0 = 440 * 2 ** (-57 / 12);
/** A peak must stand this much above the mean around it (amplitude ratio). */
const PEAK_OVER_MEAN = 2;
/**
 * Harmonic weighting: a peak at f also counts, at `HARMONIC_SLOPE`^(h−1) of its weight, for f/h,
 * h = 2 … `HARMONICS` (8 and 0.6 as in the published HPCP): on, as measured with the 2.8 kHz front
 * end (0412; 0410's first build measured it worse). Whitening is built and off (worse at every
 * setting measured, 0410/0412); `WHITEN = true` turns it on.
 */
let HARMONICS: number = 8;
let WHITEN: boolean = false;
const HARMONIC_SLOPE = 0.6;
/** Frames per segment. */
export let SEGMENT_FRAMES = 12;
/** For the bench's measurements only. */
export function setChromaOptions(
  o: { harmonics?: number; whiten?: boolean; segmentFrames?: number; trebleLowHz?: number },
) {
  if (o.trebleLowHz !== undefined) TREBLE_LOW_HZ = o.trebleLowHz;
  if (o.harmonics !== undefined) HARMONICS = o.harmonics;
  if (o.whiten !== undefined) WHITEN = o.whiten;
  if (o.segmentFrames !== undefined) SEGMENT_FRAMES = o.segmentFrames;
}
/** The first sample above this (|x|, about -80 dBFS) starts the framing. */
const ANCHOR_LEVEL = 1e-4;
/** Frames quieter than this (mean square between 40 Hz and 2 kHz, about -70 dBFS) count as silence. */
const SILENT_FRAME = 1e-7;
/** A frame is tonal when its peaks hold at least this share of its energy between 65 Hz and 2 kHz. */
export const TONAL_FRAME_SHARE = 0.25;

export interface ChromaSegment {
  /** Treble and bass views, 120 bins each (10 cents, C0 first), sums of the frames' shares. */
  treble: Float64Array;
  bass: Float64Array;
  /** The main view without harmonic weighting (the peaks' own pitches): how many notes were heard. */
  plain: Float64Array;
  /** Frames with sound, and those of them that were tonal. */
  frames: number;
  tonalFrames: number;
}

export interface ChromaFrontEnd {
  /** Mono samples at the rate given to `createChromaFrontEnd`. */
  push(mono: Float64Array, length: number): void;
  /** The segments so far (the last one may be short). */
  segments(): ChromaSegment[];
  /**
   * Every frame with sound's main view (120 bins, summing to 1, or all 0), back to back, in order:
   * what key.ts reads the chords heard from (0425). 480 bytes a frame: 2.3 MB for an hour.
   */
  frames(): Float32Array;
}

function newSegment(): ChromaSegment {
  return {
    treble: new Float64Array(BINS),
    bass: new Float64Array(BINS),
    plain: new Float64Array(BINS),
    frames: 0,
    tonalFrames: 0,
  };
}

/** The fine-histogram position (0 ≤ pos < 120) of a frequency. */
const finePos = (hz: number) => (((BINS * Math.log2(hz / C0)) % BINS) + BINS) % BINS;

function addAt(hist: Float64Array, hz: number, w: number) {
  addAtPos(hist, finePos(hz), w);
}

/** The h-th harmonic lies this many fine bins above its fundamental (h = 1 … 16; index 0 unused). */
const HARMONIC_BINS = Float64Array.from({ length: 17 }, (_, h) => (h ? BINS * Math.log2(h) : 0));

function addAtPos(hist: Float64Array, pos: number, w: number) {
  const i0 = Math.floor(pos), f = pos - i0;
  hist[i0] += w * (1 - f);
  hist[(i0 + 1) % BINS] += w * f;
}

/**
 * The per-frame analysis: `(frame, segment)` reads one frame of `size` samples at `rate` into the
 * segment's histograms and counts.
 */
function createFrameAnalyser(
  rate: number,
  size: number,
  keep: (treble: Float64Array, sum: number) => void,
): (frame: Float64Array, into: ChromaSegment) => void {
  // A real frame of `size` is one complex FFT of `size / 2` points, split afterwards.
  const m = size / 2;
  const fft = makeFft(m);
  const { twr, twi } = realSplitTwiddles(m);
  const window = hannWindow(size);
  const binHz = rate / size;
  const lo = Math.max(3, Math.floor(BASS_LOW_HZ / binHz));
  const trebleLo = Math.floor(TREBLE_LOW_HZ / binHz);
  const bassHi = Math.ceil(BASS_HIGH_HZ / binHz);
  const hi = Math.min(size / 2 - 3, Math.ceil(Math.min(TREBLE_HIGH_HZ, 0.42 * rate) / binHz));
  const top = size / 2 - 1;
  // Half-widths: the mean around a bin (a semitone each way) and the envelope (a third of an octave).
  const reach = new Int32Array(hi + 1);
  const envReach = new Int32Array(hi + 1);
  for (let k = lo; k <= hi; k++) {
    reach[k] = Math.max(2, Math.round(k * 0.06));
    envReach[k] = Math.max(4, Math.round(k * 0.26));
  }
  // The bins whose magnitudes are needed.
  const from = Math.max(1, lo - reach[lo] - 2);
  const to = Math.min(top, hi + (WHITEN ? envReach[hi] : reach[hi]) + 2);
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  const mag = new Float64Array(size / 2 + 1);
  const prefix = new Float64Array(size / 2 + 2);
  const treble = new Float64Array(BINS);
  const bass = new Float64Array(BINS);
  const plain = new Float64Array(BINS);

  return (frame, current) => {
    for (let j = 0; j < m; j++) {
      re[j] = frame[2 * j] * window[2 * j];
      im[j] = frame[2 * j + 1] * window[2 * j + 1];
    }
    fft(re, im);
    for (let k = from; k <= to; k++) {
      const k2 = m - k;
      const er = 0.5 * (re[k] + re[k2]), ei = 0.5 * (im[k] - im[k2]);
      const or = 0.5 * (im[k] + im[k2]), oi = -0.5 * (re[k] - re[k2]);
      const xr = er + or * twr[k] - oi * twi[k];
      const xi = ei + or * twi[k] + oi * twr[k];
      mag[k] = Math.sqrt(xr * xr + xi * xi);
    }
    prefix[from] = 0;
    for (let k = from; k <= to; k++) prefix[k + 1] = prefix[k] + mag[k];
    let energy = 0, trebleEnergy = 0;
    for (let k = lo; k <= hi; k++) {
      energy += mag[k] * mag[k];
      if (k >= trebleLo) trebleEnergy += mag[k] * mag[k];
    }
    if ((2 * energy) / (size * size * 0.375) < SILENT_FRAME) return;
    current.frames++;
    treble.fill(0);
    bass.fill(0);
    plain.fill(0);
    let peakEnergy = 0, tSum = 0, bSum = 0, pSum = 0;
    for (let k = lo; k <= hi; k++) {
      const v = mag[k];
      if (!(v > mag[k - 1] && v >= mag[k + 1] && v > mag[k - 2] && v >= mag[k + 2])) continue;
      const r = reach[k];
      const a = Math.max(from, k - r), b = Math.min(to, k + r);
      const mean = (prefix[b + 1] - prefix[a]) / (b + 1 - a);
      if (v < PEAK_OVER_MEAN * mean) continue;
      const er = envReach[k];
      const ea = Math.max(from, k - er), eb = Math.min(to, k + er);
      const env = (prefix[eb + 1] - prefix[ea]) / (eb + 1 - ea);
      const l = Math.log(mag[k - 1] + 1e-12), c = Math.log(v), rr = Math.log(mag[k + 1] + 1e-12);
      const den = l - 2 * c + rr;
      const delta = den < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - rr)) / den)) : 0;
      const hz = (k + delta) * binHz;
      const w = WHITEN ? (v - mean) / (env + 1e-12) : v - mean;
      if (k <= bassHi) {
        addAt(bass, hz, w);
        bSum += w;
      }
      if (k >= trebleLo) {
        const pos = finePos(hz);
        addAtPos(plain, pos, w);
        pSum += w;
        let g = w;
        for (let h = 1; h <= HARMONICS; h++, g *= HARMONIC_SLOPE) {
          addAtPos(treble, (((pos - HARMONIC_BINS[h]) % BINS) + BINS) % BINS, g);
          tSum += g;
        }
        peakEnergy += v * v + mag[k - 1] * mag[k - 1] + mag[k + 1] * mag[k + 1];
      }
    }
    if (peakEnergy >= TONAL_FRAME_SHARE * trebleEnergy && trebleEnergy > 0) current.tonalFrames++;
    keep(treble, tSum);
    if (tSum > 0) { for (let i = 0; i < BINS; i++) current.treble[i] += treble[i] / tSum; }
    if (bSum > 0) { for (let i = 0; i < BINS; i++) current.bass[i] += bass[i] / bSum; }
    if (pSum > 0) { for (let i = 0; i < BINS; i++) current.plain[i] += plain[i] / pSum; }
  };
}

export function createChromaFrontEnd(inputRate: number): ChromaFrontEnd {
  const factor = Math.max(1, Math.floor(inputRate / TARGET_RATE));
  const rate = inputRate / factor;
  const size = 2 ** Math.ceil(Math.log2(FRAME_SECONDS * rate));
  let kept = new Float32Array(BINS * 64);
  let keptFrames = 0;
  const analyseFrame = createFrameAnalyser(rate, size, (treble, sum) => {
    if ((keptFrames + 1) * BINS > kept.length) {
      const grown = new Float32Array(kept.length * 2);
      grown.set(kept);
      kept = grown;
    }
    const at = keptFrames++ * BINS;
    if (sum > 0) { for (let i = 0; i < BINS; i++) kept[at + i] = treble[i] / sum; }
  });
  // With an even factor, a first halving by the binomial (1 2 1) / 4 (its zero at the input's
  // Nyquist frequency; what folds below 2.2 kHz comes from above 8.8 kHz, at least 20 dB down), then
  // the Butterworth at half the rate: half the filter work per input sample.
  const pre = factor % 2 === 0 ? 2 : 1;
  const cutoff = Math.min(2200, 0.4 * rate);
  const s1: Biquad = passFilter("low", cutoff, 0.5411961, inputRate / pre);
  const s2: Biquad = passFilter("low", cutoff, 1.306563, inputRate / pre);
  const st = new Float64Array(10);
  let odd = 0; // whether the next input sample is the second of a pair
  const frame = new Float64Array(size);
  const done: ChromaSegment[] = [];
  let current = newSegment();
  let anchored = false;
  let filled = 0;
  let phase = 0;

  function frameDone() {
    analyseFrame(frame, current);
    if (++framesInSegment === SEGMENT_FRAMES) {
      done.push(current);
      current = newSegment();
      framesInSegment = 0;
    }
  }
  let framesInSegment = 0;

  return {
    push(mono, length) {
      // Locals throughout: a closure variable's value is of no known type to the optimiser (0104).
      const c0 = s1.b0, c1 = s1.b1, c2 = s1.b2, c3 = s1.a1, c4 = s1.a2;
      const d0 = s2.b0, d1 = s2.b1, d2 = s2.b2, d3 = s2.a1, d4 = s2.a2;
      let a1 = st[0], a2 = st[1], a3 = st[2], a4 = st[3], b1 = st[4], b2 = st[5], b3 = st[6], b4 = st[7];
      let n = filled | 0, p = phase | 0, t = odd | 0, e = st[8], o = st[9];
      const half = pre === 2, step = (factor / pre) | 0;
      let j = 0;
      if (!anchored) {
        while (j < length && Math.abs(mono[j]) <= ANCHOR_LEVEL) j++;
        if (j === length) return;
        anchored = true;
      }
      while (j < length) {
        let x = mono[j++];
        if (half) {
          // The pair's first sample waits; on its second, the binomial centred on the first.
          if (t === 0) {
            e = x;
            t = 1;
            continue;
          }
          const u = 0.25 * (o + 2 * e + x);
          o = x;
          t = 0;
          x = u;
        }
        if (factor === 1) {
          frame[n++] = x;
        } else {
          const y1 = c0 * x + c1 * a1 + c2 * a2 - c3 * a3 - c4 * a4;
          a2 = a1, a1 = x, a4 = a3, a3 = y1;
          const y = d0 * y1 + d1 * b1 + d2 * b2 - d3 * b3 - d4 * b4;
          b2 = b1, b1 = y1, b4 = b3, b3 = y;
          if (++p < step) continue;
          p = 0;
          frame[n++] = y;
        }
        if (n === size) {
          frameDone();
          n = 0;
        }
      }
      filled = n;
      phase = p;
      odd = t;
      st[8] = e, st[9] = o;
      st[0] = a1, st[1] = a2, st[2] = a3, st[3] = a4, st[4] = b1, st[5] = b2, st[6] = b3, st[7] = b4;
    },
    segments() {
      return current.frames > 0 ? [...done, current] : done;
    },
    frames() {
      return kept.subarray(0, keptFrames * BINS);
    },
  };
}

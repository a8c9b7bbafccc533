/**
 * The musical key, from a chromagram of the whole track against key profiles for electronic dance
 * music (docs/decisions/0215).
 *
 * Fed in the one pass with band-envelopes.ts's half-rate mono mix. That mix is low-passed (4th-order
 * Butterworth near 2.2 kHz) and decimated to about 5.5 kHz (a quarter of it at 44.1/48 kHz input,
 * less for lower rates), then cut into Hann-windowed frames of 4096 samples (about 0.7 s, bins of
 * about 1.4 Hz: a semitone is two bins apart at 55 Hz); one frame is read and the next passed over
 * (a key holds for minutes: half the track is plenty, for half the cost). Per frame
 * only spectral peaks count: a bin higher than its two neighbours on each side and than twice the
 * mean around it (a semitone each way), between 65 Hz and 2 kHz. Each peak's frequency (parabolic
 * interpolation) goes, by its amplitude above that mean, into a 120-bin pitch-class histogram (10
 * cents a bin); the frame's histogram is scaled to a sum of 1 so loud and quiet sections count
 * alike. Drums leave little: noise has no peaks above its own mean, and a kick's tail sits below
 * 65 Hz.
 *
 * At the end the tuning is the energy's circular mean over the 10 positions within a semitone; the
 * 120 bins fold into 12 pitch classes centred there, and the 12-bin profile is correlated (Pearson)
 * with the 24 rotations of Faraldo et al. (2016)'s EDM profiles (edma). The key is the best; null when
 * too little of the track was tonal (see `readKey`). Memory is fixed: a frame buffer and the
 * histogram.
 */
import { camelotOf, type KeyMode, keyName } from "../../domain/musical-key.ts";
import type { Biquad } from "./loudness.ts";
import { hannWindow, makeFft, realSplitTwiddles } from "./onset-flux.ts";
import { passFilter } from "./band-envelopes.ts";

/** Decimated rate aimed at: the lowest multiple of the input's that is at least this. */
const TARGET_RATE = 5000;
const LOWEST_HZ = 65;
const HIGHEST_HZ = 2000;
/** A frame of at least this long (the next power of two in samples). */
const FRAME_SECONDS = 0.6;
const FINE = 10; // histogram bins per semitone
/** C0 in Hz (A4 = 440). */
const C0 = 440 * 2 ** (-57 / 12);
/** A peak must stand this much above the mean around it (amplitude ratio). */
const PEAK_OVER_MEAN = 2;

/**
 * Faraldo, Gómez, Jordà & Herrera (2016), "Key Estimation in Electronic Dance Music" (ECIR): the
 * `edma` profiles (derived from EDM annotated by key), tonic first.
 */
const EDMA_MAJOR = [
  0.16519551,
  0.04749026,
  0.08293076,
  0.06687112,
  0.09994645,
  0.09274123,
  0.05294487,
  0.13159476,
  0.05218986,
  0.07443653,
  0.06940723,
  0.0642515,
];
const EDMA_MINOR = [
  0.17235348,
  0.05336489,
  0.0761009,
  0.10043649,
  0.05621498,
  0.08527853,
  0.0497915,
  0.13451001,
  0.07458916,
  0.05003023,
  0.09187879,
  0.05545106,
];

/**
 * The key is null when tonal frames are fewer than this share of the frames with sound: a frame is
 * tonal when its peaks hold at least `TONAL_FRAME_SHARE` of its energy between 65 Hz and 2 kHz.
 */
export const MIN_TONAL_FRAMES = 0.2;
export const TONAL_FRAME_SHARE = 0.25;
/** Or when the best profile's correlation is under this (no profile fits). */
export const MIN_CORRELATION = 0.5;
/**
 * Or when fewer than `MIN_PITCH_CLASSES` pitch classes hold `PITCH_CLASS_SHARE` of the chroma each:
 * one or two notes (a test tone, a kick tuned to a note, a bass on root and fifth) make no key.
 */
export const MIN_PITCH_CLASSES = 3;
export const PITCH_CLASS_SHARE = 0.05;
/** Frames quieter than this (mean square between 65 Hz and 2 kHz, about -70 dBFS) count as silence. */
const SILENT_FRAME = 1e-7;

export interface KeyReading {
  key: string | null;
  camelot: string | null;
  /** 0–1, three decimals; null when nothing tonal was heard (silence, drums only). */
  confidence: number | null;
}

export interface KeyChroma {
  /** Mono samples at the rate given to `createKeyChroma`. */
  push(mono: Float64Array, length: number): void;
  finish(): KeyReading;
}

export interface ChromaSummary {
  /** 12 pitch classes, C first, summing to 1 (all 0 when there was nothing). */
  chroma: Float64Array;
  /** Frames with sound, and those of them that were tonal. */
  frames: number;
  tonalFrames: number;
}

export function createKeyChroma(inputRate: number): KeyChroma {
  const factor = Math.max(1, Math.floor(inputRate / TARGET_RATE));
  const rate = inputRate / factor;
  const size = 2 ** Math.ceil(Math.log2(FRAME_SECONDS * rate));
  // A real frame of `size` is one complex FFT of `size / 2` points (even samples as the real part,
  // odd as the imaginary), split afterwards into the bins wanted.
  const m = size / 2;
  const fft = makeFft(m);
  const { twr, twi } = realSplitTwiddles(m);
  const window = hannWindow(size);
  const binHz = rate / size;
  const lo = Math.max(3, Math.floor(LOWEST_HZ / binHz));
  const hi = Math.min(size / 2 - 3, Math.ceil(Math.min(HIGHEST_HZ, 0.42 * rate) / binHz));
  // Half-width of the mean around each bin: a semitone (6 %) each way, at least two bins.
  const reach = new Int32Array(hi + 1);
  for (let k = lo; k <= hi; k++) reach[k] = Math.max(2, Math.round(k * 0.06));
  const cutoff = Math.min(2200, 0.4 * rate);
  // Butterworth 4th order as two sections (only when decimating).
  const s1: Biquad = passFilter("low", cutoff, 0.5411961, inputRate);
  const s2: Biquad = passFilter("low", cutoff, 1.306563, inputRate);
  const st = new Float64Array(8);
  const frame = new Float64Array(size);
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  const mag = new Float64Array(size / 2 + 1);
  const prefix = new Float64Array(size / 2 + 2);
  const fine = new Float64Array(12 * FINE);
  const total = new Float64Array(12 * FINE);
  let filled = 0;
  let phase = 0; // input samples since the last kept one
  let skip = 0; // input samples still to pass over before the next frame
  let frames = 0;
  let tonalFrames = 0;

  function analyseFrame() {
    for (let j = 0; j < m; j++) {
      re[j] = frame[2 * j] * window[2 * j];
      im[j] = frame[2 * j + 1] * window[2 * j + 1];
    }
    fft(re, im);
    let energy = 0;
    for (let k = lo - 2; k <= hi + 2; k++) {
      const k2 = m - k; // 0 < k < m here
      const er = 0.5 * (re[k] + re[k2]), ei = 0.5 * (im[k] - im[k2]);
      const or = 0.5 * (im[k] + im[k2]), oi = -0.5 * (re[k] - re[k2]);
      const xr = er + or * twr[k] - oi * twi[k];
      const xi = ei + or * twi[k] + oi * twr[k];
      mag[k] = Math.sqrt(xr * xr + xi * xi);
    }
    prefix[lo - 2] = 0;
    for (let k = lo - 2; k <= hi + 2; k++) prefix[k + 1] = prefix[k] + mag[k];
    for (let k = lo; k <= hi; k++) energy += mag[k] * mag[k];
    // Parseval with the Hann window's mean square (3/8): the band's mean square in the frame.
    if ((2 * energy) / (size * size * 0.375) < SILENT_FRAME) return;
    frames++;
    fine.fill(0);
    let peakEnergy = 0;
    let sum = 0;
    for (let k = lo; k <= hi; k++) {
      const m = mag[k];
      if (!(m > mag[k - 1] && m >= mag[k + 1] && m > mag[k - 2] && m >= mag[k + 2])) continue;
      const r = reach[k];
      const a = Math.max(lo - 2, k - r), b = Math.min(hi + 2, k + r);
      const mean = (prefix[b + 1] - prefix[a]) / (b + 1 - a);
      if (m < PEAK_OVER_MEAN * mean) continue;
      // Parabolic interpolation on the log magnitudes.
      const l = Math.log(mag[k - 1] + 1e-12), c = Math.log(m), rr = Math.log(mag[k + 1] + 1e-12);
      const den = l - 2 * c + rr;
      const delta = den < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - rr)) / den)) : 0;
      const hz = (k + delta) * binHz;
      const pos = (((12 * FINE * Math.log2(hz / C0)) % (12 * FINE)) + 12 * FINE) % (12 * FINE);
      const w = m - mean;
      const i0 = Math.floor(pos), f = pos - i0;
      fine[i0] += w * (1 - f);
      fine[(i0 + 1) % (12 * FINE)] += w * f;
      sum += w;
      // The peak's energy: its three central bins.
      peakEnergy += m * m + mag[k - 1] * mag[k - 1] + mag[k + 1] * mag[k + 1];
    }
    if (peakEnergy >= TONAL_FRAME_SHARE * energy) tonalFrames++;
    if (sum > 0) { for (let i = 0; i < total.length; i++) total[i] += fine[i] / sum; }
  }

  return {
    push(mono, length) {
      // Locals throughout: a closure variable's value is of no known type to the optimiser (0104).
      const c0 = s1.b0, c1 = s1.b1, c2 = s1.b2, c3 = s1.a1, c4 = s1.a2;
      const d0 = s2.b0, d1 = s2.b1, d2 = s2.b2, d3 = s2.a1, d4 = s2.a2;
      let a1 = st[0], a2 = st[1], a3 = st[2], a4 = st[3], b1 = st[4], b2 = st[5], b3 = st[6], b4 = st[7];
      let n = filled | 0, p = phase | 0;
      let j = 0;
      while (j < length) {
        // Between two frames read, a frame's worth of input is passed over (the filter picks up
        // again with a transient of about a millisecond, where the next window is near zero).
        if (skip > 0) {
          const pass = Math.min(skip, length - j);
          skip -= pass;
          j += pass;
          continue;
        }
        const x = mono[j++];
        if (factor === 1) {
          frame[n++] = x;
        } else {
          const y1 = c0 * x + c1 * a1 + c2 * a2 - c3 * a3 - c4 * a4;
          a2 = a1, a1 = x, a4 = a3, a3 = y1;
          const y = d0 * y1 + d1 * b1 + d2 * b2 - d3 * b3 - d4 * b4;
          b2 = b1, b1 = y1, b4 = b3, b3 = y;
          if (++p < factor) continue;
          p = 0;
          frame[n++] = y;
        }
        if (n === size) {
          analyseFrame();
          n = 0;
          skip = size * factor;
        }
      }
      filled = n;
      phase = p;
      st[0] = a1, st[1] = a2, st[2] = a3, st[3] = a4, st[4] = b1, st[5] = b2, st[6] = b3, st[7] = b4;
    },
    finish() {
      return readKey(summarise(total, frames, tonalFrames));
    },
  };
}

/** Folds the 10-cent histogram into 12 pitch classes around the track's own tuning. */
export function summarise(total: Float64Array, frames: number, tonalFrames: number): ChromaSummary {
  let s = 0, c = 0;
  for (let i = 0; i < total.length; i++) {
    const angle = (2 * Math.PI * (i % FINE)) / FINE;
    s += total[i] * Math.sin(angle);
    c += total[i] * Math.cos(angle);
  }
  // Offset of the semitone centres from equal temperament at A = 440, in histogram bins (−5 … 5).
  const offset = s === 0 && c === 0 ? 0 : (Math.atan2(s, c) / (2 * Math.PI)) * FINE;
  const chroma = new Float64Array(12);
  for (let i = 0; i < total.length; i++) {
    // Distance in semitones from the tuned centre below, shared linearly with the one above.
    const pos = (i - offset) / FINE;
    const low = Math.floor(pos), f = pos - low;
    chroma[((low % 12) + 12) % 12] += total[i] * (1 - f);
    chroma[(((low + 1) % 12) + 12) % 12] += total[i] * f;
  }
  const sum = chroma.reduce((a, b) => a + b, 0);
  if (sum > 0) { for (let i = 0; i < 12; i++) chroma[i] /= sum; }
  return { chroma, frames, tonalFrames };
}

function pearson(x: ArrayLike<number>, profile: number[], shift: number): number {
  let mx = 0, my = 0;
  for (let i = 0; i < 12; i++) {
    mx += x[i];
    my += profile[i];
  }
  mx /= 12;
  my /= 12;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < 12; i++) {
    const dx = x[(i + shift) % 12] - mx, dy = profile[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

export interface KeyScore {
  tonic: number;
  mode: KeyMode;
  correlation: number;
}

/** The 24 keys' correlations with a 12-bin chroma (C first), best first. */
export function scoreKeys(chroma: ArrayLike<number>): KeyScore[] {
  const scores: KeyScore[] = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    scores.push({ tonic, mode: "major", correlation: pearson(chroma, EDMA_MAJOR, tonic) });
    scores.push({ tonic, mode: "minor", correlation: pearson(chroma, EDMA_MINOR, tonic) });
  }
  return scores.sort((a, b) => b.correlation - a.correlation);
}

/**
 * The key of a summarised track. Null (all three fields) when no frame had sound, when fewer than
 * `MIN_TONAL_FRAMES` of the frames with sound were tonal (drums only), when fewer than three pitch
 * classes were heard (a lone tone), or when the best correlation is under `MIN_CORRELATION`. The confidence is the best correlation times the share of tonal
 * frames (each capped at 1), three decimals: a clear key held through the track is near 1.
 */
export function readKey(summary: ChromaSummary): KeyReading {
  const none = { key: null, camelot: null, confidence: null };
  if (summary.frames === 0 || summary.tonalFrames < MIN_TONAL_FRAMES * summary.frames) return none;
  if (summary.chroma.filter((x) => x >= PITCH_CLASS_SHARE).length < MIN_PITCH_CLASSES) return none;
  const [best] = scoreKeys(summary.chroma);
  if (best.correlation < MIN_CORRELATION) return none;
  const tonal = summary.tonalFrames / summary.frames;
  return {
    key: keyName(best.tonic, best.mode),
    camelot: camelotOf(best.tonic, best.mode),
    confidence: Math.round(Math.min(1, best.correlation) * Math.min(1, tonal) * 1000) / 1000,
  };
}

/**
 * The audio fingerprint (issue 25, docs/decisions/0247; speed and versions: issue 38, 0420–0423):
 * the same recording recognised however it was re-encoded, and at another speed. Our own code after
 * the method Lukáš Lalinský published for Chromaprint (a chroma image cut into 32-bit
 * sub-fingerprints by Haar-like filters), with our own untrained filters in the manner of Haitsma &
 * Kalker (2002): each bit is the sign of a difference of energies, so no threshold learnt from data
 * is needed. Nothing of Chromaprint's source or its trained classifiers is used.
 *
 * Fed in the one pass with band-envelopes.ts's half-rate mono mix:
 * - low-passed (4th-order Butterworth at 0.42 of the new rate) and decimated by the smallest whole
 *   factor that brings it to at most 5,512.5 Hz (5,512.5 Hz from 44.1 kHz, 4,800 Hz from 48 kHz);
 * - cut into Hann-windowed frames of 0.3715 s (the first power of two's worth at 5,512.5 Hz, zero
 *   padded to 2048 points at lower rates), one every 0.12383 s (two thirds overlap; the hop is
 *   kept in seconds, so a file resampled from 44.1 to 48 kHz gives frames at the same moments);
 * - per frame, from the first with sound, a fine chroma (the power of the bins between 55 Hz and
 *   1,760 Hz in 10-cent steps round the octave) and a fine spectrum (twelfth-octave bands from 40 Hz)
 *   are kept, for the first 130 s or so. A frame quieter than about -70 dBFS in the chroma's band is
 *   silence.
 *
 * At the end the codes are read from those frames (`readAt`): at the speed heard, and at each speed
 * of `SPEEDS`, as if the audio were played that much slower or faster (resampled, pitch and tempo
 * together, as a DJ's pitch fader or a "sped up" re-upload): the frames are read at `i / speed` and
 * the pitch classes and bands `1200·log2(speed)` cents higher. On a log-frequency axis a speed change
 * is a shift, and on the time axis a stretch, so no feature has to be invariant: the copy is read
 * back onto the original's axes. Each speed's frames give
 * - the codes: a 12-bin chroma per frame (fine bins summed into the 12 classes, square-rooted, unit
 *   length: a level change does not show) and, for each frame, 32 signs of differences over the
 *   `WINDOW` frames from it (about 2 s; see `codeOf`); 0 for a silent frame, and 0 is never matched;
 * - the mix: per frame, the levels of 8 bands (40 Hz – 2.5 kHz) below the frame's loudest, 4 bits
 *   each: what tells the same recording from another mix of the same notes (an instrumental, another
 *   take), which the chroma cannot.
 *
 * Only the codes and mix at the speed heard are stored (the first 120 s from the first sound, as
 * AcoustID keeps); the other speeds are looked up and never stored, so a stored fingerprint is
 * found by a copy at any speed of `SPEEDS` and by one in between (`compare` follows the drift).
 */
import type { Biquad } from "./loudness.ts";
import { passFilter } from "./band-envelopes.ts";
import { hannWindow, makeFft, realSplitTwiddles } from "./onset-flux.ts";
import {
  BAND_FROM_HZ,
  BANDS,
  FFT_SIZE,
  FINE,
  FRAME_SECONDS,
  type Frames,
  HIGHEST_HZ,
  HOP_SECONDS,
  LOWEST_HZ,
  MAX_CODES,
  type PrintCodes,
  SILENT_FRAME,
  TOP_RATE,
  WINDOW,
} from "./fingerprint-codes.ts";
import { readAt, type SpeedReading, SPEEDS } from "./fingerprint-speeds.ts";

// The fingerprint's API, kept whole here: the codes, the speeds, the comparison and the index.
export { FINGERPRINT_VERSION, HOP_SECONDS, MAX_CODES, type PrintCodes } from "./fingerprint-codes.ts";
export { type SpeedReading, SPEEDS } from "./fingerprint-speeds.ts";
export {
  type AudioMatchKind,
  audioMatchKind,
  bitErrorRate,
  compare,
  type Comparison,
  MATCH_MAX_BER,
  MATCH_MIN_CODES,
  MATCH_MIN_SHARE,
  popcount,
  SAME_MAX_MIX_DB,
  VERSION_MAX_BER,
} from "./fingerprint-compare.ts";
export {
  indexedPositions,
  isSegmentHash,
  printFromBytes,
  printToBytes,
  SEGMENT_EVERY,
  segmentHashAt,
} from "./fingerprint-index.ts";

/** Frames kept: enough for 120 s of codes read at the slowest speed. */
const MAX_FRAMES = Math.ceil((MAX_CODES + WINDOW) / 0.94) + 2;

/** What the fingerprinter gives: the stored codes and mix (speed 1), and the other speeds' (looked up only). */
export interface Fingerprint extends PrintCodes {
  /**
   * The readings at every speed of `SPEEDS`, made on the first call (about 13 × 5 ms for 120 s) and
   * kept: only a lookup needs them, so the analysis pass does not pay for them.
   */
  speeds(): SpeedReading[];
}

export interface Fingerprinter {
  /** Mono samples at the rate given to `createFingerprinter`. */
  push(mono: Float64Array, length: number): void;
  finish(): Fingerprint;
}

/** The per-bin tables: fine chroma bin and fine band of each FFT bin. */
function binTables(rate: number, m: number) {
  const binHz = rate / FFT_SIZE;
  const lo = Math.max(1, Math.ceil(LOWEST_HZ / binHz));
  const hi = Math.min(m - 1, Math.floor(Math.min(HIGHEST_HZ, 0.45 * rate) / binHz));
  const bandLo = Math.max(1, Math.ceil(BAND_FROM_HZ / binHz));
  const bandHi = Math.min(m - 1, Math.floor(0.45 * rate / binHz));
  // Each bin's power is spread over the fine bins its width covers (84 cents at 55 Hz, 3 at 1.7 kHz),
  // so that the chroma moves smoothly as a copy's pitch moves against the bins.
  const spreadFrom = new Int32Array(m + 1);
  const spreadBin: number[] = [], spreadWeight: number[] = [];
  const tenths = (hz: number) => (1200 * Math.log2(hz / 440) + 900) / 10 + 0.5;
  for (let k = 0; k < m; k++) {
    spreadFrom[k] = spreadBin.length;
    if (k < lo || k > hi) continue;
    const u0 = tenths((k - 0.5) * binHz), u1 = tenths((k + 0.5) * binHz);
    for (let u = Math.floor(u0); u < u1; u++) {
      const share = (Math.min(u + 1, u1) - Math.max(u, u0)) / (u1 - u0);
      spreadBin.push(((u % FINE) + FINE) % FINE);
      spreadWeight.push(share);
    }
  }
  spreadFrom[m] = spreadBin.length;
  // The bands likewise, in twelfths of an octave from BAND_FROM_HZ.
  const bandFrom = new Int32Array(m + 1);
  const bandBin: number[] = [], bandWeight: number[] = [];
  const twelfths = (hz: number) => 12 * Math.log2(hz / BAND_FROM_HZ);
  for (let k = 0; k < m; k++) {
    bandFrom[k] = bandBin.length;
    if (k < bandLo || k > bandHi) continue;
    const u0 = twelfths((k - 0.5) * binHz), u1 = twelfths((k + 0.5) * binHz);
    for (let u = Math.floor(u0); u < u1; u++) {
      if (u < 0 || u >= BANDS) continue;
      bandBin.push(u);
      bandWeight.push((Math.min(u + 1, u1) - Math.max(u, u0)) / (u1 - u0));
    }
  }
  bandFrom[m] = bandBin.length;
  return {
    lo,
    hi,
    bandFrom,
    bandBin: Int16Array.from(bandBin),
    bandWeight: Float64Array.from(bandWeight),
    spreadFrom,
    spreadBin: Int16Array.from(spreadBin),
    spreadWeight: Float64Array.from(spreadWeight),
    from: Math.min(lo, bandLo),
    to: Math.max(hi, bandHi),
  };
}

export function createFingerprinter(inputRate: number): Fingerprinter {
  const factor = Math.max(1, Math.ceil(inputRate / TOP_RATE));
  const rate = inputRate / factor;
  const frameLength = Math.min(FFT_SIZE, Math.round(FRAME_SECONDS * rate));
  const hop = HOP_SECONDS * rate;
  const m = FFT_SIZE / 2;
  const fft = makeFft(m);
  const { twr, twi } = realSplitTwiddles(m);
  const window = hannWindow(frameLength);
  const t = binTables(rate, m);
  const cutoff = 0.42 * rate;
  const s1: Biquad = passFilter("low", cutoff, 0.5411961, inputRate);
  const s2: Biquad = passFilter("low", cutoff, 1.306563, inputRate);
  const st = new Float64Array(8);
  // The last `frameLength` decimated samples, as a ring.
  const ring = new Float64Array(frameLength);
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  const kept: Frames = {
    count: 0,
    fine: new Float32Array(MAX_FRAMES * FINE),
    bands: new Float32Array(MAX_FRAMES * BANDS),
    silent: new Uint8Array(MAX_FRAMES),
  };
  let written = 0; // decimated samples so far
  let nextFrameEnd = frameLength; // the decimated sample count at which the next frame is complete
  let phase = 0;

  function frame() {
    // The ring's oldest sample is at `written % frameLength`.
    const start = written % frameLength;
    for (let j = 0; j < m; j++) {
      const a = 2 * j, b = a + 1;
      re[j] = a < frameLength ? ring[(start + a) % frameLength] * window[a] : 0;
      im[j] = b < frameLength ? ring[(start + b) % frameLength] * window[b] : 0;
    }
    fft(re, im);
    const n = kept.count;
    const fine = kept.fine, bands = kept.bands, fo = n * FINE, bo = n * BANDS;
    let total = 0;
    for (let k = t.from; k <= t.to; k++) {
      const k2 = m - k;
      const er = 0.5 * (re[k] + re[k2]), ei = 0.5 * (im[k] - im[k2]);
      const or = 0.5 * (im[k] + im[k2]), oi = -0.5 * (re[k] - re[k2]);
      const xr = er + or * twr[k] - oi * twi[k];
      const xi = ei + or * twi[k] + oi * twr[k];
      const p = xr * xr + xi * xi;
      if (k >= t.lo && k <= t.hi) {
        for (let i = t.spreadFrom[k]; i < t.spreadFrom[k + 1]; i++) fine[fo + t.spreadBin[i]] += p * t.spreadWeight[i];
        total += p;
      }
      for (let i = t.bandFrom[k]; i < t.bandFrom[k + 1]; i++) bands[bo + t.bandBin[i]] += p * t.bandWeight[i];
    }
    // Parseval with the Hann window's mean square (3/8).
    const quiet = (2 * total) / (frameLength * frameLength * 0.375) < SILENT_FRAME;
    if (n === 0 && quiet) {
      // Before the first sound: nothing kept.
      fine.fill(0, 0, FINE);
      bands.fill(0, 0, BANDS);
      return;
    }
    kept.silent[n] = quiet ? 1 : 0;
    kept.count++;
  }

  return {
    push(mono, length) {
      // Full: the rest of a long track costs nothing here.
      if (kept.count >= MAX_FRAMES) return;
      const c0 = s1.b0, c1 = s1.b1, c2 = s1.b2, c3 = s1.a1, c4 = s1.a2;
      const d0 = s2.b0, d1 = s2.b1, d2 = s2.b2, d3 = s2.a1, d4 = s2.a2;
      let a1 = st[0], a2 = st[1], a3 = st[2], a4 = st[3], b1 = st[4], b2 = st[5], b3 = st[6], b4 = st[7];
      let p = phase | 0;
      const f = factor | 0, len = frameLength | 0;
      for (let j = 0; j < length; j++) {
        const x = mono[j];
        const y1 = c0 * x + c1 * a1 + c2 * a2 - c3 * a3 - c4 * a4;
        a2 = a1, a1 = x, a4 = a3, a3 = y1;
        const y = d0 * y1 + d1 * b1 + d2 * b2 - d3 * b3 - d4 * b4;
        b2 = b1, b1 = y1, b4 = b3, b3 = y;
        if (++p < f) continue;
        p = 0;
        ring[written % len] = y;
        written++;
        if (written >= nextFrameEnd) {
          nextFrameEnd += hop;
          frame();
          if (kept.count >= MAX_FRAMES) break;
        }
      }
      phase = p;
      st[0] = a1, st[1] = a2, st[2] = a3, st[3] = a4, st[4] = b1, st[5] = b2, st[6] = b3, st[7] = b4;
    },
    finish() {
      const at1 = readAt(kept, 1);
      let speeds: SpeedReading[] | null = null;
      return {
        codes: at1.codes,
        mix: at1.mix,
        speeds: () => (speeds ??= SPEEDS.map((speed) => ({ speed, ...readAt(kept, speed) }))),
      };
    },
  };
}

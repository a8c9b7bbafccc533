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

/** The highest rate frames are read at. */
const TOP_RATE = 5512.5;
const FRAME_SECONDS = 2048 / TOP_RATE;
const FFT_SIZE = 2048;
/** Two thirds overlap. */
export const HOP_SECONDS = FRAME_SECONDS / 3;
const LOWEST_HZ = 55;
const HIGHEST_HZ = 1760;
/** Band mean square (Hann-corrected) under this is silence: about -70 dBFS. */
const SILENT_FRAME = 1e-7;
/** Chroma frames a code reads. */
const WINDOW = 16;
/** Codes kept: 120 s. */
export const MAX_CODES = Math.ceil(120 / HOP_SECONDS);
/** Fine chroma bins round the octave (10 cents each; bin 0 is C). */
const FINE = 120;
/** Fine spectrum: twelfth-octave bands from this frequency… */
const BAND_FROM_HZ = 40;
/** …six octaves of them (those above 0.45 of the rate stay empty). */
const BANDS = 72;
/** The mix's bands: the fine ones in groups of nine (three quarters of an octave). */
const MIX_BANDS = 8;
/** The mix's level step, dB (4 bits: 0 the frame's loudest band … 15, 45 dB or more below). */
const MIX_STEP_DB = 2;
/** Frames each side a frame is smoothed over (weights 1, 2, 1), in the chroma and the mix alike. */
const SMOOTH = 1;

/**
 * The speeds a copy is also read at: 6 % slower to 6 % faster in steps of 1 %. A copy between two of
 * them is read at most 0.5 % off (9 cents, 0.6 s over 120 s): `compare` follows that drift.
 */
export const SPEEDS: readonly number[] = Array.from({ length: 13 }, (_, i) => 0.94 + i / 100).filter((s) =>
  Math.abs(s - 1) > 1e-9
);
/** Frames kept: enough for 120 s of codes read at the slowest speed. */
const MAX_FRAMES = Math.ceil((MAX_CODES + WINDOW) / 0.94) + 2;

/** Codes and mix, position by position (the same length). */
export interface PrintCodes {
  codes: Uint32Array;
  mix: Uint32Array;
}

/** A speed's reading of a fingerprint's frames. */
export interface SpeedReading extends PrintCodes {
  /** The copy is the original played at this speed (1.02: 2 % faster and higher). */
  speed: number;
}

/** What the fingerprinter gives: the stored codes and mix (speed 1), and the other speeds' (looked up only). */
export interface Fingerprint extends PrintCodes {
  /**
   * The readings at every speed of `SPEEDS`, made on the first call (about 13 × 5 ms for 120 s) and
   * kept: only a lookup needs them, so the analysis pass does not pay for them.
   */
  speeds(): SpeedReading[];
}

/** The frames kept from the first sound. */
interface Frames {
  count: number;
  fine: Float32Array;
  bands: Float32Array;
  silent: Uint8Array;
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

/**
 * The codes and mix of the kept frames as the original's would be if they are a copy played at
 * `speed`: frame i read at i / speed (linearly between the two nearest), the pitch classes and bands
 * 1200·log2(speed) cents higher.
 */
function readAt(frames: Frames, speed: number): PrintCodes {
  const n = frames.count;
  const count = n === 0 ? 0 : Math.max(0, Math.min(MAX_CODES, Math.floor((n - 1) * speed) - WINDOW + 2));
  const frameCount = count === 0 ? 0 : count + WINDOW - 1;
  // Each kept frame folded once at this speed's pitch: 12 classes, then the mix's 8 bands (linear,
  // so reading between frames afterwards gives what folding the frames read between would).
  const used = Math.min(n, Math.ceil((frameCount - 1) / speed) + 3);
  const folded = foldFrames(frames, used, speed);
  const chroma = new Float64Array(frameCount * 12);
  const silent = new Uint8Array(frameCount);
  const mix = new Uint32Array(count);
  const value = new Float64Array(FOLDED);
  for (let i = 0; i < frameCount; i++) {
    const x = Math.min(used - 1, i / speed);
    const i0 = Math.floor(x), w = x - i0;
    silent[i] = frames.silent[w < 0.5 ? i0 : Math.min(used - 1, i0 + 1)];
    if (silent[i]) continue;
    value.fill(0);
    // Smoothed over the neighbours (1, 2, 1 a hop apart): frames that fall a fraction of a hop
    // apart (an offset, a speed) read alike.
    for (let d = -SMOOTH; d <= SMOOTH; d++) {
      const at = Math.max(0, Math.min(used - 1, x + d));
      const j0 = Math.floor(at), j1 = Math.min(used - 1, j0 + 1), v = at - j0;
      const weight = d === 0 ? 2 : 1, a = weight * (1 - v), b = weight * v;
      for (let k = 0; k < FOLDED; k++) value[k] += a * folded[j0 * FOLDED + k] + b * folded[j1 * FOLDED + k];
    }
    let norm = 0;
    for (let c = 0; c < 12; c++) norm += value[c];
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < 12; c++) chroma[i * 12 + c] = Math.sqrt(value[c]) / norm;
    if (i < count) mix[i] = mixWord(value);
  }
  const cum = new Float64Array((frameCount + 1) * 12);
  for (let i = 0; i < frameCount; i++) {
    for (let c = 0; c < 12; c++) cum[(i + 1) * 12 + c] = cum[i * 12 + c] + chroma[i * 12 + c];
  }
  const codes = new Uint32Array(count);
  for (let j = 0; j < count; j++) codes[j] = silent[j] ? 0 : codeOf(cum, j);
  return { codes, mix };
}

/** Values per folded frame: the 12 pitch classes, then the mix's bands. */
const FOLDED = 12 + MIX_BANDS;

/**
 * The first `used` kept frames folded as a copy at `speed` reads onto the original: pitch class c
 * gathers the fine bins 10c − 5 … 10c + 4 moved up by 1200·log2(speed) cents (to 10), and mix band g
 * the fine bands 9g … 9g + 8 moved up by 12·log2(speed) twelfths (between two bands, shared).
 */
function foldFrames(frames: Frames, used: number, speed: number): Float64Array {
  const shift = Math.round((1200 * Math.log2(speed)) / 10);
  const bandShift = 12 * Math.log2(speed);
  const per = BANDS / MIX_BANDS;
  const out = new Float64Array(used * FOLDED);
  for (let r = 0; r < used; r++) {
    const fine = r * FINE, bands = r * BANDS, o = r * FOLDED;
    for (let c = 0; c < 12; c++) {
      let e = 0;
      for (let k = -5; k < 5; k++) e += frames.fine[fine + ((((c * 10 + k + shift) % FINE) + FINE) % FINE)];
      out[o + c] = e;
    }
    for (let g = 0; g < MIX_BANDS; g++) {
      let e = 0;
      for (let k = 0; k < per; k++) {
        const y = g * per + k + bandShift;
        const b0 = Math.floor(y), u = y - b0;
        if (b0 >= 0 && b0 < BANDS) e += (1 - u) * frames.bands[bands + b0];
        if (u > 0 && b0 + 1 >= 0 && b0 + 1 < BANDS) e += u * frames.bands[bands + b0 + 1];
      }
      out[o + 12 + g] = e;
    }
  }
  return out;
}

/** The mix word of a folded frame: each band's level below the loudest, in MIX_STEP_DB steps, 4 bits. */
function mixWord(value: Float64Array): number {
  let loudest = 0;
  for (let g = 0; g < MIX_BANDS; g++) loudest = Math.max(loudest, value[12 + g]);
  let word = 0;
  for (let g = 0; g < MIX_BANDS; g++) {
    const e = value[12 + g];
    const below = e > 0 ? (10 * Math.log10(loudest / e)) / MIX_STEP_DB : 15;
    word |= Math.min(15, Math.round(below)) << (4 * g);
  }
  // Compared only where both codes have sound (a silent frame's code is 0).
  return word >>> 0;
}

/**
 * The 32 bits of the code whose window starts at frame `first` (frames first … first+15). With
 * A(j0, j1, i) the sum of pitch class i over frames j0 … j1-1 of the window:
 * - bits 0–11, the shape of the chroma now: A(0,4,i) > A(0,4,i+1);
 * - bits 12–23, its change from one frame to the next two: A(0,2,i) > A(2,4,i);
 * - bits 24–27, change over a second in groups of three classes: ΣA(0,8,g) > ΣA(8,16,g);
 * - bits 28–31, the same change compared between neighbouring groups (a checkerboard).
 */
function codeOf(cum: Float64Array, first: number): number {
  // `cum` holds running sums of the chroma frames (frame f's sums before it at f·12), so a sum over
  // frames is one difference.
  const a = (j0: number, j1: number, i: number) =>
    cum[(first + j1) * 12 + (i % 12)] - cum[(first + j0) * 12 + (i % 12)];
  let code = 0;
  for (let i = 0; i < 12; i++) if (a(0, 4, i) > a(0, 4, i + 1)) code |= 1 << i;
  for (let i = 0; i < 12; i++) if (a(0, 2, i) > a(2, 4, i)) code |= 1 << (12 + i);
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (let g = 0; g < 4; g++) {
    let change = 0;
    for (let i = 3 * g; i < 3 * g + 3; i++) change += a(0, 8, i) - a(8, 16, i);
    if (change > 0) code |= 1 << (24 + g);
    if (g === 0) c0 = change;
    else if (g === 1) c1 = change;
    else if (g === 2) c2 = change;
    else c3 = change;
  }
  if (c0 > c1) code |= 1 << 28;
  if (c1 > c2) code |= 1 << 29;
  if (c2 > c3) code |= 1 << 30;
  if (c3 > c0) code |= 1 << 31;
  return code >>> 0;
}

/** Bits set in a 32-bit number. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The bit error rate of `b` laid `offset` codes after `a` (b[j] against a[j + offset]), over the
 * codes both have with sound; and how many such codes there were.
 */
export function bitErrorRate(a: Uint32Array, b: Uint32Array, offset: number): { ber: number; compared: number } {
  let errors = 0, compared = 0;
  const from = Math.max(0, -offset), to = Math.min(b.length, a.length - offset);
  for (let j = from; j < to; j++) {
    const x = a[j + offset], y = b[j];
    if (x === 0 || y === 0) continue;
    errors += popcount(x ^ y);
    compared++;
  }
  return { ber: compared === 0 ? 1 : errors / (32 * compared), compared };
}

/**
 * Bump when a change here changes the codes or the mix: stored fingerprints of another version are
 * not compared, and re-analysis computes them again (docs/decisions/0421).
 */
export const FINGERPRINT_VERSION = 2;
/**
 * The same recording: laid at their best alignment, at most this share of the codes' bits differ
 * (docs/decisions/0247: re-encodes measured at 0–6 %, another groove in the same key and tempo at
 * 25 % or more at every offset, unrelated fixtures 22 % or more)…
 */
export const MATCH_MAX_BER = 0.15;
/**
 * …and the mix's bands differ by at most this many dB on average (0422: re-encodes and speed copies
 * measured under 1 dB, an instrumental, a mix without drums or bass, another take 2 dB or more).
 */
export const SAME_MAX_MIX_DB = 0.7;
/**
 * Another version of it (an instrumental, a vocal, an edit, another mix, another take): the codes
 * agree this well but the mix does not, or the codes agree only this well (0422).
 */
export const VERSION_MAX_BER = 0.24;
/** Either over at least this many codes with sound on both sides (7.4 s)… */
export const MATCH_MIN_CODES = 60;
/** …and at least this share of the shorter one's codes with sound (not just a shared intro). */
export const MATCH_MIN_SHARE = 0.5;
/** Codes compared as one block when following a copy's drift (5 s). */
const BLOCK = 40;

/** What a lookup found (issue 38): the same recording, or another version of it. */
export type AudioMatchKind = "same" | "version";

/** Two fingerprints laid on each other. */
export interface Comparison {
  /** The codes' bit error rate over the positions compared. */
  ber: number;
  /** The mean level difference of the mix's bands over the same positions, dB. */
  mixDb: number;
  /** Positions compared (sound on both sides). */
  compared: number;
}

/** The kind of a comparison: "same", "version", or null when the two are not related. */
export function audioMatchKind(c: Comparison | null): AudioMatchKind | null {
  if (c === null) return null;
  if (c.ber <= MATCH_MAX_BER && c.mixDb <= SAME_MAX_MIX_DB) return "same";
  return c.ber <= VERSION_MAX_BER ? "version" : null;
}

/** Codes with sound. */
function sounding(codes: Uint32Array): number {
  let n = 0;
  for (const c of codes) if (c !== 0) n++;
  return n;
}

/**
 * `query` laid on `stored` near offset `near` (stored position minus query position, as the index
 * voted). A copy read at a speed up to 0.5 % off drifts by up to 5 codes over 120 s, so the codes are
 * laid block by block (BLOCK positions): the block that agrees best within `near` ± 2 first, then
 * its neighbours outwards, each within ±1 of the last. Null when fewer positions than needed
 * (MATCH_MIN_CODES, MATCH_MIN_SHARE) were compared.
 */
export function compare(stored: PrintCodes, query: PrintCodes, near: number): Comparison | null {
  const needed = Math.max(MATCH_MIN_CODES, MATCH_MIN_SHARE * Math.min(sounding(stored.codes), sounding(query.codes)));
  const blocks = Math.ceil(query.codes.length / BLOCK);
  if (blocks === 0) return null;
  const lay = (block: number, offset: number) => {
    let errors = 0, compared = 0;
    const from = Math.max(block * BLOCK, -offset);
    const to = Math.min((block + 1) * BLOCK, query.codes.length, stored.codes.length - offset);
    for (let j = from; j < to; j++) {
      const x = stored.codes[j + offset], y = query.codes[j];
      if (x === 0 || y === 0) continue;
      errors += popcount(x ^ y);
      compared++;
    }
    return { errors, compared };
  };
  type Laid = ReturnType<typeof lay> & { offset: number };
  const best = (block: number, centre: number, radius: number): Laid => {
    let pick: Laid = { errors: 0, compared: 0, offset: centre };
    for (let o = centre - radius; o <= centre + radius; o++) {
      const l = lay(block, o);
      // Fewest errors per code; a block with nothing to compare loses to one with something.
      if (l.compared > 0 && (pick.compared === 0 || l.errors / l.compared < pick.errors / pick.compared)) {
        pick = { ...l, offset: o };
      }
    }
    return pick;
  };
  let anchor = -1, anchorLaid: Laid | null = null;
  for (let b = 0; b < blocks; b++) {
    const l = best(b, near, 2);
    if (
      l.compared >= BLOCK / 4 &&
      (anchorLaid === null || l.errors / l.compared < anchorLaid.errors / anchorLaid.compared)
    ) {
      anchor = b, anchorLaid = l;
    }
  }
  if (anchorLaid === null) return null;
  const offsets = new Int32Array(blocks);
  offsets[anchor] = anchorLaid.offset;
  let errors = anchorLaid.errors, compared = anchorLaid.compared;
  for (const step of [-1, 1]) {
    let offset = anchorLaid.offset;
    for (let b = anchor + step; b >= 0 && b < blocks; b += step) {
      const l = best(b, offset, 1);
      offsets[b] = l.offset;
      if (l.compared === 0) continue;
      offset = l.offset;
      errors += l.errors, compared += l.compared;
    }
  }
  if (compared < needed) return null;
  return { ber: errors / (32 * compared), mixDb: mixDistance(stored, query, offsets) * MIX_STEP_DB, compared };
}

/**
 * The mix's mean level difference per band, in steps, over the positions laid on each other (block
 * b at `offsets[b]`).
 */
function mixDistance(stored: PrintCodes, query: PrintCodes, offsets: Int32Array): number {
  const each = (visit: (x: number, y: number) => void) => {
    for (let b = 0; b < offsets.length; b++) {
      const offset = offsets[b];
      const from = Math.max(b * BLOCK, -offset);
      const to = Math.min((b + 1) * BLOCK, query.codes.length, stored.codes.length - offset);
      for (let j = from; j < to; j++) {
        if (stored.codes[j + offset] === 0 || query.codes[j] === 0) continue;
        visit(stored.mix[j + offset], query.mix[j]);
      }
    }
  };
  let n = 0, d = 0;
  each((x, y) => {
    for (let g = 0; g < 32; g += 4) d += Math.abs(((x >>> g) & 15) - ((y >>> g) & 15));
    n++;
  });
  if (n === 0) return 0;
  return d / (n * MIX_BANDS);
}

/**
 * One code in this many is a segment of the index, on the stored side and the query's alike: which
 * ones is decided by the code's hash itself (`isSegment`), so a code that survived a re-encode is
 * chosen on both sides, and a lookup probes about 60 hashes for 120 s instead of 969 (per speed).
 */
export const SEGMENT_EVERY = 16;

/** The second code a segment hash reads, this many positions (1 s) after the first. */
const SEGMENT_LATER = 8;

/**
 * The segment hash at position `p`: 24 bits, the 20 steady bits of its code (the chroma's shape,
 * 0–11, and its change over a second, 24–31) and the change over a second (24–27) of the code 1 s
 * later. The frame-to-frame bits (12–23) flip most when a copy is read at another speed (measured on
 * the fixtures, docs/decisions/0420); 24 bits keep a bucket to about 0.4 rows at 100,000 tracks.
 * −1 where either code is silence or missing.
 */
export function segmentHashAt(codes: Uint32Array, p: number): number {
  const code = codes[p], later = p + SEGMENT_LATER < codes.length ? codes[p + SEGMENT_LATER] : 0;
  if (!code || !later) return -1;
  return (((later >>> 24) & 0xf) << 20) | ((code >>> 24) << 12) | (code & 0xfff);
}

/**
 * Whether a segment hash is one the index keeps: mixed (Fibonacci hashing) so that all 24 bits
 * decide, not a few pitch classes that a track in one key may hold steady.
 */
export const isSegmentHash = (hash: number): boolean =>
  hash >= 0 && Math.imul(hash, 0x9e3779b1) >>> 0 < 2 ** 32 / SEGMENT_EVERY;

/** The positions of a fingerprint that are segments (stored in the index, and looked up). */
export function indexedPositions(codes: Uint32Array): number[] {
  const out: number[] = [];
  for (let p = 0; p < codes.length; p++) if (isSegmentHash(segmentHashAt(codes, p))) out.push(p);
  return out;
}

/** Little-endian bytes of the codes, then of the mix, as stored (version 2). */
export function printToBytes(print: PrintCodes): Uint8Array {
  const n = print.codes.length;
  const out = new Uint8Array(n * 8);
  const v = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    v.setUint32(4 * i, print.codes[i], true);
    v.setUint32(4 * (n + i), print.mix[i], true);
  }
  return out;
}

export function printFromBytes(bytes: Uint8Array): PrintCodes {
  const n = bytes.byteLength >> 3;
  const codes = new Uint32Array(n), mix = new Uint32Array(n);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    codes[i] = v.getUint32(4 * i, true);
    mix[i] = v.getUint32(4 * (n + i), true);
  }
  return { codes, mix };
}

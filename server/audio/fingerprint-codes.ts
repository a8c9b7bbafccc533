/**
 * The audio fingerprint's frames and codes (fingerprint.ts reads the frames from the sound, and
 * fingerprint-speeds.ts reads the codes from them at each speed): the constants they share, the
 * 32-bit code of a window of chroma frames and the mix word of a frame.
 */

/** The highest rate frames are read at. */
export const TOP_RATE = 5512.5;
export const FRAME_SECONDS = 2048 / TOP_RATE;
export const FFT_SIZE = 2048;
/** Two thirds overlap. */
export const HOP_SECONDS = FRAME_SECONDS / 3;
export const LOWEST_HZ = 55;
export const HIGHEST_HZ = 1760;
/** Band mean square (Hann-corrected) under this is silence: about -70 dBFS. */
export const SILENT_FRAME = 1e-7;
/** Chroma frames a code reads. */
export const WINDOW = 16;
/** Codes kept: 120 s. */
export const MAX_CODES = Math.ceil(120 / HOP_SECONDS);
/** Fine chroma bins round the octave (10 cents each; bin 0 is C). */
export const FINE = 120;
/** Fine spectrum: twelfth-octave bands from this frequency… */
export const BAND_FROM_HZ = 40;
/** …six octaves of them (those above 0.45 of the rate stay empty). */
export const BANDS = 72;
/** The mix's bands: the fine ones in groups of nine (three quarters of an octave). */
export const MIX_BANDS = 8;
/** The mix's level step, dB (4 bits: 0 the frame's loudest band … 15, 45 dB or more below). */
export const MIX_STEP_DB = 2;
/** Frames each side a frame is smoothed over (weights 1, 2, 1), in the chroma and the mix alike. */
export const SMOOTH = 1;

/** Codes and mix, position by position (the same length). */
export interface PrintCodes {
  codes: Uint32Array;
  mix: Uint32Array;
}

/** The frames kept from the first sound. */
export interface Frames {
  count: number;
  fine: Float32Array;
  bands: Float32Array;
  silent: Uint8Array;
}

/** Values per folded frame: the 12 pitch classes, then the mix's bands. */
export const FOLDED = 12 + MIX_BANDS;

/** The mix word of a folded frame: each band's level below the loudest, in MIX_STEP_DB steps, 4 bits. */
export function mixWord(value: Float64Array): number {
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
export function codeOf(cum: Float64Array, first: number): number {
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

/**
 * Bump when a change here changes the codes or the mix: stored fingerprints of another version are
 * not compared, and re-analysis computes them again (docs/decisions/0421).
 */
export const FINGERPRINT_VERSION = 2;

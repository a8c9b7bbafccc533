/**
 * The fingerprint's codes read from its kept frames at a speed (fingerprint.ts, issue 38): at the
 * speed heard (1, the stored codes) and at each of `SPEEDS`, as if the copy were the original played
 * that much slower or faster. See fingerprint.ts's module comment.
 */
import {
  BANDS,
  codeOf,
  FINE,
  FOLDED,
  type Frames,
  MAX_CODES,
  MIX_BANDS,
  mixWord,
  type PrintCodes,
  SMOOTH,
  WINDOW,
} from "./fingerprint-codes.ts";

/**
 * The speeds a copy is also read at: 6 % slower to 6 % faster in steps of 1 %. A copy between two of
 * them is read at most 0.5 % off (9 cents, 0.6 s over 120 s): `compare` follows that drift.
 */
export const SPEEDS: readonly number[] = Array.from({ length: 13 }, (_, i) => 0.94 + i / 100).filter((s) =>
  Math.abs(s - 1) > 1e-9
);

/** A speed's reading of a fingerprint's frames. */
export interface SpeedReading extends PrintCodes {
  /** The copy is the original played at this speed (1.02: 2 % faster and higher). */
  speed: number;
}

/**
 * The codes and mix of the kept frames as the original's would be if they are a copy played at
 * `speed`: frame i read at i / speed (linearly between the two nearest), the pitch classes and bands
 * 1200·log2(speed) cents higher.
 */
export function readAt(frames: Frames, speed: number): PrintCodes {
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

/**
 * Where the first drop lands: the first large, sustained rise of low-band (under 150 Hz) energy
 * after an intro, from the low band's level every ~100 ms (band-envelopes.ts).
 *
 * - The track's "full" bass level is the 90th percentile of those levels; under -50 dB there is no
 *   bass to speak of and no drop.
 * - Segment i starts the drop when the median level of the SUSTAIN_S after it is within 6 dB of full
 *   and the median of the (up to) SUSTAIN_S before it is at least RISE_DB below full, and the intro
 *   before it lasts at least MIN_INTRO_S. Medians let kick drums (short, loud) pass for neither a
 *   sustained bass nor a quiet intro.
 * - The first such window is up to half a window early, so the drop is placed at the first segment
 *   inside it that reaches halfway (in dB) between the intro's and the drop's medians and from which
 *   80 % of the next second stays there: a snare's low thump in the intro reaches halfway but does
 *   not hold.
 * A track with bass from the first seconds has no rise and so no drop (null), unless a breakdown
 * later is followed by one.
 */

export const SUSTAIN_S = 4;
export const MIN_INTRO_S = 2;
export const RISE_DB = 12;
const NEAR_FULL_DB = 6;
const NO_BASS_DB = -50;
const HOLD_S = 1;
const HOLD_SHARE = 0.8;

function median(values: Float32Array, from: number, to: number, scratch: Float64Array): number {
  const n = to - from;
  for (let i = 0; i < n; i++) scratch[i] = values[from + i];
  const s = scratch.subarray(0, n).sort();
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Seconds from the start to the first drop (one decimal), or null. */
export function findDrop(levels: Float32Array, segmentRate: number): number | null {
  const n = levels.length;
  const sustain = Math.round(SUSTAIN_S * segmentRate);
  const minIntro = Math.round(MIN_INTRO_S * segmentRate);
  if (n < minIntro + sustain) return null;
  const full = Float64Array.from(levels).sort()[Math.floor(0.9 * (n - 1))];
  if (full < NO_BASS_DB) return null;
  const scratch = new Float64Array(sustain);
  for (let i = minIntro; i + sustain <= n; i++) {
    const after = median(levels, i, i + sustain, scratch);
    if (after < full - NEAR_FULL_DB) continue;
    const before = median(levels, Math.max(0, i - sustain), i, scratch);
    if (before > full - RISE_DB) continue;
    const halfway = (before + after) / 2;
    const hold = Math.round(HOLD_S * segmentRate);
    for (let at = i; at < i + sustain; at++) {
      if (levels[at] < halfway) continue;
      let held = 0;
      for (let k = at; k < Math.min(n, at + hold); k++) if (levels[k] >= halfway) held++;
      if (held >= HOLD_SHARE * hold) return Math.round((at / segmentRate) * 10) / 10;
    }
  }
  return null;
}

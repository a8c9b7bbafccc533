/**
 * Tempo from an onset-strength envelope (band-envelopes.ts) by autocorrelation:
 *
 * 1. The envelope's mean is removed and its autocorrelation r(lag) computed (unbiased: divided by
 *    the number of overlapping hops) for lags from 200 BPM down to 70 BPM.
 * 2. Each lag is scored r(lag) + ½·r(2·lag), so a beat period whose double also repeats wins over a
 *    stray peak; the best lag must correlate at least MIN_CONFIDENCE of r(0), otherwise there is no
 *    tempo (silence, noise, a drone).
 *    When half the best lag correlates at least 0.3 as well, the half is taken (see below).
 * 3. The period is refined on the peak near its largest multiple (8, 4 or 2 beats) that fits in half
 *    the envelope, with a parabola through the three highest lags: one hop is 5 ms, so a period read
 *    over 8 beats is good to about 0.1 BPM instead of 3 BPM.
 * 4. The result is folded into drum and bass's 160–190 BPM when it is half or double of a tempo there
 *    (a detector often hears a half-time 87 for 174).
 *
 * Under MIN_SECONDS of envelope there is no tempo.
 */

export const DNB_MIN_BPM = 160;
export const DNB_MAX_BPM = 190;
const SEARCH_MIN_BPM = 70;
const SEARCH_MAX_BPM = 200;
export const MIN_CONFIDENCE = 0.1;
const HALF_LAG_RATIO = 0.3;
const MIN_SECONDS = 4;

/**
 * Doubles or halves a tempo into 160–190 when that lands there; any other tempo is left alone.
 * Works on the rounded (0.1 BPM) figure, so 95.0 folds to 190.0.
 */
export function foldToDnb(bpm: number): number {
  if (bpm < DNB_MIN_BPM && bpm * 2 >= DNB_MIN_BPM && bpm * 2 <= DNB_MAX_BPM) return bpm * 2;
  if (bpm > DNB_MAX_BPM && bpm / 2 >= DNB_MIN_BPM && bpm / 2 <= DNB_MAX_BPM) return bpm / 2;
  return bpm;
}

export interface TempoEstimate {
  /** Folded, one decimal. */
  bpm: number;
  /** Before folding. */
  raw: number;
  /** r(period) / r(0). */
  confidence: number;
}

export function estimateTempo(onsets: Float32Array, rate: number): TempoEstimate | null {
  const n = onsets.length;
  if (n < MIN_SECONDS * rate) return null;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += onsets[i];
  mean /= n;
  const o = new Float64Array(n);
  for (let i = 0; i < n; i++) o[i] = onsets[i] - mean;

  const cache = new Map<number, number>();
  const r = (lag: number) => {
    let v = cache.get(lag);
    if (v === undefined) {
      let s = 0;
      for (let i = 0; i + lag < n; i++) s += o[i] * o[i + lag];
      v = s / (n - lag);
      cache.set(lag, v);
    }
    return v;
  };
  const r0 = r(0);
  if (!(r0 > 0)) return null;

  const minLag = Math.floor((60 * rate) / SEARCH_MAX_BPM);
  const maxLag = Math.ceil((60 * rate) / SEARCH_MIN_BPM);
  let best = -1;
  let bestScore = -Infinity;
  for (let lag = minLag; lag <= maxLag; lag++) {
    const score = r(lag) + (2 * lag < n ? 0.5 * r(2 * lag) : 0);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  // The strongest lag's own peak (a neighbour may be higher when the period falls between hops).
  const confidence = Math.max(r(best - 1), r(best), r(best + 1)) / r0;
  if (confidence < MIN_CONFIDENCE) return null;

  // The strongest lag is often two beats (kick to kick) when kick and snare differ: when half of it
  // also correlates well, every onset position is a beat and the faster tempo is the one.
  const half = Math.round(best / 2);
  if (half >= minLag && Math.max(r(half - 1), r(half), r(half + 1)) >= HALF_LAG_RATIO * r(best)) best = half;

  let period = best;
  for (const k of [8, 4, 2]) {
    const centre = k * best;
    if (centre + k + 1 > n / 2) continue;
    let top = centre;
    for (let lag = centre - k; lag <= centre + k; lag++) if (r(lag) > r(top)) top = lag;
    const [a, b, c] = [r(top - 1), r(top), r(top + 1)];
    const denom = a - 2 * b + c;
    const offset = denom < 0 ? (0.5 * (a - c)) / denom : 0;
    period = (top + Math.max(-0.5, Math.min(0.5, offset))) / k;
    break;
  }
  const raw = (60 * rate) / period;
  return { bpm: foldToDnb(Math.round(raw * 10) / 10), raw, confidence };
}

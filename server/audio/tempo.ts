/**
 * Tempo from an onset-strength envelope (full-band log-spectral flux, onset-flux.ts), in the manner
 * of Percival & Tzanetakis 2014: candidates from an autocorrelation that is enhanced across beat
 * levels, then the candidate whose pulse train best matches the onsets (docs/decisions/0220).
 *
 * 1. The envelope's local mean (over one second) is removed, and its autocorrelation r(lag) is
 *    computed (unbiased: divided by the number of overlapping frames).
 * 2. Every period τ from 160 down to 80 BPM (one octave, in steps of a tenth of a frame) is scored
 *    r(τ) + r(2τ) + r(4τ): the beat, the bar and two bars all repeat (for drum and bass the octave
 *    holds its half time, 80–95, where kick and snare mark the beats, rather than the hats' level). The best few
 *    peaks are candidates; each is refined on the autocorrelation peaks near 2, 4 and 8 periods in
 *    turn (as far as they fit), with a parabola, so a period read over 8 periods is good to about
 *    0.1 BPM although a frame is 10 ms.
 * 3. Each candidate's pulse train (one pulse a period, at the phase that fits best) is laid over the
 *    onsets in 8-second windows; the candidate whose pulses catch the most onset strength wins. A
 *    period of 1.5 or 2.5 beats, or 4/3 of a beat, drifts through the bar and catches on average
 *    only the mean; the beat catches the drums on every beat. This breaks the 2:3 and 3:4 ties that
 *    the autocorrelation alone cannot (a two-step groove repeats at 1.5 and 2.5 beats too).
 * 4. The confidence is how much of the envelope's variance repeats at the chosen period across the
 *    three levels, (r(τ) + r(2τ) + r(4τ)) / 3r(0), between 0 and 1. Under MIN_CONFIDENCE there is no
 *    tempo (null) rather than a guess; nor under MIN_SECONDS of envelope.
 * 5. Only then is the tempo folded by × 2 or × ½ into drum and bass's 160–190 BPM when it lands
 *    there: a drum and bass track is read at half time (80–95) and doubled; 140 stays 140.
 */
import { foldToDnb } from "../../domain/tempo.ts";
const SEARCH_MIN_BPM = 80;
const SEARCH_MAX_BPM = 160;
export const MIN_CONFIDENCE = 0.1;
const MIN_SECONDS = 4;
/**
 * An onset envelope (mean rise per bin, onset-flux.ts) that varies less than this, an RMS of 3e-4,
 * is steady sound, not beats: a drum groove peaking at -40 dBFS still varies 20 times as much; the
 * wobble an MP3 encoder leaves on steady -6 dBFS sines (its granules come and go at their own
 * period) varies a fifth as much, a bare 45 Hz sine's residue a fiftieth.
 */
const MIN_VARIANCE = 1e-7;
const CANDIDATES = 6;
const WINDOW_SECONDS = 8;

export interface TempoEstimate {
  /** Folded, one decimal. */
  bpm: number;
  /** Before folding. */
  raw: number;
  /** 0–1: the share of the onset envelope's variance that repeats at the beat, half bar and bar. */
  confidence: number;
}

/** The measured confidence even when it is too low for a tempo; null when nothing could be measured. */
export interface TempoReading {
  estimate: TempoEstimate | null;
  confidence: number | null;
}

export function estimateTempo(onsets: Float32Array, rate: number): TempoEstimate | null {
  return readTempo(onsets, rate).estimate;
}

export function readTempo(onsets: Float32Array, rate: number): TempoReading {
  const none: TempoReading = { estimate: null, confidence: null };
  const n = onsets.length;
  if (n < MIN_SECONDS * rate) return none;

  // Local mean removed (a centred box of about one second), by prefix sums.
  const half = Math.max(1, Math.round(rate / 2));
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + onsets[i];
  const o = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - half), b = Math.min(n, i + half + 1);
    o[i] = onsets[i] - (prefix[b] - prefix[a]) / (b - a);
  }

  const cache = new Map<number, number>();
  const r = (lag: number) => {
    let v = cache.get(lag);
    if (v === undefined) {
      let s = 0;
      for (let i = 0; i + lag < n; i++) s += o[i] * o[i + lag];
      v = lag < n ? s / (n - lag) : 0;
      cache.set(lag, v);
    }
    return v;
  };
  const r0 = r(0);
  if (!(r0 > MIN_VARIANCE)) return none;
  // Linear interpolation between whole lags.
  const ri = (lag: number) => {
    const f = Math.floor(lag);
    const t = lag - f;
    return (1 - t) * r(f) + t * r(f + 1);
  };
  const levels = (tau: number) => ri(tau) + ri(2 * tau) + ri(4 * tau);

  // 2. Candidates: the peaks of the enhanced autocorrelation over one octave of periods.
  const minLag = (60 * rate) / SEARCH_MAX_BPM;
  const maxLag = (60 * rate) / SEARCH_MIN_BPM;
  const step = 0.1;
  const taus: number[] = [];
  const scores: number[] = [];
  for (let tau = minLag; tau <= maxLag; tau += step) {
    taus.push(tau);
    scores.push(levels(tau));
  }
  const peaks: number[] = [];
  for (let i = 0; i < taus.length; i++) {
    const left = i === 0 ? -Infinity : scores[i - 1];
    const right = i === taus.length - 1 ? -Infinity : scores[i + 1];
    if (scores[i] >= left && scores[i] > right) peaks.push(i);
  }
  peaks.sort((a, b) => scores[b] - scores[a]);
  const candidates: number[] = [];
  for (const i of peaks) {
    if (candidates.length === CANDIDATES) break;
    const period = refine(taus[i], r, n);
    if (candidates.every((c) => Math.abs(c - period) > 0.01 * c)) candidates.push(period);
  }
  if (candidates.length === 0) return none;

  // 3. The pulse train that catches the most onset strength.
  let best = candidates[0];
  let bestCatch = -Infinity;
  for (const period of candidates) {
    const window = Math.round(WINDOW_SECONDS * rate);
    const c = pulseCatch(o, period, window) + pulseCatch(o, period / 2, window);
    if (c > bestCatch) {
      bestCatch = c;
      best = period;
    }
  }

  const confidence = Math.max(0, Math.min(1, levels(best) / (3 * r0)));
  if (confidence < MIN_CONFIDENCE) return { estimate: null, confidence };
  const raw = (60 * rate) / best;
  return { estimate: { bpm: foldToDnb(Math.round(raw * 10) / 10), raw, confidence }, confidence };
}

/**
 * The period near `tau`, read on the autocorrelation peaks near its multiples 2, 4 and 8 in turn
 * (each search centred on the period the last one gave, as far as they fit in half the envelope),
 * with a parabola through the highest lag and its neighbours.
 */
function refine(tau: number, r: (lag: number) => number, n: number): number {
  let period = tau;
  for (const k of [1, 2, 4, 8]) {
    const centre = Math.round(k * period);
    const reach = 2;
    if (k > 1 && centre + reach + 1 > n / 2) break;
    let top = centre;
    for (let lag = Math.max(1, centre - reach); lag <= centre + reach; lag++) if (r(lag) > r(top)) top = lag;
    const [a, b, c] = [r(top - 1), r(top), r(top + 1)];
    const denom = a - 2 * b + c;
    const offset = denom < 0 ? (0.5 * (a - c)) / denom : 0;
    period = (top + Math.max(-0.5, Math.min(0.5, offset))) / k;
  }
  return period;
}

/**
 * The mean, over windows of `window` frames, of the onset strength a pulse train of `period` frames
 * catches at its best phase in that window (per pulse; each pulse takes the larger of its frame and
 * the next, so a period between frames is not penalised).
 */
function pulseCatch(o: Float64Array, period: number, window: number): number {
  const n = o.length;
  const w = Math.min(window, n);
  const phases = Math.max(1, Math.round(period));
  let total = 0;
  let windows = 0;
  for (let start = 0; start + w <= n; start += Math.max(1, Math.floor(w / 2))) {
    let bestPhase = -Infinity;
    for (let ph = 0; ph < phases; ph++) {
      let sum = 0;
      let pulses = 0;
      for (let t = start + ph; t < start + w - 1; t += period) {
        const i = Math.round(t);
        sum += Math.max(o[i], o[i + 1]);
        pulses++;
      }
      if (pulses > 0 && sum / pulses > bestPhase) bestPhase = sum / pulses;
    }
    total += bestPhase;
    windows++;
  }
  return total / windows;
}

/**
 * Where the first drop lands: where the sub bass enters (docs/decisions/0214), from the low band's
 * (under 150 Hz) level every ~25 ms (band-envelopes.ts) and the tempo's beat period.
 *
 * 1. **Floor.** Every 100 ms block gets the level a quarter of the 25 ms frames in the two beats
 *    around it lie under. A kick (short, loud, even one on every beat) leaves gaps in every two beats
 *    and so no floor; a sustained bass fills them, and a kick beating against the bass for a few
 *    frames after each hit stays under a quarter.
 * 2. **Rise against the loudest sustained section.** A boundary is a candidate where the median floor
 *    over the SUSTAIN_S after it is at least RISE_DB above the median over the (up to) SUSTAIN_S
 *    before it, and within NEAR_LOUDEST_DB of the loudest sustained section (the highest such median
 *    anywhere in the track), after an intro of at least MIN_INTRO_S. Relative to the loudest section,
 *    not a fixed percentile: a second half louder than the first drop does not hide it, and a quiet
 *    pad in the intro is not taken for the drop. Under NO_BASS_DB the track has no bass and no drop.
 * 3. **Novelty (Foote 2000).** In the first run of candidates the boundary is where a checkerboard
 *    kernel with a Gaussian taper, laid on the self-similarity (−|a − b| dB) of the floors, scores
 *    highest: the two SUSTAIN_S sides are most alike within and least alike across (for one series
 *    this is the energy distance of the two sides' levels).
 * 4. **Landing.** Around that boundary, the drop is the first 25 ms frame that rises to the bass's
 *    level (HOLD_BELOW_DB under the typical frame after the boundary, and at least halfway in dB
 *    between the sides' floors) and holds for a bar (four beats): HOLD_SHARE of it above, and any
 *    stretch under it a single frame, or at most MAX_DIP_S just after a hit. The kick before the bass
 *    rises as high, but then falls back to the intro's level, away from any hit, before the bass
 *    comes in. When no frame holds, the boundary itself is the drop.
 * No drop (null) when the bass is there from the first seconds and never leaves, or is never there.
 */

export const SUSTAIN_S = 4;
export const MIN_INTRO_S = 2;
export const RISE_DB = 12;
export const NEAR_LOUDEST_DB = 15;
const NO_BASS_DB = -50;
const BLOCK_S = 0.1;
/** The beat assumed when the tempo is not known, and the range a beat is trusted in. */
const DEFAULT_BEAT_S = 0.5;
const MIN_BEAT_S = 0.25;
const MAX_BEAT_S = 0.75;
/** The floor: the level a quarter of the frames in two beats lie under. */
const FLOOR_BEATS = 2;
const FLOOR_SHARE = 0.25;
const HOLD_SHARE = 0.8;
const HOLD_BELOW_DB = 10;
const MAX_DIP_S = 0.15;
/** A frame this far over the bass's typical level is a hit (a kick over the bass). */
const HIT_DB = 3;
/** How many beats after the landing the bass may still enter (a break's kicks before the bar). */
const BASS_AFTER_KICK_BEATS = 2;
/** Frames an eighth read off the landing's grid may be off the bass's onset. */
const GRID_SLACK = 3;
/** A rise from one frame to the next of this much is a hit's onset. */
const ONSET_DB = 6;
/** An onset from this far under the bass's typical level has no bass under it. */
const STARVED_DB = 6;
/** How far before and after the novelty peak the landing is looked for. */
const LOOK_BACK_S = 1;
const LOOK_AHEAD_S = 0.5;

function median(values: Float32Array, from: number, to: number, scratch: Float64Array): number {
  const n = to - from;
  for (let i = 0; i < n; i++) scratch[i] = values[from + i];
  const s = scratch.subarray(0, n).sort();
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** The value a `share` of `values[from, to)` lies under. */
function quantile(values: Float32Array, from: number, to: number, share: number, scratch: Float64Array): number {
  const n = to - from;
  for (let i = 0; i < n; i++) scratch[i] = values[from + i];
  return scratch.subarray(0, n).sort()[Math.floor(share * (n - 1))];
}

/**
 * Foote's novelty at boundary `at` of `x`: the checkerboard kernel (Gaussian taper, `half` values a
 * side, cut at the ends) over the similarity −|a − b|, each quadrant normalised by its weights.
 */
export function novelty(x: Float32Array, at: number, half: number): number {
  const from = Math.max(0, at - half), to = Math.min(x.length, at + half);
  const sigma = half / 2;
  const weight = (i: number) => {
    const d = (i < at ? at - i - 0.5 : i - at + 0.5) / sigma;
    return Math.exp(-0.5 * d * d);
  };
  let cross = 0, before = 0, after = 0, wBefore = 0, wAfter = 0;
  for (let i = from; i < to; i++) {
    const wi = weight(i);
    if (i < at) wBefore += wi;
    else wAfter += wi;
    for (let j = i + 1; j < to; j++) {
      const wij = wi * weight(j) * Math.abs(x[i] - x[j]);
      if (i < at && j >= at) cross += wij;
      else if (j < at) before += wij;
      else after += wij;
    }
  }
  if (wBefore === 0 || wAfter === 0) return 0;
  // Each unordered pair once: the within-side sums count half of the ordered pairs.
  return (2 * cross) / (wBefore * wAfter) - (2 * before) / (wBefore * wBefore) - (2 * after) / (wAfter * wAfter);
}

/**
 * Seconds from the start to the first drop (one decimal), or null. `levels`: the low band's level
 * in dB per frame, `frameRate` frames a second; `beatS`: the tempo's beat period, when known.
 */
export function findDrop(levels: Float32Array, frameRate: number, beatS: number | null = null): number | null {
  const perBlock = Math.max(1, Math.round(BLOCK_S * frameRate));
  const blockRate = frameRate / perBlock;
  const nb = Math.floor(levels.length / perBlock);
  const sustain = Math.round(SUSTAIN_S * blockRate);
  const minIntro = Math.round(MIN_INTRO_S * blockRate);
  if (nb < minIntro + sustain) return null;
  const beat = beatS !== null && beatS >= MIN_BEAT_S && beatS <= MAX_BEAT_S ? beatS : DEFAULT_BEAT_S;

  // 1. The floor of each block: the level a quarter of the frames in the two beats around it lie under.
  const half = Math.round(FLOOR_BEATS * beat * frameRate / 2);
  const floor = new Float32Array(nb);
  const window = new Float64Array(2 * half + perBlock);
  for (let b = 0; b < nb; b++) {
    const mid = b * perBlock + (perBlock >> 1);
    floor[b] = quantile(levels, Math.max(0, mid - half), Math.min(levels.length, mid + half), FLOOR_SHARE, window);
  }

  // 2. Sustained levels: the median floor over SUSTAIN_S from each block; the loudest of them.
  const scratch = new Float64Array(sustain);
  const sustained = new Float32Array(nb - sustain + 1);
  let loudest = -Infinity;
  for (let b = 0; b + sustain <= nb; b++) {
    sustained[b] = median(floor, b, b + sustain, scratch);
    if (sustained[b] > loudest) loudest = sustained[b];
  }
  if (loudest < NO_BASS_DB) return null;
  const before = (b: number) => b >= sustain ? sustained[b - sustain] : median(floor, 0, b, scratch);
  const rises = (b: number) => {
    const after = sustained[b];
    return after >= loudest - NEAR_LOUDEST_DB && after - before(b) >= RISE_DB;
  };

  // 3. The first run of candidate boundaries, and its novelty peak.
  let first = minIntro;
  while (first + sustain <= nb && !rises(first)) first++;
  if (first + sustain > nb) return null;
  let last = first;
  while (last + 1 + sustain <= nb && last - first < 2 * sustain && rises(last + 1)) last++;
  let peak = first, best = -Infinity;
  for (let b = first; b <= last; b++) {
    const score = novelty(floor, b, sustain);
    if (score > best) best = score, peak = b;
  }

  // 4. Landing: the first frame near the peak that rises to the bass's level and holds for a bar.
  const frames = new Float64Array(sustain * perBlock);
  const typical = median(levels, peak * perBlock, Math.min(levels.length, (peak + sustain) * perBlock), frames);
  const held = Math.max((before(peak) + sustained[peak]) / 2, typical - HOLD_BELOW_DB);
  const bar = Math.round(4 * beat * frameRate);
  const maxDip = Math.round(MAX_DIP_S * frameRate);
  const holds = (f: number) => {
    let above = 0, lastHit = f, dipFrom = -1;
    for (let k = f; k < f + bar; k++) {
      const v = levels[k];
      if (v >= typical + HIT_DB) lastHit = k;
      if (v >= held) {
        above++;
        dipFrom = -1;
      } else if (dipFrom < 0) dipFrom = k;
      // Under the bass's level for more than a frame: only just after a hit (a kick beating against
      // the bass), and briefly. Elsewhere it is the gap between the kick before and the bass.
      else if (k - dipFrom >= maxDip || dipFrom - lastHit > maxDip) return false;
    }
    return above >= HOLD_SHARE * bar;
  };
  const end = Math.min(levels.length - bar, peak * perBlock + Math.round(LOOK_AHEAD_S * frameRate));
  for (let f = Math.max(1, peak * perBlock - Math.round(LOOK_BACK_S * frameRate)); f <= end; f++) {
    if (levels[f] >= held && levels[f - 1] < held && holds(f)) {
      return Math.round((onTheBass(levels, f, beat * frameRate, { typical, held }, holds) / frameRate) * 10) / 10;
    }
  }
  return Math.round((peak / blockRate) * 10) / 10;
}

/**
 * 5. **The bass, not the break's last kick** (issue 38, docs/decisions/0424). A full-range break
 * whose kicks come thick before the bar can hold the bass's level for a bar from its last kick (a
 * beat and a half early in a two-step): its hits decay, but the next comes before the gap is long.
 * What the bass has and the break has not is the level between hits: under the bass every hit
 * starts from about the bass's level; in the break the level has decayed well under it before the
 * next hit. So the landing `f` and the eighth notes after it, up to BASS_AFTER_KICK_BEATS, are tried
 * in turn: the first whose bar has no onset (a rise of ONSET_DB from one frame to the next) starting
 * from more than STARVED_DB under the bass's typical level, and that holds a bar, is the drop; then
 * the frame by it where the level rises to the bass's. When none is, the landing stays.
 */
function onTheBass(
  levels: Float32Array,
  f: number,
  beatFrames: number,
  bass: { typical: number; held: number },
  holds: (f: number) => boolean,
): number {
  const bar = Math.round(4 * beatFrames);
  const fed = (g: number) => {
    // From a few frames in: the eighth is read off the landing's grid, and the bass's own onset may fall just after it.
    for (let h = g + 1 + GRID_SLACK; h < Math.min(levels.length, g + bar); h++) {
      // A hit's onset (a kick beating against the bass climbs back to the bass's level, not over it).
      const hit = Math.max(levels[h], h + 1 < levels.length ? levels[h + 1] : -Infinity) >= bass.typical + HIT_DB;
      if (hit && levels[h] - levels[h - 1] >= ONSET_DB && levels[h - 1] < bass.typical - STARVED_DB) return false;
    }
    return true;
  };
  for (let k = 0; k <= 2 * BASS_AFTER_KICK_BEATS; k++) {
    const g = f + Math.round((k * beatFrames) / 2);
    if (g + bar > levels.length) break;
    if (!fed(g) || !holds(g)) continue;
    if (k === 0) return f;
    // The eighth is read from the landing's grid: the bass's first frame is the rise nearest it.
    for (let d = 0; d <= GRID_SLACK; d++) {
      for (const h of [g - d, g + d]) {
        if (h > 0 && h < levels.length && levels[h] >= bass.held && levels[h - 1] < bass.held) return h;
      }
    }
    return g;
  }
  return f;
}

/**
 * Tempo folding and the window (issue 33): one rule for the analysis and the intake gate.
 *
 * A drum-and-bass tempo is often measured at half speed (or double): a tempo reads inside a window
 * [min, max] when it, its double or its half lies there, tried in that order (87 BPM reads as 174,
 * 348 as 174). The one warning story built on it:
 *
 * - at analysis (server/audio/tempo.ts) the stored tempo is folded into drum and bass's window,
 *   160–190 BPM, and left as measured when no fold lands there; `tempo_outside_dnb` then says it lies
 *   outside that window (server/audio/warnings.ts; the artist sees it too);
 * - at processing, each direction's own window (its intake rules' `tempo_min`–`tempo_max`, by default
 *   this same 160–190) asks the same function of the stored tempo: outside it, the track is flagged
 *   `tempo_outside_window` for the staff only, or refused, as the direction's rules say
 *   (server/intake/check.ts, domain/audio-warnings.ts).
 */

/** Drum and bass's tempo window, which is also every direction's default intake window. */
export const DNB_MIN_BPM = 160;
export const DNB_MAX_BPM = 190;

/** `bpm`, its double or its half, the first inside [min, max]; null when none is. */
export function foldIntoWindow(bpm: number, min: number, max: number): number | null {
  for (const t of [bpm, bpm * 2, bpm / 2]) if (t >= min && t <= max) return t;
  return null;
}

/** Is `bpm` inside [min, max], half-time and double-time folded. */
export function tempoInWindow(bpm: number, min: number, max: number): boolean {
  return foldIntoWindow(bpm, min, max) !== null;
}

/**
 * Doubles or halves a tempo into 160–190 when that lands there; any other tempo is left alone.
 * Works on the rounded (0.1 BPM) figure, so 95.0 folds to 190.0.
 */
export function foldToDnb(bpm: number): number {
  return foldIntoWindow(bpm, DNB_MIN_BPM, DNB_MAX_BPM) ?? bpm;
}

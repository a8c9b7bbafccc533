/**
 * Loudness matching of two versions (issue 37, docs/decisions/0406): the louder one is turned down by
 * the difference of their integrated loudness (LUFS), to 0.1 dB, the quieter one is left as it is,
 * so the moderator judges the mix and not the level. Without both figures nothing is changed.
 */
export interface LoudnessMatch {
  /** dB applied to the current version (0 or negative). */
  current_db: number;
  /** dB applied to the previous version (0 or negative). */
  previous_db: number;
}

const tenth = (x: number) => Math.round(x * 10) / 10;

export function loudnessMatch(currentLufs: number | null | undefined, previousLufs: number | null | undefined) {
  if (typeof currentLufs !== "number" || typeof previousLufs !== "number") return { current_db: 0, previous_db: 0 };
  const diff = tenth(currentLufs - previousLufs);
  // `+ 0` turns a −0 into 0.
  return diff > 0 ? { current_db: -diff, previous_db: 0 } : { current_db: 0, previous_db: diff + 0 };
}

/** A gain in dB as an element's volume (amplitude, 0..1). */
export const volumeOf = (db: number) => Math.min(1, Math.max(0, 10 ** (db / 20)));

/** An element's volume back in dB (for the tests and the desk's line). */
export const dbOf = (volume: number) => 20 * Math.log10(volume);

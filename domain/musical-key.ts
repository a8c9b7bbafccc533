/**
 * Musical keys as the audio report names them, and their Camelot codes (docs/decisions/0215). Shared
 * by the server's analyser (server/audio/key.ts) and the client (the staff list sorts by Camelot), so
 * it imports nothing.
 *
 * Spelling: the way the key signature is written, with the fewest accidentals, ASCII `#` and `b`
 * ("Bb major", "C# minor", "Db major"); at the six-accidental tie the spelling Camelot charts print:
 * "F# major" (2B) and "Eb minor" (2A). Mode words are English, lower case: "major", "minor".
 *
 * Camelot: minor keys are "A", major "B"; the numbers walk the circle of fifths, 8B = C major,
 * 8A = A minor (its relative), 9B = G major, 4A = F minor.
 */

export type KeyMode = "major" | "minor";

/** Tonic names by pitch class (0 = C … 11 = B), per mode. */
const MAJOR_NAMES = ["C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"] as const;
const MINOR_NAMES = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "G#", "A", "Bb", "B"] as const;

/** The key's name, e.g. keyName(5, "minor") = "F minor". `tonic` is a pitch class, 0 = C. */
export function keyName(tonic: number, mode: KeyMode): string {
  const pc = ((tonic % 12) + 12) % 12;
  return `${(mode === "major" ? MAJOR_NAMES : MINOR_NAMES)[pc]} ${mode}`;
}

/** The Camelot code of a key, e.g. camelotOf(5, "minor") = "4A", camelotOf(0, "major") = "8B". */
export function camelotOf(tonic: number, mode: KeyMode): string {
  // A minor key sits on its relative major's number (three semitones up).
  const major = (((tonic + (mode === "minor" ? 3 : 0)) % 12) + 12) % 12;
  return `${((major * 7 + 7) % 12) + 1}${mode === "minor" ? "A" : "B"}`;
}

/** All 24 keys, C major first then by pitch class, majors and minors interleaved. */
export const ALL_KEYS: readonly { tonic: number; mode: KeyMode; name: string; camelot: string }[] = Array.from(
  { length: 24 },
  (_, i) => {
    const tonic = i >> 1;
    const mode: KeyMode = i % 2 === 0 ? "major" : "minor";
    return { tonic, mode, name: keyName(tonic, mode), camelot: camelotOf(tonic, mode) };
  },
);

const BY_NAME = new Map(ALL_KEYS.map((k) => [k.name, k]));

/** A key name's Camelot code ("F minor" → "4A"); null for anything not one of the 24 names. */
export function camelotForKey(name: string | null | undefined): string | null {
  return (name && BY_NAME.get(name)?.camelot) || null;
}

const CAMELOT = /^(1[0-2]|[1-9])([AB])$/;

/**
 * Sort position of a Camelot code: 1A, 1B, 2A, 2B … 12A, 12B (0–23), so neighbours on the wheel and
 * relative keys sit together; null (unknown or no key) for anything else. Lists put nulls last.
 */
export function camelotSortIndex(code: string | null | undefined): number | null {
  const m = code ? CAMELOT.exec(code) : null;
  return m ? (Number(m[1]) - 1) * 2 + (m[2] === "A" ? 0 : 1) : null;
}

/** Compares two Camelot codes for sorting (ascending; missing or malformed codes last). */
export function compareCamelot(a: string | null | undefined, b: string | null | undefined): number {
  const x = camelotSortIndex(a), y = camelotSortIndex(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  return x - y;
}

/**
 * At or above this confidence (the report's `key_confidence`) a key is shown as read; below it as
 * uncertain (issue 38, docs/decisions/0411; the bench prints the accuracy on each side of it). A
 * report without a confidence (older than it) is shown as read.
 */
export const KEY_SURE_CONFIDENCE = 0.85;

export function isKeySure(confidence: number | null | undefined): boolean {
  return confidence === null || confidence === undefined || confidence >= KEY_SURE_CONFIDENCE;
}

/** "Ab", "Fm": a key's short name ("Ab major", "F minor"); null for anything not one of the 24. */
export function shortKeyName(name: string | null | undefined): string | null {
  const k = name ? BY_NAME.get(name) : undefined;
  return k ? `${k.name.split(" ")[0]}${k.mode === "minor" ? "m" : ""}` : null;
}

/**
 * An uncertain key as the desk shows it: the key read and its relative (the same Camelot number, the
 * commonest confusion), then «?» — «Ab / Fm?» for "Ab major", «Fm / Ab?» for "F minor".
 */
export function uncertainKeyLabel(name: string): string {
  const k = BY_NAME.get(name);
  if (!k) return `${name}?`;
  const relative = k.mode === "major" ? keyName(k.tonic + 9, "minor") : keyName(k.tonic + 3, "major");
  return `${shortKeyName(name)} / ${shortKeyName(relative)}?`;
}

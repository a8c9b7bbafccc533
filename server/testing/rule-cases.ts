/** Upload rule cases shared by the rule tests and the endpoint tests (spec 1 §5). */
import type { Direction } from "../../domain/directions.ts";

/** The conflict table as spec 1 §5 words it, written out independently of domain/directions.ts. */
const SPEC_CONFLICTS: Array<[Direction, Direction[]]> = [
  ["label_neuropunk", ["label_koster", "podcast_koster", "radio_k_profit", "show_neurogon"]],
  ["podcast_neuropunk", ["label_koster", "podcast_koster", "radio_k_profit"]],
  ["label_koster", ["label_neuropunk", "podcast_neuropunk"]],
  ["podcast_koster", ["label_neuropunk", "podcast_neuropunk"]],
];
export const ALL_DIRECTIONS: Direction[] = [
  "label_neuropunk",
  "podcast_neuropunk",
  "label_koster",
  "podcast_koster",
  "show_neurogon",
  "radio_k_profit",
];
export function specConflict(a: Direction, b: Direction): boolean {
  return SPEC_CONFLICTS.some(([x, ys]) => (x === a && ys.includes(b)) || (x === b && ys.includes(a)));
}
export const DIRECTION_PAIRS: Array<[Direction, Direction]> = ALL_DIRECTIONS.flatMap((a, i) =>
  ALL_DIRECTIONS.slice(i + 1).map((b) => [a, b] as [Direction, Direction])
);

export const VALID_NAMES = [
  "Artist - Title.mp3",
  "Artist - Title.MP3",
  "Artist - Title - VIP Mix.mp3",
  "  Artist  -  Title  .mp3",
  "Артист - Трек.mp3",
  "ID Crew - Title.mp3",
  "idiom - Title.mp3",
  "Айди Бэнд - Трек.mp3",
  "A - B.mp3",
  "Artist - Title (feat. Someone) [Label].mp3",
];

export const INVALID_NAMES = [
  "Artist-Title.mp3",
  "Artist -Title.mp3",
  "Artist- Title.mp3",
  "Artist – Title.mp3",
  " - Title.mp3",
  "   - Title.mp3",
  "Artist - .mp3",
  "Artist -   .mp3",
  "id - Title.mp3",
  "ID - Title.mp3",
  "Id - Title.mp3",
  "  iD  - Title.mp3",
  "айди - Трек.mp3",
  "АЙДИ - Трек.mp3",
  "Айди - Трек.mp3",
  "Title.mp3",
  ".mp3",
];

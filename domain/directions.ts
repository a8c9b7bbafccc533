/**
 * The one place for direction codes, their labels on the artist's pages, the conflict table and the
 * seventeen genres; the staff screens' labels are in domain/staff-directions.ts. Shared by the server and the client (spec 1 §3, §5; spec 2 §3).
 * `{product}` in the spec is `neuropunk`.
 */

export const DIRECTIONS = [
  "label_neuropunk",
  "podcast_neuropunk",
  "label_koster",
  "podcast_koster",
  "show_neurogon",
  "radio_k_profit",
] as const;

export type Direction = (typeof DIRECTIONS)[number];

/** Labels on the artist's upload page. */
export const DIRECTION_LABELS: Record<Direction, string> = {
  label_neuropunk: "Лейбл Нейропанк",
  podcast_neuropunk: "Подкаст Нейропанк",
  label_koster: "Лейбл Костёр",
  podcast_koster: "Подкаст Костёр",
  show_neurogon: "Шоу Нейрогон",
  radio_k_profit: "Радио Профита",
};

/** Pairs that cannot be chosen together (spec 1 §5). The relation is symmetric. */
const CONFLICT_PAIRS: ReadonlyArray<readonly [Direction, Direction]> = [
  ["label_neuropunk", "label_koster"],
  ["label_neuropunk", "podcast_koster"],
  ["label_neuropunk", "radio_k_profit"],
  ["label_neuropunk", "show_neurogon"],
  ["podcast_neuropunk", "label_koster"],
  ["podcast_neuropunk", "podcast_koster"],
  ["podcast_neuropunk", "radio_k_profit"],
];

export const DIRECTION_CONFLICTS: Record<Direction, readonly Direction[]> = Object.fromEntries(
  DIRECTIONS.map((d) => [
    d,
    CONFLICT_PAIRS.flatMap(([a, b]) => (a === d ? [b] : b === d ? [a] : [])),
  ]),
) as unknown as Record<Direction, readonly Direction[]>;

export const DIRECTION_CONFLICT_MESSAGE = "Это направление нельзя выбрать вместе с уже выбранными направлениями.";

export function isDirection(value: string): value is Direction {
  return (DIRECTIONS as readonly string[]).includes(value);
}

export function conflictsWith(a: Direction, b: Direction): boolean {
  return DIRECTION_CONFLICTS[a].includes(b);
}

/** Every direction that cannot be added to `selected`. */
export function blockedDirections(selected: readonly Direction[]): Set<Direction> {
  const blocked = new Set<Direction>();
  for (const s of selected) for (const c of DIRECTION_CONFLICTS[s]) blocked.add(c);
  return blocked;
}

/** The first conflicting pair in a set, or null when the set is allowed. */
export function findConflict(selected: readonly Direction[]): [Direction, Direction] | null {
  for (let i = 0; i < selected.length; i++) {
    for (let j = i + 1; j < selected.length; j++) {
      if (conflictsWith(selected[i], selected[j])) return [selected[i], selected[j]];
    }
  }
  return null;
}

/** Parses the stored comma string; unknown codes are dropped, order follows DIRECTIONS. */
export function parseDirections(value: string | null | undefined): Direction[] {
  if (!value) return [];
  const set = new Set(value.split(",").map((s) => s.trim()));
  return DIRECTIONS.filter((d) => set.has(d));
}

export const GENRES = [
  "Liquid Funk",
  "Neurofunk",
  "Jump-Up",
  "Darkstep",
  "Techstep",
  "Atmospheric DnB",
  "Jungle",
  "Intelligent DnB",
  "Drumfunk",
  "Ragga Jungle",
  "Hardstep",
  "Liquid Neuro",
  "Halftime DnB",
  "Technoid",
  "Rolling DnB",
  "Clownstep",
  "Breakcore",
] as const;

export type Genre = (typeof GENRES)[number];

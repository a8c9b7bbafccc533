/**
 * What only the staff screens and the server use of the directions: the admin's and the moderators'
 * labels, the stored comma string and the moderators' categories (spec 2 §3). Apart from
 * domain/directions.ts so that none of it is bundled into the public pages, which import that module
 * (decision 0432).
 */
import { type Direction, DIRECTIONS, parseDirections } from "./directions.ts";

/** Admin label variants (spec 2 §3). */
export const ADMIN_DIRECTION_LABELS: Record<Direction, string> = {
  podcast_neuropunk: "Подкаст Нейропанк",
  label_neuropunk: "Лейбл Нейропанк",
  label_koster: "Лейбл Костер",
  podcast_koster: "Подкаст Костер",
  radio_k_profit: "Радио Профита",
  show_neurogon: "Шоу Нейрогон",
};

/** Moderator display names (spec 2 §3); `*` is every category. */
export const MODERATOR_CATEGORY_LABELS: Record<Direction | "*", string> = {
  podcast_neuropunk: "Neuropunk podcast",
  label_neuropunk: "Neuropunk Records",
  label_koster: "Костёр Звукозапись",
  podcast_koster: "Костёр подкаст",
  radio_k_profit: "Bassland Show by Profit",
  show_neurogon: "Шоу Нейрогон",
  "*": "All Categories",
};

/** Moderator categories: `*` or a comma list of codes. */
export function parseCategories(value: string | null | undefined): Direction[] | "*" {
  if (value?.split(",").some((s) => s.trim() === "*")) return "*";
  return parseDirections(value);
}

export function formatDirections(list: readonly Direction[]): string {
  const set = new Set(list);
  return DIRECTIONS.filter((d) => set.has(d)).join(",");
}

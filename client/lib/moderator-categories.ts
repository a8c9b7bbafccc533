import { type Direction, DIRECTIONS, isDirection } from "../../domain/directions.ts";
import { MODERATOR_CATEGORY_LABELS, parseCategories } from "../../domain/staff-directions.ts";
import { inScope, type Scope, scopeDirections, scopeOf } from "../../domain/scope.ts";
import type { User } from "./auth.ts";

/**
 * A moderator's categories as the panel uses them: their scope, `"*"` (every category; admins always)
 * or a list of direction codes, decided by the rule the server applies (domain/scope.ts).
 * `GET /api/moderator/status` answers the same shape (docs/decisions/0060).
 */
export type Categories = Scope;

export interface ModeratorStatus {
  is_moderator: boolean;
  categories: Categories;
}

/** Reads whatever the status call answered: `"*"`, a list (codes or `*`), or a comma string. */
export function normalizeCategories(raw: unknown): Categories {
  if (raw === "*") return "*";
  if (Array.isArray(raw)) {
    if (raw.some((c) => String(c).trim() === "*")) return "*";
    const set = new Set(raw.map((c) => String(c).trim()).filter(isDirection));
    return DIRECTIONS.filter((d) => set.has(d));
  }
  if (typeof raw === "string") return parseCategories(raw);
  return [];
}

/** Spec 2 §8: when the status call fails for another reason than 403, the user's own flags decide. */
export function statusFromUser(
  user: Pick<User, "is_admin" | "is_moderator" | "moderator_categories"> | null,
): ModeratorStatus {
  if (!user) return { is_moderator: false, categories: [] };
  return { is_moderator: Boolean(user.is_admin || user.is_moderator), categories: scopeOf(user) };
}

/** True when the moderator may set or clear this direction. */
export function canManage(direction: Direction, categories: Categories): boolean {
  return inScope(direction, categories);
}

/** The directions offered in the filter: every one for `*`, else the moderator's categories. */
export function managedDirections(categories: Categories): Direction[] {
  return scopeDirections(categories);
}

export function categoryLabel(code: string): string {
  return code === "*" || isDirection(code) ? MODERATOR_CATEGORY_LABELS[code as Direction | "*"] : code;
}

/** Display names of the categories; `["All Categories"]` for `*`, `[]` when none is assigned. */
export function categoryNames(categories: Categories): string[] {
  return categories === "*" ? [MODERATOR_CATEGORY_LABELS["*"]] : categories.map((c) => MODERATOR_CATEGORY_LABELS[c]);
}

import { type SQL, sql } from "drizzle-orm";
import { type Direction, parseCategories } from "../../db/directions.ts";
import type { User } from "../../db/schema.ts";
import { tracks } from "../../db/schema.ts";

/**
 * What part of the tracks a staff member works on: `"*"` (admins, moderators of every category) or
 * a list of direction codes. A track is visible to a scope when at least one of its directions is in
 * the scope (spec 2 §6, issue 7).
 */
export type Scope = "*" | readonly Direction[];

/** The scope of a signed-in staff member; an admin always gets `*`. Non-staff get an empty scope. */
export function scopeOf(user: Pick<User, "is_admin" | "is_moderator" | "moderator_categories">): Scope {
  if (user.is_admin) return "*";
  if (!user.is_moderator) return [];
  return parseCategories(user.moderator_categories);
}

/** SQL that is true when the comma list in `column` contains `code` exactly. */
export function hasDirectionSql(code: Direction, column: SQL | typeof tracks.directions = tracks.directions): SQL {
  return sql`instr(',' || ${column} || ',', ${"," + code + ","}) > 0`;
}

/** SQL condition for "track visible to the scope"; undefined means no restriction. */
export function scopeSql(scope: Scope): SQL | undefined {
  if (scope === "*") return undefined;
  if (scope.length === 0) return sql`0`;
  return sql`(${sql.join(scope.map((d) => hasDirectionSql(d)), sql` OR `)})`;
}

export function isVisible(directions: readonly Direction[], scope: Scope): boolean {
  if (scope === "*") return true;
  return directions.some((d) => scope.includes(d));
}

export function inScope(direction: Direction, scope: Scope): boolean {
  return scope === "*" || scope.includes(direction);
}

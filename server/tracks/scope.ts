import { type SQL, sql } from "drizzle-orm";
import { type Direction, parseCategories, parseDirections } from "../../domain/directions.ts";
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

/**
 * The one answer to "may this person see this track", for every read that takes a track id: its
 * owner, an admin, or a moderator whose categories cover one of its directions. Everyone else is
 * told the track does not exist (404), so ids outside one's sight reveal nothing. The staff panels
 * apply the same scope in SQL (`scopeSql`) and leave out the owner clause: their edits are
 * moderation, which a moderator's own upload outside their categories does not give them.
 */
export function maySeeTrack(
  user: Pick<User, "id" | "is_admin" | "is_moderator" | "moderator_categories">,
  track: { user_id: number | null; directions: string | null },
): boolean {
  if (track.user_id !== null && track.user_id === user.id) return true;
  return isVisible(parseDirections(track.directions), scopeOf(user));
}

export function inScope(direction: Direction, scope: Scope): boolean {
  return scope === "*" || scope.includes(direction);
}

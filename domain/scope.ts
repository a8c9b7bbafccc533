import { type Direction, DIRECTIONS, parseDirections } from "./directions.ts";
import { parseCategories } from "./staff-directions.ts";

/**
 * Who works on which tracks (spec 2 §6, issue 7; decision 0092), over plain values: the server's
 * permission checks and the moderator panel's category pickers ask the same functions. The server
 * turns a scope into SQL in server/tracks/scope.ts.
 */

/** `"*"` (admins, moderators of every category) or a list of direction codes. */
export type Scope = "*" | readonly Direction[];

export interface StaffFlags {
  is_admin: boolean;
  is_moderator: boolean;
  moderator_categories: string | null;
}

/** An admin always gets `*`; a moderator their categories; everyone else an empty scope. */
export function scopeOf(user: StaffFlags): Scope {
  if (user.is_admin) return "*";
  if (!user.is_moderator) return [];
  return parseCategories(user.moderator_categories);
}

/** A track is visible to a scope when at least one of its directions is in it. */
export function isVisible(directions: readonly Direction[], scope: Scope): boolean {
  if (scope === "*") return true;
  return directions.some((d) => scope.includes(d));
}

/** May a person with this scope set or clear this direction. */
export function inScope(direction: Direction, scope: Scope): boolean {
  return scope === "*" || scope.includes(direction);
}

/** The directions a scope covers, in the canonical order. */
export function scopeDirections(scope: Scope): Direction[] {
  return DIRECTIONS.filter((d) => inScope(d, scope));
}

/**
 * The one answer to "may this person see this track", for every read that takes a track id: its
 * owner, an admin, or a moderator whose categories cover one of its directions. The staff panels
 * leave out the owner clause: their edits are moderation, which a moderator's own upload outside
 * their categories does not give them.
 */
export function maySeeTrack(
  user: StaffFlags & { id: number },
  track: { user_id: number | null; directions: string | null },
): boolean {
  if (track.user_id !== null && track.user_id === user.id) return true;
  return isVisible(parseDirections(track.directions), scopeOf(user));
}

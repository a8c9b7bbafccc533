import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { trackAssignments, trackDecisions, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Direction } from "../../domain/directions.ts";
import { inScope, scopeOf } from "../../domain/scope.ts";

/**
 * A new version's assignee (issue 37, docs/decisions/0404): each direction of the new track goes to
 * the staff member who decided that direction of the version it replaces, when they are still staff
 * (not banned) and still cover the direction; otherwise it stays unassigned, as any new upload.
 * `assigned_by` is null: nobody assigned it, the link did.
 */
export async function assignVersion(
  db: Db,
  input: { trackId: number; previousId: number; directions: readonly Direction[]; at: Date },
): Promise<Array<{ direction: Direction; user_id: number }>> {
  if (input.directions.length === 0) return [];
  const deciders = await db.select({
    direction: trackDecisions.direction,
    user_id: users.id,
    is_admin: users.is_admin,
    is_moderator: users.is_moderator,
    is_banned: users.is_banned,
    moderator_categories: users.moderator_categories,
  }).from(trackDecisions)
    .innerJoin(users, eq(users.id, trackDecisions.decided_by))
    .where(and(
      eq(trackDecisions.track_id, input.previousId),
      inArray(trackDecisions.direction, [...input.directions]),
      isNotNull(trackDecisions.decided_by),
      inArray(trackDecisions.status, ["accepted", "declined", "shortlisted"]),
    ));
  const rows = deciders
    .filter((d) => !d.is_banned && (d.is_admin || d.is_moderator) && inScope(d.direction as Direction, scopeOf(d)))
    .map((d) => ({ direction: d.direction as Direction, user_id: d.user_id }));
  if (rows.length > 0) {
    await db.insert(trackAssignments).values(rows.map((r) => ({
      track_id: input.trackId,
      direction: r.direction,
      user_id: r.user_id,
      assigned_by: null,
      assigned_at: input.at,
      cleared_call: null,
    }))).onConflictDoNothing();
  }
  return rows;
}

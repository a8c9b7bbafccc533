import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import { inScope, type Scope } from "../../domain/scope.ts";
import { trackAssignments, tracks, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Namer } from "./decisions.ts";

/**
 * The SQL of assignments (issue 24, docs/decisions/0233) that the track's row, the list's filter and
 * the decision call share; the calls themselves are assignments.ts.
 */

/** A person as the staff screens name them. */
export interface AssigneeView {
  id: number;
  name: string;
}

/** One pair's assignment, as the track row's JSON carries it. */
interface AssignmentJson {
  d: string;
  id: number;
  username: string;
  first: string | null;
  last: string | null;
}

/**
 * The track row's active assignments (views.ts `rowJson`): a lookup on the primary key per row, and
 * null for the tracks nobody is assigned.
 */
export const assignmentsJsonField = sql`'asg', (SELECT json_group_array(json_object('d', a.direction, 'id', u.id,
  'username', u.username, 'first', u.first_name, 'last', u.last_name))
  FROM ${trackAssignments} AS a JOIN ${users} AS u ON u.id = a.user_id
  WHERE a.track_id = ${tracks.id} AND a.cleared_call IS NULL)`;

/**
 * The track's assignee as the caller sees it: the person assigned to the first of the track's current
 * directions within the caller's scope (in the canonical order) that has one; null when none has.
 */
export function assigneeFromJson(raw: unknown, directions: string, scope: Scope, name: Namer): AssigneeView | null {
  const list: AssignmentJson[] = typeof raw === "string" ? JSON.parse(raw) : Array.isArray(raw) ? raw : [];
  if (list.length === 0) return null;
  for (const d of parseDirections(directions)) {
    if (!inScope(d, scope)) continue;
    const a = list.find((x) => x.d === d);
    if (a) return { id: a.id, name: name({ username: a.username, first_name: a.first, last_name: a.last }) };
  }
  return null;
}

/**
 * The list's `assigned=me` filter: a pair of the track's current directions is assigned to `userId`.
 * Not correlated: the person's assignments are read once (index on user, track) and each track row
 * is a probe into that set, which keeps the list's count over 100,000 tracks cheap.
 */
export function assignedToSql(userId: number): SQL {
  return sql`${tracks.id} IN (SELECT a.track_id FROM ${trackAssignments} AS a
    JOIN ${tracks} AS assigned_tracks ON assigned_tracks.id = a.track_id
    WHERE a.user_id = ${userId} AND a.cleared_call IS NULL
    AND instr(',' || assigned_tracks.directions || ',', ',' || a.direction || ',') > 0)`;
}

/** A decision call's batch: the decided pairs' assignments end, marked with the call (so its undo can bring them back). */
export function clearStatements(
  db: Db,
  trackId: number,
  directions: readonly Direction[],
  callId: string,
): BatchItem<"sqlite">[] {
  if (directions.length === 0) return [];
  return [
    db.update(trackAssignments).set({ cleared_call: callId }).where(and(
      eq(trackAssignments.track_id, trackId),
      inArray(trackAssignments.direction, [...directions]),
      isNull(trackAssignments.cleared_call),
    )),
  ];
}

/** An undo's batch: the assignments the undone call cleared are back (unless someone assigned the pair since). */
export function restoreStatement(db: Db, trackId: number, callId: string): BatchItem<"sqlite"> {
  return db.update(trackAssignments).set({ cleared_call: null })
    .where(and(eq(trackAssignments.track_id, trackId), eq(trackAssignments.cleared_call, callId)));
}

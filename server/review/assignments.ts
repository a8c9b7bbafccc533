import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Direction, DIRECTION_LABELS, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { inScope, type Scope, scopeOf } from "../../domain/scope.ts";
import { isReviewStatus, type ReviewStatus } from "../../domain/review.ts";
import { ASSIGN_TEXTS, MAX_ASSIGN_TRACKS, MAX_SPLIT_PEOPLE } from "../../domain/assignment.ts";
import { trackAssignments, tracks, type User } from "../../db/schema.ts";
import type { AssigneeView } from "./assignment-sql.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../../db/client.ts";
import type { UsersService } from "../users/service.ts";
import { badRequest, forbidden, notFound } from "../lib/http-error.ts";
import { hasDirectionSql, scopeSql } from "../tracks/scope.ts";
import { reviewFilterSql } from "./decisions.ts";
import { displayName, TRACK_NOT_FOUND, type Viewer } from "../tracks/views.ts";

/**
 * Assignment (issue 24, docs/decisions/0233): who is to decide a (track, direction) pair. An admin,
 * or a moderator for their own categories, assigns a track (its pairs within the caller's categories
 * that are not accepted or declined, or one of them), a selection, or a direction's new queue split
 * evenly among colleagues, to a staff member whose categories cover those pairs. A decision of the
 * pair clears it (review.ts `decidePairs` writes assignment-sql.ts `clearStatements` into its batch),
 * and undoing that decision brings it back (`restoreStatement`).
 */

/** Pairs that may be assigned: anything but a final decision (a shortlisted pair still wants one). */
const assignable = (status: ReviewStatus | undefined) => status !== "accepted" && status !== "declined";

/** `direction:status` entries of `tracks.review` (no entry: `new`). */
function reviewStates(review: string): Map<string, ReviewStatus> {
  const out = new Map<string, ReviewStatus>();
  for (const entry of review.split(",")) {
    const [d, s] = entry.split(":");
    if (d && isReviewStatus(s)) out.set(d, s);
  }
  return out;
}

const isStaff = (u: Pick<User, "is_admin" | "is_moderator" | "is_banned">) =>
  !u.is_banned && (u.is_admin || u.is_moderator);

/** A colleague one may assign work to, with the directions of the caller's they cover. */
export interface AssignableStaff {
  id: number;
  username: string;
  name: string;
  directions: Direction[];
}

/** The tracks asked, each within the caller's sight (else 404 for the whole call), with the pairs to assign. */
async function pairsOf(
  db: Db,
  scope: Scope,
  ids: readonly number[],
  only: Direction | undefined,
): Promise<{ id: number; directions: Direction[] }[]> {
  const rows = await db.select({ id: tracks.id, directions: tracks.directions, review: tracks.review })
    .from(tracks).where(and(inArray(tracks.id, [...ids]), scopeSql(scope)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    if (!r) throw notFound(TRACK_NOT_FOUND);
    const all = parseDirections(r.directions);
    if (only !== undefined) {
      if (!all.includes(only)) throw badRequest(ASSIGN_TEXTS.notTrackDirection);
      if (!inScope(only, scope)) throw forbidden(ASSIGN_TEXTS.outsideCategories);
    }
    const states = reviewStates(r.review);
    const directions = all.filter((d) =>
      (only === undefined || d === only) && inScope(d, scope) && assignable(states.get(d))
    );
    if (directions.length === 0) throw badRequest(ASSIGN_TEXTS.nothingToAssign);
    return { id, directions };
  });
}

export function createAssignments(
  ctx: Pick<AppDeps, "db" | "clock"> & { users: Pick<UsersService, "byId" | "staff"> },
) {
  const { db } = ctx;

  /** The person to assign: an existing, unbanned admin or moderator. */
  async function assigneeOf(userId: number): Promise<User> {
    const u = await ctx.users.byId(userId);
    if (!u) throw badRequest(ASSIGN_TEXTS.userNotFound);
    if (!isStaff(u)) throw badRequest(ASSIGN_TEXTS.notStaff);
    return u;
  }

  /** 400 unless the person's categories cover `direction`. */
  function checkCovers(u: User, direction: Direction) {
    if (!inScope(direction, scopeOf(u))) {
      throw badRequest(ASSIGN_TEXTS.notCovering(displayName(u), DIRECTION_LABELS[direction]));
    }
  }

  /** The statements that write (or, with `null`, remove) the assignments of the pairs. */
  function writes(who: Viewer, pairs: { id: number; direction: Direction }[], assignee: User | null) {
    const at = ctx.clock.now();
    return assignee === null
      ? pairs.map((p) =>
        db.delete(trackAssignments).where(
          and(eq(trackAssignments.track_id, p.id), eq(trackAssignments.direction, p.direction)),
        )
      )
      : chunk(pairs, 200).map((part) =>
        db.insert(trackAssignments).values(part.map((p) => ({
          track_id: p.id,
          direction: p.direction,
          user_id: assignee.id,
          assigned_by: who.id,
          assigned_at: at,
          cleared_call: null,
        }))).onConflictDoUpdate({
          target: [trackAssignments.track_id, trackAssignments.direction],
          set: {
            user_id: sql`excluded.user_id`,
            assigned_by: sql`excluded.assigned_by`,
            assigned_at: sql`excluded.assigned_at`,
            cleared_call: null,
          },
        })
      ) as BatchItem<"sqlite">[];
  }

  /** One batch: all of it or nothing. */
  async function run(statements: BatchItem<"sqlite">[]) {
    const [first, ...rest] = statements;
    if (first) await db.batch([first, ...rest]);
  }

  const viewOf = (u: User | null): AssigneeView | null => (u ? { id: u.id, name: displayName(u) } : null);

  /**
   * PUT …/tracks/{id}/assignee and PUT …/tracks/assignee: the tracks' assignable pairs within the
   * caller's categories (or only `direction`) go to `userId`, or are unassigned with null. All or
   * nothing: a track outside the caller's sight is 404, a direction outside their categories 403,
   * a person who is not staff or does not cover a pair 400, and nothing is written.
   */
  async function assign(
    who: Viewer,
    ids: readonly number[],
    userId: number | null,
    direction?: Direction,
  ): Promise<{ assignee: AssigneeView | null; pairs: number }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest(ASSIGN_TEXTS.noTracks);
    if (unique.length > MAX_ASSIGN_TRACKS) throw badRequest(ASSIGN_TEXTS.tooManyTracks);
    const scope = scopeOf(who);
    if (direction !== undefined && !inScope(direction, scope)) throw forbidden(ASSIGN_TEXTS.outsideCategories);
    const tracksAsked = await pairsOf(db, scope, unique, direction);
    const assignee = userId === null ? null : await assigneeOf(userId);
    const pairs = tracksAsked.flatMap((t) => t.directions.map((d) => ({ id: t.id, direction: d })));
    if (assignee) { for (const p of pairs) checkCovers(assignee, p.direction); }
    await run(writes(who, pairs, assignee));
    return { assignee: viewOf(assignee), pairs: pairs.length };
  }

  return {
    assign,

    /**
     * POST …/tracks/assign-split: the direction's new queue (its pairs still `new`, of tracks not
     * failed, assigned to nobody), oldest upload first, dealt in turn to the people named, so each
     * gets the same number or one more. 403 outside the caller's categories; 400 for anyone who is
     * not staff or whose categories do not cover the direction.
     */
    async splitNew(who: Viewer, direction: Direction, userIds: readonly number[]) {
      const scope = scopeOf(who);
      if (!inScope(direction, scope)) throw forbidden(ASSIGN_TEXTS.outsideCategories);
      const uniqueIds = [...new Set(userIds)];
      if (uniqueIds.length === 0) throw badRequest(ASSIGN_TEXTS.noPeople);
      if (uniqueIds.length > MAX_SPLIT_PEOPLE) throw badRequest(ASSIGN_TEXTS.tooManyPeople);
      const people: User[] = [];
      for (const id of uniqueIds) {
        const u = await assigneeOf(id);
        checkCovers(u, direction);
        people.push(u);
      }
      const unassigned = sql`NOT EXISTS (SELECT 1 FROM ${trackAssignments} AS a WHERE a.track_id = ${tracks.id}
        AND a.direction = ${direction} AND a.cleared_call IS NULL)`;
      const queue = await db.select({ id: tracks.id }).from(tracks)
        .where(and(hasDirectionSql(direction), reviewFilterSql("new", [direction]), unassigned))
        .orderBy(asc(tracks.upload_date), asc(tracks.id));
      const dealt = people.map(() => [] as { id: number; direction: Direction }[]);
      queue.forEach((row, i) => dealt[i % people.length].push({ id: row.id, direction }));
      await run(people.flatMap((u, i) => writes(who, dealt[i], u)));
      return {
        direction,
        total: queue.length,
        assigned: people.map((u, i) => ({ user: viewOf(u)!, count: dealt[i].length })),
      };
    },

    /**
     * GET …/tracks/assignable-staff: the colleagues (admins and moderators, not banned, the caller
     * too) who cover at least one direction of the caller's, each with those directions. With
     * `trackId`, only those who cover every assignable pair of that track in the caller's scope (404
     * outside their sight); with `direction`, those who cover it (403 outside the caller's scope).
     */
    async assignableStaff(who: Viewer, q: { trackId?: number; direction?: Direction }): Promise<AssignableStaff[]> {
      const scope = scopeOf(who);
      let needed: Direction[] = [];
      if (q.direction !== undefined) {
        if (!inScope(q.direction, scope)) throw forbidden(ASSIGN_TEXTS.outsideCategories);
        needed.push(q.direction);
      }
      if (q.trackId !== undefined) {
        const [t] = await pairsOf(db, scope, [q.trackId], q.direction);
        needed = [...new Set([...needed, ...t.directions])];
      }
      const mine = DIRECTIONS.filter((d) => inScope(d, scope));
      return (await ctx.users.staff())
        .map((u) => ({
          id: u.id,
          username: u.username,
          name: displayName(u),
          directions: mine.filter((d) => inScope(d, scopeOf(u))),
        }))
        .filter((s) => s.directions.length > 0 && needed.every((d) => s.directions.includes(d)));
    },
  };
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export type Assignments = ReturnType<typeof createAssignments>;

import { and, eq, inArray } from "drizzle-orm";
import {
  type Direction,
  DIRECTION_CONFLICT_MESSAGE,
  DIRECTIONS,
  findConflict,
  parseDirections,
} from "../../domain/directions.ts";
import { formatDirections } from "../../domain/staff-directions.ts";
import { tracks } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { badRequest } from "../lib/http-error.ts";
import { KV_KEYS } from "../status-store/kv.ts";
import { inScope } from "../../domain/scope.ts";
import type { KeptListWrites } from "./kept-lists.ts";
import type { TrackInput, TrackModeration, TrackUpdate } from "./schemas.ts";
import { syncReviewStatement } from "./review-column.ts";
import { getTrack, loadCurrent, viewAs } from "./staff-reads.ts";
import { scopeFor, type StaffCaller, type TrackView } from "./views.ts";

/**
 * The staff's edits of the track row (issues 6, 7, 13): an admin's new record and edit, a
 * moderator's directions and downloaded flag, a delete (whole, or of the caller's directions),
 * the downloads' `downloaded` flag. Each drops the artist's kept list after its write.
 */

/** What the edits use: the primitive deps, the users (an owner must exist) and the kept-list rule. */
export type StaffEditDeps = Pick<AppDeps, "db" | "clock" | "kv" | "storage" | "logger"> & {
  users: { byId(id: number): Promise<unknown> };
  afterWrite: KeptListWrites["afterWrite"];
};

function checkConflicts(list: readonly Direction[]) {
  if (findConflict(list)) throw badRequest(DIRECTION_CONFLICT_MESSAGE);
}

/**
 * The status key carries the owner and the directions of the moment it was written, and the status
 * call trusts its owner for the polling; after a staff edit the database must answer instead, or a
 * former owner would keep reading a track handed to someone else.
 */
async function forgetStatus(deps: Pick<AppDeps, "kv">, id: number) {
  await deps.kv.del([KV_KEYS.trackStatus(id)]).catch(() => 0);
}

async function checkUser(deps: Pick<StaffEditDeps, "users">, userId: number | null | undefined) {
  if (userId === null || userId === undefined) return;
  if (!(await deps.users.byId(userId))) throw badRequest("Пользователь с таким ID не найден");
}

/** Admin: a track record without a file (spec 2 "Admin track edit", add mode). */
export async function createTrackRow(deps: StaffEditDeps, input: TrackInput): Promise<TrackView> {
  const { db } = deps;
  const dirs = input.directions ?? [];
  checkConflicts(dirs);
  await checkUser(deps, input.user_id);
  const now = deps.clock.now();
  const [row] = await deps.afterWrite([input.user_id], () =>
    db.insert(tracks).values({
      filename: input.filename,
      user_id: input.user_id ?? null,
      // A guest name only means something for a guest track (the form disables it otherwise).
      guest_username: input.user_id ? null : input.guest_username ?? null,
      upload_date: input.upload_date ?? now,
      directions: formatDirections(dirs),
      downloaded: input.downloaded ?? false,
      status: "completed",
      created_at: now,
      updated_at: now,
    }).returning({ id: tracks.id }));
  return await getTrack(deps, "*", row.id);
}

/** Admin: everything but the filename and the upload date, which are fixed once a track exists. */
export async function updateTrack(
  deps: StaffEditDeps,
  who: StaffCaller,
  id: number,
  input: TrackUpdate,
): Promise<TrackView> {
  const { db } = deps;
  const current = await loadCurrent(db, who, id);
  const set: Partial<typeof tracks.$inferInsert> = { updated_at: deps.clock.now() };
  if (input.directions !== undefined) {
    checkConflicts(input.directions);
    set.directions = formatDirections(input.directions);
  }
  if (input.downloaded !== undefined) set.downloaded = input.downloaded;
  if (input.user_id !== undefined) {
    if (input.user_id !== current.user_id) await checkUser(deps, input.user_id);
    set.user_id = input.user_id;
  }
  const userId = input.user_id !== undefined ? input.user_id : current.user_id;
  if (userId) set.guest_username = null;
  else if (input.guest_username !== undefined) set.guest_username = input.guest_username;
  // A track handed to another artist leaves one list and joins the other.
  await deps.afterWrite(
    [current.user_id, userId],
    () => db.batch([db.update(tracks).set(set).where(eq(tracks.id, id)), syncReviewStatement(db, id)]),
  );
  await forgetStatus(deps, id);
  return await viewAs(deps, "*", id, "*", who);
}

/**
 * Moderator: only directions inside the scope and the downloaded flag change. Directions outside
 * the scope stay as they were whatever the request says; the result keeps at least one
 * direction and respects the conflict table.
 */
export async function moderateTrack(
  deps: StaffEditDeps,
  who: StaffCaller,
  id: number,
  input: TrackModeration,
): Promise<TrackView> {
  const { db } = deps;
  const scope = scopeFor(who);
  const current = await loadCurrent(db, scope, id);
  const set: Partial<typeof tracks.$inferInsert> = { updated_at: deps.clock.now() };
  if (input.directions !== undefined) {
    const before = parseDirections(current.directions);
    const wanted = new Set(input.directions);
    const next = DIRECTIONS.filter((d) => (inScope(d, scope) ? wanted.has(d) : before.includes(d)));
    if (next.length === 0) throw badRequest("У трека должно быть хотя бы одно направление");
    checkConflicts(next);
    set.directions = formatDirections(next);
  }
  if (input.downloaded !== undefined) set.downloaded = input.downloaded;
  await deps.afterWrite(
    [current.user_id],
    () => db.batch([db.update(tracks).set(set).where(eq(tracks.id, id)), syncReviewStatement(db, id)]),
  );
  await forgetStatus(deps, id);
  // Unscoped read: removing their last direction takes the track out of the caller's sight,
  // but the change they just made is still theirs to see.
  return await viewAs(deps, "*", id, scope, who);
}

/**
 * Deletes the record, then its file and its status key. A moderator whose categories cover only
 * some of the track's directions removes just those; the track goes with its last direction
 * (issue 13, decision 0153). An administrator's delete is the whole track, as before.
 */
export async function removeTrack(
  deps: StaffEditDeps,
  who: StaffCaller,
  id: number,
): Promise<{ track_deleted: boolean; directions: string }> {
  const { db } = deps;
  const scope = scopeFor(who);
  const current = await loadCurrent(db, scope, id);
  const others = parseDirections(current.directions).filter((d) => !inScope(d, scope));
  if (others.length > 0) {
    const directions = formatDirections(others);
    await deps.afterWrite([current.user_id], () =>
      db.batch([
        db.update(tracks).set({ directions, updated_at: deps.clock.now() }).where(eq(tracks.id, id)),
        syncReviewStatement(db, id),
      ]));
    await forgetStatus(deps, id);
    return { track_deleted: false, directions };
  }
  await deps.afterWrite([current.user_id], () => db.delete(tracks).where(eq(tracks.id, id)));
  if (current.storage_key) {
    await deps.storage.delete(current.storage_key).catch((err) =>
      deps.logger.warn("track file not removed", { id, err })
    );
  }
  await forgetStatus(deps, id);
  return { track_deleted: true, directions: "" };
}

/** The downloads' `downloaded` flag, set on the tracks not flagged yet. */
export async function markDownloaded(deps: StaffEditDeps, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const { db } = deps;
  // The list shows the downloaded flag.
  await deps.afterWrite((done) => [...new Set(done.map((r) => r.user_id))], () =>
    db
      .update(tracks)
      .set({ downloaded: true, updated_at: deps.clock.now() })
      .where(and(inArray(tracks.id, [...ids]), eq(tracks.downloaded, false)))
      .returning({ user_id: tracks.user_id }));
}

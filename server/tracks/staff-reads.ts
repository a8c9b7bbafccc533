import { and, eq, inArray } from "drizzle-orm";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import { tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../deps.ts";
import { badRequest, notFound } from "../lib/http-error.ts";
import type { Scope } from "../../domain/scope.ts";
import { scopeSql } from "./scope.ts";
import type { TrackAnalysisService } from "../processing/analysis.ts";
import { decisionHistory } from "../review/decisions.ts";
import { listensOf } from "../review/listening.ts";
import type { CardTrack } from "../notifications/telegram-desk/desk.ts";
import type { TrackListQuery } from "./schemas.ts";
import {
  displayName,
  listTracks,
  NO_FILES_FOUND,
  scopeFor,
  type StaffCaller,
  TRACK_FILE_NOT_FOUND,
  TRACK_NOT_FOUND,
  type TrackDetailView,
  type TrackList,
  type TrackView,
  viewTrack,
  voterFor,
} from "./views.ts";

/**
 * The staff's reads of the track row (issues 6, 7, 12, 27): the list, one track, its detail, the
 * rows of a download, a staff card's facts. Each applies the caller's current scope (`scopeFor`):
 * outside it a track does not exist (404).
 */

/** What the staff reads use: the database and the clock (the waiting days). */
export type StaffReadDeps = { db: Db; clock: Clock };

const MAX_DOWNLOAD = 500;

/** What the write paths need of the current track. */
const currentFields = {
  id: tracks.id,
  user_id: tracks.user_id,
  directions: tracks.directions,
  storage_key: tracks.storage_key,
  filename: tracks.filename,
};
export type Current = {
  id: number;
  user_id: number | null;
  directions: string;
  storage_key: string | null;
  filename: string;
};

/** The track's owner, directions, file and name, within the caller's sight (else 404). */
export async function loadCurrent(db: Db, who: StaffCaller, id: number): Promise<Current> {
  const rows = await db.select(currentFields).from(tracks).where(and(eq(tracks.id, id), scopeSql(scopeFor(who))))
    .limit(1);
  if (!rows[0]) throw notFound(TRACK_NOT_FOUND);
  return rows[0];
}

/** A track seen with `scope` (views.ts `viewTrack`). */
export function viewAs(
  { db, clock }: StaffReadDeps,
  scope: Scope,
  id: number,
  waitingFor: Scope = scope,
  who?: StaffCaller,
): Promise<TrackView> {
  return viewTrack(db, clock, scope, id, waitingFor, who === undefined ? undefined : voterFor(who));
}

/** A track by id as staff see it (404 outside the caller's sight). */
export async function getTrack(deps: StaffReadDeps, who: StaffCaller, id: number): Promise<TrackView> {
  return await viewAs(deps, scopeFor(who), id, scopeFor(who), who);
}

/** Filtered, sorted and (when asked) paged list; one count query and one page query. */
export async function listTrackRows(deps: StaffReadDeps, who: StaffCaller, q: TrackListQuery): Promise<TrackList> {
  return await listTracks(deps.db, deps.clock, scopeFor(who), q, voterFor(who));
}

/** The track detail: the track and the history of its decisions (issue 13). */
export async function trackDetail(deps: StaffReadDeps, who: StaffCaller, id: number): Promise<TrackDetailView> {
  const track = await getTrack(deps, who, id);
  return {
    ...track,
    decision_history: await decisionHistory(deps.db, id, displayName),
    listens: await listensOf(deps.db, id, displayName),
  };
}

/** The rows of a download in the order asked, every one visible to the caller (else 404). */
async function downloadRows(db: Db, who: StaffCaller, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw badRequest("Не выбраны треки для скачивания");
  if (unique.length > MAX_DOWNLOAD) throw badRequest(`Можно скачать не более ${MAX_DOWNLOAD} треков за раз`);
  const rows = await db
    .select({ id: tracks.id, filename: tracks.filename, storage_key: tracks.storage_key })
    .from(tracks)
    .where(and(inArray(tracks.id, unique), scopeSql(scopeFor(who))));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const r = byId.get(id);
    if (!r) throw notFound(TRACK_NOT_FOUND);
    return r;
  });
}

/**
 * The tracks of a download, in the order asked, every one visible to the scope and with a file.
 * Anything else is 404 for the whole request: a download never silently leaves a track out.
 */
export async function forDownload(db: Db, who: StaffCaller, ids: readonly number[]) {
  const out = [];
  for (const r of await downloadRows(db, who, ids)) {
    if (!r.storage_key) throw notFound(`${TRACK_FILE_NOT_FOUND}: ${r.filename}`);
    out.push({ id: r.id, filename: r.filename, storage_key: r.storage_key });
  }
  return out;
}

/**
 * The tracks of a ZIP (issue 12): every one must be visible, as for `forDownload`, but a track
 * without a stored file (a failed duplicate, a staff-made record) is named in `missing` instead of
 * refusing the whole selection. 404 only when none of them has a file.
 */
export async function forArchive(db: Db, who: StaffCaller, ids: readonly number[]) {
  const files: { id: number; filename: string; storage_key: string }[] = [];
  const missing: { id: number; filename: string }[] = [];
  for (const r of await downloadRows(db, who, ids)) {
    if (r.storage_key) files.push({ id: r.id, filename: r.filename, storage_key: r.storage_key });
    else missing.push({ id: r.id, filename: r.filename });
  }
  if (files.length === 0) throw notFound(NO_FILES_FOUND);
  return { files, missing };
}

/**
 * A staff card's facts (issue 27, server/notifications/telegram-desk/): the track as an admin
 * sees it (every vote), waiting counted for the card's direction; null once it is gone.
 */
export async function cardTrack(deps: StaffReadDeps, id: number, direction: Direction): Promise<CardTrack | null> {
  let track: TrackView;
  try {
    track = await viewAs(deps, "*", id, [direction], {
      id: 0,
      is_admin: true,
      is_moderator: false,
      moderator_categories: "",
    });
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
  const [row] = await deps.db.select({ key: tracks.storage_key }).from(tracks).where(eq(tracks.id, id)).limit(1);
  const decision = track.decisions.find((d) => d.direction === direction);
  const votes = track.votes.filter((v) => v.direction === direction);
  const a = track.analysis;
  return {
    facts: {
      trackId: id,
      filename: track.filename,
      directions: track.directions,
      direction,
      bpm: a?.bpm ?? null,
      key: a?.key ?? null,
      camelot: a?.camelot ?? null,
      keyConfidence: a?.key_confidence ?? null,
      loudnessLufs: a?.loudness_lufs ?? null,
      warnings: a?.warnings ?? [],
      waitingDays: track.waiting_days,
      status: decision?.status ?? "new",
      decidedBy: decision?.decided_by?.name ?? null,
      decidedAt: decision?.decided_at ? new Date(decision.decided_at) : null,
      tally: {
        up: votes.filter((v) => v.vote === 1).length,
        maybe: votes.filter((v) => v.vote === 0).length,
        down: votes.filter((v) => v.vote === -1).length,
      },
    },
    storageKey: row?.key ?? null,
    durationS: a?.duration_s ?? (track.duration ? track.duration / 1000 : null),
    dropS: a?.drop_s ?? null,
  };
}

/** A track's directions, or null when it is gone (the staff desk's cards, issue 27). */
export async function trackDirections(db: Db, id: number): Promise<Direction[] | null> {
  const [row] = await db.select({ d: tracks.directions }).from(tracks).where(eq(tracks.id, id)).limit(1);
  return row ? parseDirections(row.d) : null;
}

/** What the listening call needs of a track the caller may see: 404 outside their sight or without a file. */
export async function listenSource(
  analysis: Pick<TrackAnalysisService, "listenSource">,
  who: StaffCaller,
  id: number,
) {
  return await analysis.listenSource(scopeFor(who), id, (filename) => `${TRACK_FILE_NOT_FOUND}: ${filename}`);
}

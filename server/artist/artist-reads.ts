import { type OnAir, onAirOf } from "../episodes/on-air.ts";
import { and, count, desc, eq, inArray, lte, ne, sql } from "drizzle-orm";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import { releases, type Track, trackAnalysis, tracks } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../lib/http-error.ts";
import { maySeeTrack } from "../../domain/scope.ts";
import {
  analysisJoin,
  ARTIST_ANALYSIS_COLUMNS,
  artistAnalysis,
  type TrackAnalysisService,
} from "../processing/analysis.ts";
import { type Answer, SHARED_ANSWER_TTL_MS } from "../http/public-answer.ts";
import { OWNED_ANSWERS_MAX, ownedAnswers } from "./owned-answers.ts";
import type { Config } from "../config.ts";
import {
  type ArtistDecisionJson,
  artistDecisionsJson,
  type ArtistDecisionView,
  artistDecisionViews,
} from "../review/decisions.ts";
import { promiseDays } from "../intake/rules.ts";
import {
  type createStatusKeys,
  STATUS_COLUMNS,
  type StatusRow,
  statusValue,
  type TrackStatusValue,
} from "../processing/status-keys.ts";
import { TRACK_FILE_NOT_FOUND, TRACK_NOT_FOUND, type Viewer } from "../tracks/views.ts";
import type { SharedComment, TrackComments } from "../review/comments.ts";
import { type QueueFigures, queueFigures, withQueue } from "./queue-position.ts";
import { offersOf, versionsOf, type VersionView } from "../uploads/versions.ts";
import { type RatingState, ratingStates } from "../feedback/ratings.ts";

/**
 * The artist's reads (docs/decisions/0022, 0092, 0154, 0185): the status poll (GET /api/status/{id})
 * and who gets its answer, the artist's own list kept ready per artist, and their history.
 */

interface OwnedRow {
  id: number;
  filename: string;
  upload_date: number;
  downloaded: number;
  a_ok: number;
  a_dur: number | null;
  a_kbps: number | null;
  a_warn: string | null;
  d_dirs: string;
  d_status: Track["status"];
  d_json: ArtistDecisionJson[] | null;
}

/** A track of the artist's own list (GET /api/tracks). */
export interface OwnedTrack {
  id: number;
  filename: string;
  upload_date: Date;
  downloaded: boolean;
  analysis: ReturnType<typeof artistAnalysis>;
  /** Each direction's state, with its place in the queue while undecided (issue 36). */
  decisions: (ArtistDecisionView & QueueFigures)[];
}

/** One submission in the artist's history (GET /api/tracks/history). */
export interface ArtistHistoryItem {
  id: number;
  filename: string;
  /** ISO 8601. */
  upload_date: string;
  status: Track["status"];
  /** Why the upload failed (duplicate, not an MP3, …); null unless `status` is `failed`. */
  error: string | null;
  directions: Direction[];
  downloaded: boolean;
  analysis: ReturnType<typeof artistAnalysis>;
  /** One per direction; empty for a failed upload, which was never reviewed. With the queue figures (issue 36). */
  decisions: (ArtistDecisionView & QueueFigures)[];
  /** The comments the label shared on this track, by moment; never staff-only ones, never who wrote them (0232). */
  comments: SharedComment[];
  /** The aired episodes it played in (issue 35): «В эфире: Подкаст Костёр #57 · 34:10» with the link. */
  on_air: OnAir[];
  /** Its label releases (issue 34), shown beside «Принят»: the release page and its stage. */
  releases: { id: number; direction: string; stage: string }[];
  /** Issue 37: the track it is a new version of, its number, and the line's versions (empty outside one). */
  version_of: number | null;
  version_number: number;
  versions: VersionView[];
  /** Issue 37: per decided direction, whether the artist may rate the feedback, and their rating. */
  feedback: RatingState[];
  /** Issue 37: an earlier track of theirs this one sounds close to, offered as its new version. */
  version_offer: { track_id: number; filename: string | null } | null;
}

export interface ArtistHistory {
  tracks: ArtistHistoryItem[];
  total: number;
  page: number;
  pages: number;
  page_size: number;
}

/**
 * GET /api/tracks/history (issue 13, decision 0154): every submission the user ever made, newest
 * first and paged, failed ones with their reason; per direction the state the artist sees and
 * the staff's message, never the note or who decided.
 */
export async function historyOf(
  deps: HistoryDeps,
  userId: number,
  q: { page: number; page_size: number },
): Promise<ArtistHistory> {
  const { db, shownBefore, comments } = deps;
  const [counted] = await db.select({ n: count() }).from(tracks).where(eq(tracks.user_id, userId));
  const total = counted?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / q.page_size));
  const page = Math.min(q.page, pages);
  const rows = await db
    .select({
      id: tracks.id,
      filename: tracks.filename,
      upload_date: tracks.upload_date,
      status: tracks.status,
      error: tracks.error,
      directions: tracks.directions,
      downloaded: tracks.downloaded,
      ...ARTIST_ANALYSIS_COLUMNS,
      d_json: artistDecisionsJson(shownBefore()),
    })
    .from(tracks)
    .leftJoin(trackAnalysis, analysisJoin)
    .where(eq(tracks.user_id, userId))
    .orderBy(desc(tracks.upload_date), desc(tracks.id))
    .limit(q.page_size)
    .offset((page - 1) * q.page_size);
  const shared = await comments.sharedOf(rows.map((r) => r.id));
  const aired = await onAirOf(db, rows.map((r) => r.id));
  const releaseList = await releasesOfTracks(db, rows.map((r) => r.id), shownBefore());
  const days = await promiseDays(db);
  const queue = await queueFigures(db, { userId, now: deps.now(), shownBefore: shownBefore(), promise: days });
  const lines = await versionsOf(db, rows.map((r) => r.id), true);
  const ratings = await ratingStates(db, rows.map((r) => r.id), shownBefore());
  const offers = await offersOf(db, rows.map((r) => r.id));
  const offered = offers.size === 0 ? [] : await db.select({ id: tracks.id, filename: tracks.filename }).from(tracks)
    .where(inArray(tracks.id, [...offers.values()]));
  return {
    tracks: rows.map(({ a_ok, a_dur, a_kbps, a_warn, d_json, ...t }) => ({
      id: t.id,
      filename: t.filename,
      upload_date: t.upload_date.toISOString(),
      status: t.status,
      // The reason is the artist's to read only once the upload has failed.
      error: t.status === "failed" ? t.error : null,
      directions: parseDirections(t.directions),
      downloaded: t.downloaded,
      analysis: artistAnalysis({ a_ok, a_dur, a_kbps, a_warn }),
      decisions: withQueue(
        t.id,
        artistDecisionViews(t.directions, t.status, d_json, { uploadMs: t.upload_date.getTime(), days }),
        queue,
      ),
      comments: shared.get(t.id) ?? [],
      on_air: aired.get(t.id) ?? [],
      releases: releaseList.filter((r) => r.track_id === t.id).map(({ track_id: _t, ...r }) => r),
      version_of: lines.get(t.id)?.version_of ?? null,
      version_number: lines.get(t.id)?.number ?? 1,
      versions: lines.get(t.id)?.versions ?? [],
      feedback: ratings.get(t.id) ?? [],
      version_offer: offers.has(t.id)
        ? {
          track_id: offers.get(t.id)!,
          filename: offered.find((o) => o.id === offers.get(t.id))?.filename ?? null,
        }
        : null,
    })),
    total,
    page,
    pages,
    page_size: q.page_size,
  };
}

/** The releases of these tracks whose accept is past its hold (issue 34). */
async function releasesOfTracks(db: HistoryDeps["db"], ids: number[], before: number) {
  if (ids.length === 0) return [];
  return await db.select({
    id: releases.id,
    track_id: releases.track_id,
    direction: releases.direction,
    stage: releases.stage,
  })
    .from(releases).where(and(inArray(releases.track_id, ids), lte(releases.accepted_at, new Date(before))));
}

/** What the history reads: the database, the hold's edge (ms), the shared comments. */
export interface HistoryDeps {
  db: Pick<AppDeps, "db">["db"];
  shownBefore: () => number;
  now: () => Date;
  comments: Pick<TrackComments, "sharedOf">;
}

export function createArtistReads(
  ctx: Pick<AppDeps, "db" | "clock"> & { config?: Pick<Config, "decisionNotifyHoldS"> },
  status: ReturnType<typeof createStatusKeys>,
  comments: Pick<TrackComments, "sharedOf">,
  reports: Pick<TrackAnalysisService, "listenSource">,
) {
  const { db } = ctx;
  /** Changes after this (ms) are still within their hold: the artist sees the state before (0223). */
  const shownBefore = () => ctx.clock.now().getTime() - (ctx.config?.decisionNotifyHoldS ?? 0) * 1000;
  const deps: HistoryDeps = { db, shownBefore, comments, now: () => ctx.clock.now() };

  async function statusRow(id: number): Promise<StatusRow | undefined> {
    return (await db.select(STATUS_COLUMNS).from(tracks).where(eq(tracks.id, id)).limit(1))[0];
  }

  /**
   * GET /api/tracks, polled by the artist's pages: prepared once, one JSON object per row built by
   * SQLite (issue 15: building the query and materialising nine columns per row in the driver and
   * the ORM was most of the call).
   */
  const ownedByQuery = db
    .select({
      row: sql<
        string
      >`json_object('id', ${tracks.id}, 'filename', ${tracks.filename}, 'upload_date', ${tracks.upload_date},
        'downloaded', ${tracks.downloaded}, 'a_ok', ${ARTIST_ANALYSIS_COLUMNS.a_ok}, 'a_dur', ${ARTIST_ANALYSIS_COLUMNS.a_dur},
        'a_kbps', ${ARTIST_ANALYSIS_COLUMNS.a_kbps}, 'a_warn', ${ARTIST_ANALYSIS_COLUMNS.a_warn}, 'd_dirs', ${tracks.directions},
        'd_status', ${tracks.status}, 'd_json', ${artistDecisionsJson(sql.placeholder("shownBefore"))})`,
    })
    .from(tracks)
    .leftJoin(trackAnalysis, analysisJoin)
    .where(and(eq(tracks.user_id, sql.placeholder("userId")), ne(tracks.status, "failed")))
    .orderBy(desc(tracks.upload_date), desc(tracks.id))
    .prepare();

  /**
   * The artist's own list, serialised, kept ready per artist (GET /api/tracks; decision 0185). Every
   * write of the tracks service that changes what an artist's list shows drops it once it has run,
   * through `afterWrite` (kept-lists.ts): new and removed tracks, status, directions, downloaded,
   * decisions and reports. Other instances see a change within `SHARED_ANSWER_TTL_MS`.
   */
  const owned = ownedAnswers((userId) => ownedList(userId).then((tracks) => ({ success: true as const, tracks })), {
    ttlMs: SHARED_ANSWER_TTL_MS,
    max: OWNED_ANSWERS_MAX,
    now: () => ctx.clock.now().getTime(),
  });
  const queued = queuedLists(owned);

  async function ownedList(userId: number): Promise<OwnedTrack[]> {
    // The artist sees the length, bitrate and warnings of their own tracks (issue 12), no more.
    const days = await promiseDays(db);
    const version = queued.version();
    const hold = shownBefore();
    const [rows, queue] = await Promise.all([
      ownedByQuery.all({ userId, shownBefore: hold }),
      queueFigures(db, { userId, now: ctx.clock.now(), shownBefore: hold, promise: days }),
    ]);
    queued.loaded(userId, version, queue.size > 0);
    return rows.map(({ row }) => {
      const r = JSON.parse(row) as OwnedRow;
      return {
        id: r.id,
        filename: r.filename,
        upload_date: new Date(r.upload_date),
        downloaded: Boolean(r.downloaded),
        analysis: artistAnalysis(r),
        decisions: withQueue(
          r.id,
          artistDecisionViews(r.d_dirs, r.d_status, r.d_json, { uploadMs: r.upload_date, days }),
          queue,
        ),
      };
    });
  }

  const reads = {
    /** What the status key of a track holds, read from the database. */
    statusRow,

    /**
     * GET /api/status/{id}. The owner's polling is answered by the status key, which stores the
     * owner; anyone else, a missing or stale key, or a store that is down, by one primary-key read
     * checked with `maySeeTrack`: staff may have changed the directions since the key was written,
     * and a moderator's sight follows the current ones (docs/decisions/0022, 0092).
     */
    async statusFor(viewer: Viewer, id: number): Promise<TrackStatusValue> {
      const value = await status.readStatus(id);
      if (value && value.user_id === viewer.id) return value;
      const row = await statusRow(id);
      if (!row || !maySeeTrack(viewer, row)) throw notFound(TRACK_NOT_FOUND);
      return statusValue(row);
    },

    /**
     * The user's own tracks, newest first, without failed uploads: never submitted (decision 0022).
     * Each carries its directions' review states as the artist sees them (issue 13).
     */
    async ownedBy(userId: number) {
      return await ownedList(userId);
    },

    /**
     * GET /api/tracks as a ready answer (`{ success: true, tracks: ownedBy(userId) }` serialised, its
     * gzip copy and ETag), kept per artist and dropped by every write of theirs (decision 0185).
     */
    ownedAnswer(userId: number): Answer | Promise<Answer> {
      queued.check(userId);
      return owned.get(userId);
    },

    historyOf: (userId: number, q: { page: number; page_size: number }): Promise<ArtistHistory> =>
      historyOf(deps, userId, q),

    /**
     * The artist's own listening call (GET /api/tracks/{id}/listen, decision 0232): the owner's track
     * with a stored file, else 404 like a missing id (a staff member is an artist here too).
     */
    async ownListenSource(userId: number, id: number) {
      const [row] = await db.select({ user_id: tracks.user_id }).from(tracks).where(eq(tracks.id, id)).limit(1);
      if (!row || row.user_id !== userId) throw notFound(TRACK_NOT_FOUND);
      return await reports.listenSource("*", id, (filename) => `${TRACK_FILE_NOT_FOUND}: ${filename}`);
    },

    async countOwnedBy(userId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(tracks).where(eq(tracks.user_id, userId));
      return row?.n ?? 0;
    },
  };
  return { reads, keptLists: queued };
}

/**
 * The kept lists keyed by the queue's version (issue 36, docs/decisions/0384): a list showing a place
 * in a queue changes when any artist's pair is decided, uploaded or removed, not only the artist's
 * own. Every track write of this instance goes through `forget` (tracks/kept-lists.ts `afterWrite`)
 * and moves the version on; a kept list that shows a queue figure and was loaded at an older version
 * is read again on its next request. A list with no undecided pair is unaffected. Other instances'
 * writes are seen within the kept lists' time to live, as every other change.
 */
export function queuedLists(owned: { forget(...ids: (number | null | undefined)[]): void }) {
  let version = 0;
  const loadedAt = new Map<number, number>();
  return {
    version: () => version,
    /** A list of `userId` was read at `at`; `queued`: it shows a queue figure. */
    loaded(userId: number, at: number, queued: boolean) {
      loadedAt.delete(userId);
      if (!queued) return;
      loadedAt.set(userId, at);
      // As many as the lists kept: the one loaded longest ago goes first (its list ages out anyway).
      if (loadedAt.size > OWNED_ANSWERS_MAX) loadedAt.delete(loadedAt.keys().next().value!);
    },
    /** Drops the kept list of `userId` when it shows a queue that has changed since. */
    check(userId: number) {
      const at = loadedAt.get(userId);
      if (at !== undefined && at !== version) {
        loadedAt.delete(userId);
        owned.forget(userId);
      }
    },
    forget(...ids: (number | null | undefined)[]) {
      version++;
      owned.forget(...ids);
    },
  };
}

import { versionsOf, type VersionView } from "../uploads/versions.ts";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Direction, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { formatDirections } from "../../domain/staff-directions.ts";
import type { AiUse } from "../../domain/ai-use.ts";
import { type Track, trackAnalysis, tracks, type User, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../deps.ts";
import { notFound } from "../lib/http-error.ts";
import { inScope, type Scope, scopeDirections, scopeOf } from "../../domain/scope.ts";
import { scopeSql } from "./scope.ts";
import { containsSql } from "../lib/search.ts";
import {
  analysisFromJson,
  analysisJoin,
  type AnalysisJson,
  analysisJsonFields,
  analysisOrder,
  type TrackAnalysisView,
  warningSql,
} from "../processing/analysis.ts";
import { daysSince } from "../../domain/review.ts";
import { promiseDays } from "../intake/rules.ts";
import { pairPastSql, uploadedPastSql } from "./promise-sql.ts";
import {
  awaitsCaller,
  type DecisionHistoryEntry,
  type DecisionJson,
  decisionsJsonField,
  type DecisionView,
  decisionViews,
  reviewFilterSql,
} from "../review/decisions.ts";
import type { ListenView } from "../review/listening.ts";
import {
  visibleScores,
  voteFilterSql,
  type VoteJson,
  type Voter,
  votesJsonField,
  type VoteSummary,
  type VoteView,
  voteViews,
} from "../review/votes.ts";
import { PAGE_SIZES, type SortField, type TrackListQuery } from "./schemas.ts";
import { assignedToSql, assigneeFromJson, type AssigneeView, assignmentsJsonField } from "../review/assignment-sql.ts";

/**
 * Rows to views (docs/decisions/0120): the track object the staff screens read, built by SQLite as
 * one JSON object per row, the list's filters and sort, and the one read by id. Who may see a track
 * is applied here to every read (`scopeSql`): outside one's sight a track is not found.
 */

export const TRACK_NOT_FOUND = "Трек не найден";
export const TRACK_FILE_NOT_FOUND = "Файл трека не найден";
export const NO_FILES_FOUND = "Ни у одного из выбранных треков нет файла";

export interface TrackView {
  id: number;
  filename: string;
  user_id: number | null;
  guest_username: string | null;
  user_info: { id: number; username: string; name: string } | null;
  /** ISO 8601. */
  upload_date: string;
  /** Comma list of direction codes. */
  directions: string;
  downloaded: boolean;
  status: Track["status"];
  size: number | null;
  duration: number | null;
  has_file: boolean;
  /** The audio report (issue 12); null until the track is analysed, and for tracks without a file. */
  analysis: TrackAnalysisView | null;
  /** The review state of each of the track's directions, in the canonical order (issue 13). */
  decisions: DecisionView[];
  /**
   * Whole days since the upload while a direction within the caller's scope is still `new` or
   * `listened`; null when the track waits for nobody in it (decided, shortlisted, failed).
   */
  waiting_days: number | null;
  /**
   * A pair within the caller's scope is past its direction's response promise and still awaits a
   * decision (issue 25; each pair's own `respond_by` and `overdue` are in `decisions`).
   */
  overdue: boolean;
  /**
   * Staff only, never in an artist's answer (issue 20, decision 0206): the earlier completed track
   * of another person with the very same bytes. `username` is that track's owner (or guest name)
   * and `upload_date` its upload, both null once that track is deleted (`deleted`).
   */
  duplicate_of: DuplicateOfView | null;
  /**
   * Staff only, never in an artist's answer (issue 25, decision 0248): the earliest completed track
   * of another person whose audio fingerprint matches this one's (the same recording, re-encoded or
   * not). `username` is its owner (or guest name) and `upload_date` its upload, both null once that
   * track is deleted.
   */
  same_audio_as: SameAudioView | null;
  /**
   * Staff only, never in an artist's answer (issue 38, docs/decisions/0422): the completed track
   * this one is another version of (an instrumental, another mix: not the same recording), shown as
   * «похоже на другую версию трека #N»; null when none.
   */
  similar_to_track_id: number | null;
  /**
   * Who is to decide the track (issue 24, decision 0233): the colleague assigned to the first of its
   * directions within the caller's categories that has one; null when none has.
   */
  assignee: AssigneeView | null;
  /**
   * Staff votes (issue 24, decision 0229), never in an artist's answer: for each direction of the
   * track within the caller's scope, the votes of the pairs the caller may see (an admin: all; anyone
   * else: the pairs they voted on, and decided ones), oldest first.
   */
  votes: VoteView[];
  /** Per direction within the caller's scope: count, score (null while hidden), second ear, own vote. */
  vote_summary: VoteSummary[];
  /**
   * Staff only (issue 25, decision 0245): the artist's answer to «Использовался ли ИИ при создании
   * трека?» for the batch, null when the track has none (uploaded before the question, by a script
   * that leaves the field out, or created by staff).
   */
  ai_use: AiUse | null;
  /**
   * Issue 37: the track this one is a new version of (null: none), its number in the line, and every
   * version of the line (ids, upload dates, outcomes), the original first; empty outside a line.
   */
  version_of: number | null;
  version_number: number;
  versions: VersionView[];
}

export interface DuplicateOfView {
  id: number;
  username: string | null;
  /** ISO 8601. */
  upload_date: string | null;
  deleted: boolean;
}

export interface SameAudioView {
  track_id: number;
  username: string | null;
  /** ISO 8601. */
  upload_date: string | null;
}

/** The track detail: a track, every change of its decisions, oldest first, and who listened how long. */
export interface TrackDetailView extends TrackView {
  decision_history: DecisionHistoryEntry[];
  /** Each staff member's played time (issue 20), the most heard first. */
  listens: ListenView[];
}

export function displayName(u: { username: string; first_name: string | null; last_name: string | null }) {
  const full = [u.first_name, u.last_name].filter((s) => s && s.trim()).join(" ").trim();
  return full || u.username;
}

const originals = alias(tracks, "originals");
const originalOwners = alias(users, "original_owners");

/**
 * The track this one copies (decision 0206): its id, and its owner and upload date while it exists.
 * Null for nearly every row, so the lists pay nothing for it.
 */
const duplicateJsonField =
  sql`'dup_id', ${tracks.duplicate_of}, 'dup', CASE WHEN ${tracks.duplicate_of} IS NULL THEN NULL
  ELSE json((SELECT json_object('username', coalesce(${originalOwners.username}, ${originals.guest_username}),
    'upload_date', ${originals.upload_date})
  FROM ${tracks} AS "originals" LEFT JOIN ${users} AS "original_owners" ON ${originalOwners.id} = ${originals.user_id}
  WHERE ${originals.id} = ${tracks.duplicate_of})) END`;

/** The track whose audio this one's is (decision 0248), read as `duplicateJsonField`. */
const sameAudioJsonField =
  sql`'same_id', ${tracks.same_audio_as}, 'same', CASE WHEN ${tracks.same_audio_as} IS NULL THEN NULL
  ELSE json((SELECT json_object('username', coalesce(${originalOwners.username}, ${originals.guest_username}),
    'upload_date', ${originals.upload_date})
  FROM ${tracks} AS "originals" LEFT JOIN ${users} AS "original_owners" ON ${originalOwners.id} = ${originals.user_id}
  WHERE ${originals.id} = ${tracks.same_audio_as})) END`;

/**
 * One JSON object per row, built by SQLite: with thousands of rows this is several times faster
 * than materialising fifteen columns per row in the driver and the ORM.
 */
export const rowJson = sql<string>`json_object(
  'id', ${tracks.id}, 'filename', ${tracks.filename}, 'user_id', ${tracks.user_id},
  'guest_username', ${tracks.guest_username}, 'upload_date', ${tracks.upload_date},
  'directions', ${tracks.directions}, 'downloaded', ${tracks.downloaded}, 'status', ${tracks.status},
  'size', ${tracks.size}, 'duration', ${tracks.duration}, 'has_file', ${tracks.storage_key} IS NOT NULL,
  'u_id', ${users.id}, 'u_username', ${users.username}, 'u_first', ${users.first_name}, 'u_last', ${users.last_name},
  'ai_use', ${tracks.ai_use}, ${analysisJsonFields}, ${decisionsJsonField}, ${duplicateJsonField}, ${sameAudioJsonField},
  'similar_id', ${tracks.similar_to_track_id},
  ${votesJsonField}, ${assignmentsJsonField})`;

/** Queries selecting `rowJson` join the users and the audio report. */
interface JsonRow extends AnalysisJson {
  id: number;
  filename: string;
  user_id: number | null;
  guest_username: string | null;
  upload_date: number;
  directions: string;
  downloaded: number;
  status: Track["status"];
  size: number | null;
  duration: number | null;
  has_file: number;
  u_id: number | null;
  u_username: string | null;
  u_first: string | null;
  u_last: string | null;
  decisions: DecisionJson[] | null;
  dup_id: number | null;
  dup: { username: string | null; upload_date: number } | null;
  same_id: number | null;
  same: { username: string | null; upload_date: number } | null;
  similar_id: number | null;
  asg: unknown;
  votes: VoteJson[] | null;
  ai_use: AiUse | null;
}

/** A row of the artist's own list as `ownedByQuery` builds it. */

interface ViewFor {
  scope: Scope;
  now: Date;
  /** Each direction's response promise in days (issue 25). */
  promise: Readonly<Record<Direction, number>>;
  /** Whose votes are whose (decision 0229); left out for internal reads: counts only. */
  voter?: Voter;
}

function fromJson(text: string, viewFor: ViewFor): TrackView {
  const r = JSON.parse(text) as JsonRow;
  const upload_date = new Date(r.upload_date).toISOString();
  const basis = { uploadMs: r.upload_date, days: viewFor.promise, now: viewFor.now };
  const decisions = decisionViews(r.directions, r.decisions, displayName, r.status === "failed" ? undefined : basis);
  const waiting = awaitsCaller(r.status, decisions, (d) => inScope(d, viewFor.scope));
  return {
    id: r.id,
    filename: r.filename,
    user_id: r.user_id,
    guest_username: r.guest_username,
    user_info: r.u_id !== null && r.u_username !== null
      ? {
        id: r.u_id,
        username: r.u_username,
        name: displayName({ username: r.u_username, first_name: r.u_first, last_name: r.u_last }),
      }
      : null,
    upload_date,
    directions: formatDirections(parseDirections(r.directions)),
    downloaded: Boolean(r.downloaded),
    status: r.status,
    size: r.size,
    duration: r.duration,
    has_file: Boolean(r.has_file),
    analysis: analysisFromJson(r),
    decisions,
    waiting_days: waiting ? daysSince(upload_date, viewFor.now) : null,
    overdue: waiting && decisions.some((d) => d.overdue && inScope(d.direction, viewFor.scope)),
    duplicate_of: r.dup_id === null ? null : {
      id: r.dup_id,
      username: r.dup?.username ?? null,
      upload_date: r.dup ? new Date(r.dup.upload_date).toISOString() : null,
      deleted: r.dup === null,
    },
    same_audio_as: r.same_id === null ? null : {
      track_id: r.same_id,
      username: r.same?.username ?? null,
      upload_date: r.same ? new Date(r.same.upload_date).toISOString() : null,
    },
    similar_to_track_id: r.similar_id ?? null,
    assignee: assigneeFromJson(r.asg, r.directions, viewFor.scope, displayName),
    ...voteViews(r.directions, decisions, r.votes, viewFor.scope, viewFor.voter, displayName),
    ai_use: r.ai_use ?? null,
    version_of: null,
    version_number: 1,
    versions: [],
  };
}

/** The views with their version lines filled in (issue 37): one read for the page. */
async function withVersions<T extends TrackView>(db: Db, views: T[]): Promise<T[]> {
  const lines = await versionsOf(db, views.map((v) => v.id), false);
  for (const v of views) {
    const line = lines.get(v.id);
    if (line) Object.assign(v, { version_of: line.version_of, version_number: line.number, versions: line.versions });
  }
  return views;
}

const userSortKey = sql`coalesce(${users.username}, ${tracks.guest_username}, '')`;

function orderBy(field: SortField, descending: boolean): SQL[] {
  const dir = descending ? desc : asc;
  switch (field) {
    case "filename":
      return [dir(tracks.filename), dir(tracks.id)];
    case "user":
      return [dir(userSortKey), dir(tracks.id)];
    case "downloaded":
      return [dir(tracks.downloaded), desc(tracks.upload_date), desc(tracks.id)];
    case "id":
      return [dir(tracks.id)];
    case "duration":
    case "bitrate":
    case "loudness":
    case "bpm":
    case "drop":
    case "key":
      return analysisOrder(field, descending);
    default:
      return [dir(tracks.upload_date), dir(tracks.id)];
  }
}

/** The directions a review or votes filter looks at: `direction` when given, else the scope's. */
const filterWithin = (q: TrackListQuery, scope: Scope) =>
  q.direction ? [q.direction] : scope === "*" ? "*" as const : scopeDirections(scope);

/**
 * SQL: a pair among `within` is past its direction's promise (upload date + promise_days, to the
 * millisecond) and still awaits a decision, new or listened; failed uploads never (issue 25, 0228).
 */
export function overdueSql(
  within: readonly Direction[] | "*",
  promise: Readonly<Record<Direction, number>>,
  now: Date,
): SQL {
  const list = within === "*" ? DIRECTIONS : within;
  // Not a bare `0`: in an ORDER BY an integer is a column's position.
  if (list.length === 0) return sql`(1 = 0)`;
  const pair = (d: Direction) => pairPastSql(d, promise[d], now);
  // The shortest promise bounds them all: a range the upload-date index can read.
  const shortest = Math.min(...list.map((d) => promise[d]));
  return sql`(${uploadedPastSql(shortest, now)} AND (${sql.join(list.map(pair), sql` OR `)}))`;
}

function filterSql(
  q: TrackListQuery,
  scope: Scope,
  voter: Voter | undefined,
  now: Date,
  promise: Readonly<Record<Direction, number>>,
): SQL | undefined {
  const conds: SQL[] = [];
  // «Мне назначено» (issue 24): a pair of the track is assigned to the caller.
  if (q.assigned === "me") conds.push(voter === undefined ? sql`0` : assignedToSql(voter.id));
  if (q.filename) conds.push(containsSql(tracks.filename, q.filename));
  if (q.user) {
    const name = sql`coalesce(${users.first_name}, '') || ' ' || coalesce(${users.last_name}, '')`;
    conds.push(
      sql`(${containsSql(sql`coalesce(${users.username}, '')`, q.user)} OR ${
        containsSql(sql`coalesce(${tracks.guest_username}, '')`, q.user)
      } OR ${containsSql(name, q.user)})`,
    );
  }
  if (q.date !== undefined) {
    const start = q.date - q.tz_offset * 60_000;
    conds.push(sql`${tracks.upload_date} >= ${start} AND ${tracks.upload_date} < ${start + 86_400_000}`);
  }
  if (q.direction) conds.push(sql`instr(',' || ${tracks.directions} || ',', ${"," + q.direction + ","}) > 0`);
  if (q.downloaded !== undefined) conds.push(eq(tracks.downloaded, q.downloaded));
  if (q.warning) conds.push(warningSql(q.warning));
  if (q.review) {
    const within = q.direction ? [q.direction] : scope === "*" ? "*" : scopeDirections(scope);
    // `awaiting`: a pair still waits for a decision, new or listened (issue 23; isAwaitingDecision).
    // `overdue`: a pair awaiting past its direction's promise (issue 25, to the millisecond),
    // failed uploads left out: the dashboards' overdue count (review-queue.ts; 0228).
    const awaiting = sql`(${reviewFilterSql("new", within)} OR ${reviewFilterSql("listened", within)})`;
    conds.push(
      q.review === "awaiting"
        ? awaiting
        : q.review === "overdue"
        ? overdueSql(within, promise, now)
        : reviewFilterSql(q.review, within),
    );
  }
  if (q.votes) conds.push(voteFilterSql(q.votes, voter, filterWithin(q, scope)));
  // The AI question's answer (issue 25); `none`: tracks without one.
  if (q.ai_use) conds.push(q.ai_use === "none" ? sql`${tracks.ai_use} IS NULL` : eq(tracks.ai_use, q.ai_use));
  return conds.length ? and(...conds) : undefined;
}

export interface TrackList {
  tracks: TrackView[];
  /** Tracks visible to the caller. */
  total: number;
  /** Of those, matching the filters. */
  filtered: number;
  page: number;
  pages: number;
  page_size: number | null;
}

/** Who asks, as far as seeing tracks goes. */
export type Viewer = Pick<User, "id" | "is_admin" | "is_moderator" | "moderator_categories">;

/** A staff caller: the signed-in user (their current scope is derived here) or a scope itself. */
export type StaffCaller = Scope | Pick<User, "is_admin" | "is_moderator" | "moderator_categories"> & { id?: number };

export const scopeFor = (who: StaffCaller): Scope =>
  typeof who === "string" || Array.isArray(who) ? who as Scope : scopeOf(who as Viewer);

/** The caller as a voter (decision 0229); a bare scope has none. */
export const voterFor = (who: StaffCaller): Voter | undefined => {
  if (typeof who === "string" || Array.isArray(who)) return undefined;
  const u = who as { id?: number; is_admin: boolean };
  return u.id === undefined ? undefined : { id: u.id, is_admin: u.is_admin };
};

/**
 * A track seen with `scope` (404 outside it); `waitingFor` is whose waiting it reports, the same
 * scope unless a write answers with a track that may have just left the caller's sight.
 */
export async function viewTrack(
  db: Db,
  clock: Clock,
  scope: Scope,
  id: number,
  waitingFor: Scope = scope,
  voter?: Voter,
): Promise<TrackView> {
  const [row] = await db
    .select({ j: rowJson })
    .from(tracks)
    .leftJoin(users, eq(users.id, tracks.user_id))
    .leftJoin(trackAnalysis, analysisJoin)
    .where(and(eq(tracks.id, id), scopeSql(scope)))
    .limit(1);
  if (!row) throw notFound(TRACK_NOT_FOUND);
  const [view] = await withVersions(db, [
    fromJson(row.j, { scope: waitingFor, now: clock.now(), voter, promise: await promiseDays(db) }),
  ]);
  return view;
}

/** The staff list: filtered, sorted and (when asked) paged; one count query and one page query. */
export async function listTracks(
  db: Db,
  clock: Clock,
  scope: Scope,
  q: TrackListQuery,
  voter?: Voter,
): Promise<TrackList> {
  const visible = scopeSql(scope);
  const now = clock.now();
  const promise = await promiseDays(db);
  const filters = filterSql(q, scope, voter, now, promise);
  const sortField = q.sort?.field ?? "upload_date";
  const descending = q.sort?.desc ?? (q.order ? q.order === "desc" : sortField === "upload_date" || sortField === "id");
  // The queue's default order (newest first, the desk's too) puts the tracks with a pair of the
  // caller's past its promise and undecided first (issue 25, docs/decisions/0239). Read as two
  // ranges of the upload-date order, the overdue ones then the others, each walking the index as
  // the plain order does, rather than one ORDER BY an expression, which sorts every visible row.
  const overdue = sortField === "upload_date" && descending ? overdueSql(filterWithin(q, scope), promise, now) : null;
  let countQuery = db
    .select({
      total: sql<number>`count(*)`,
      filtered: filters ? sql<number>`coalesce(sum(case when ${filters} then 1 else 0 end), 0)` : sql<number>`count(*)`,
    })
    .from(tracks)
    .leftJoin(users, eq(users.id, tracks.user_id))
    .$dynamic();
  // The report is joined only when a filter reads it: the counts run on every list call.
  if (q.warning) countQuery = countQuery.leftJoin(trackAnalysis, analysisJoin);
  const [counts] = await countQuery.where(visible);
  const total = Number(counts?.total ?? 0);
  const filtered = Number(counts?.filtered ?? 0);
  const paged = q.page !== undefined || q.page_size !== undefined;
  const pageSize = paged ? q.page_size ?? PAGE_SIZES[0] : null;
  const pages = pageSize ? Math.max(1, Math.ceil(filtered / pageSize)) : 1;
  const page = Math.min(q.page ?? 1, pages);
  const viewFor = { scope, now, voter, promise };
  const countWhere = async (where: SQL | undefined) => {
    let cq = db.select({ n: sql<number>`count(*)` }).from(tracks).leftJoin(users, eq(users.id, tracks.user_id))
      .$dynamic();
    if (q.warning) cq = cq.leftJoin(trackAnalysis, analysisJoin);
    const [row] = await cq.where(where);
    return Number(row?.n ?? 0);
  };
  const answer = async (rows: { j: string }[]) => ({
    tracks: await withVersions(db, rows.map((r) => fromJson(r.j, viewFor))),
    total,
    filtered,
    page,
    pages,
    page_size: pageSize,
  });
  if (overdue) {
    const offset = pageSize ? (page - 1) * pageSize : 0;
    const range = (cond: SQL, skip: number, take: number | null) => {
      let rq = db.select({ j: rowJson }).from(tracks)
        .leftJoin(users, eq(users.id, tracks.user_id))
        .leftJoin(trackAnalysis, analysisJoin)
        .where(and(visible, filters, cond))
        .orderBy(...orderBy("upload_date", true))
        .$dynamic();
      if (take !== null) rq = rq.limit(take).offset(skip);
      return rq;
    };
    // How many are overdue is where the others start. The first page (the desk's) does not count
    // them unless it reaches past them; a later page counts them first, so it never walks a long
    // overdue range only to find it has gone past its end.
    let first = offset > 0 ? await countWhere(and(visible, filters, overdue)) : null;
    const late = first === null || offset < first ? await range(overdue, offset, pageSize) : [];
    if (pageSize === null) return answer([...late, ...await range(sql`NOT ${overdue}`, 0, null)]);
    if (late.length === pageSize) return answer(late);
    first ??= late.length > 0 ? offset + late.length : await countWhere(and(visible, filters, overdue));
    return answer([...late, ...await range(sql`NOT ${overdue}`, Math.max(0, offset - first), pageSize - late.length)]);
  }
  let query = db
    .select({ j: rowJson })
    .from(tracks)
    .leftJoin(users, eq(users.id, tracks.user_id))
    .leftJoin(trackAnalysis, analysisJoin)
    .where(and(visible, filters))
    .$dynamic();
  if (sortField === "score") {
    // The score the caller sees (decision 0230), summed over the votes table alone and joined once;
    // tracks without a seen vote come last either way, then the newest first.
    const scores = visibleScores(db, voter ?? { id: 0, is_admin: false }, filterWithin(q, scope));
    const dir = descending ? desc : asc;
    query = query.leftJoin(scores, eq(scores.track_id, tracks.id))
      .orderBy(
        sql`${scores.score} IS NULL`,
        dir(scores.score),
        dir(scores.n),
        desc(tracks.upload_date),
        desc(tracks.id),
      );
  } else {
    query = query.orderBy(...orderBy(sortField, descending));
  }
  if (pageSize) query = query.limit(pageSize).offset((page - 1) * pageSize);
  return answer(await query);
}

import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, notExists, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import {
  type Direction,
  DIRECTION_CONFLICT_MESSAGE,
  DIRECTIONS,
  findConflict,
  formatDirections,
  isDirection,
  parseDirections,
} from "../../domain/directions.ts";
import { type NewTrack, type Track, trackAnalysis, tracks, type User, users } from "../../db/schema.ts";
import type { AppContext } from "../deps.ts";
import { badRequest, conflict, forbidden, notFound } from "../lib/http-error.ts";
import { KV_KEYS } from "../lib/kv.ts";
import { inScope, maySeeTrack, type Scope, scopeDirections, scopeOf } from "../../domain/scope.ts";
import { scopeSql } from "./scope.ts";
import { hasHiddenChars, HIDDEN_CHARS_MESSAGE } from "../../domain/hidden-chars.ts";
import { INVALID_NAME_RECORD } from "../../domain/track-name.ts";
import { containsSql } from "../lib/search.ts";
import {
  type AnalysisJson,
  analysisFromJson,
  analysisJoin,
  analysisJsonFields,
  analysisOrder,
  ARTIST_ANALYSIS_COLUMNS,
  artistAnalysis,
  createTrackAnalysisService,
  type TrackAnalysisView,
  WARNING_CODES,
  warningSql,
} from "./analysis.ts";
import type { AudioWarning } from "../../domain/audio-warnings.ts";
import { type Answer, SHARED_ANSWER_TTL_MS } from "../lib/public-answer.ts";
import { OWNED_ANSWERS_MAX, ownedAnswers } from "./owned-answers.ts";
import { addPlayed, listensOf, type ListenView, openListen, trackDuration } from "./listening.ts";
import { isHeard } from "../../domain/listening.ts";
import {
  artistReviewStatus,
  type DecisionInput,
  daysSince,
  isOverdue,
  isReviewStatus,
  REVIEW_TEXTS,
  type ReviewStatus,
} from "../../domain/review.ts";
import {
  type ArtistDecisionView,
  artistDecisionsJson,
  artistDecisionViews,
  awaitsCaller,
  changeStatements,
  type DecisionHistoryEntry,
  type DecisionJson,
  decisionHistory,
  decisionsJsonField,
  type DecisionView,
  decisionViews,
  isConcurrentChange,
  type PairChange,
  reviewFilterSql,
  storedPairs,
  syncReviewStatement,
} from "./decisions.ts";
import { decisionChangeKey, type DecisionNotice } from "../notifications/outbox.ts";
import type { Notifications } from "../notifications/notifications.ts";
import {
  createStatusKeys,
  STATUS_COLUMNS,
  type StatusRow,
  statusValue,
  type TrackStatusValue,
} from "./processing/status-keys.ts";

/**
 * The one way to read and write `tracks` rows (docs/decisions/0120-service-boundaries.md): the
 * admin and moderator screens (issues 6 and 7), the artist's calls, uploads, downloads and the
 * processing jobs. Who may see a track is decided here, never by a handler: the staff calls take
 * the signed-in user (or a scope) and see their scope only, the status call takes the user and
 * applies `maySeeTrack`; a track outside one's sight does not exist for the caller (404).
 */

export const TRACK_NOT_FOUND = "Трек не найден";
export const TRACK_FILE_NOT_FOUND = "Файл трека не найден";
export const NO_FILES_FOUND = "Ни у одного из выбранных треков нет файла";
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const SORT_FIELDS = [
  "upload_date",
  "filename",
  "user",
  "downloaded",
  "id",
  // From the audio report (issue 12); tracks without one come last.
  "duration",
  "bitrate",
  "loudness",
  "bpm",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

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
  /** Waiting more than 14 days (decision 0152). */
  overdue: boolean;
  /**
   * Staff only, never in an artist's answer (issue 20, decision 0206): the earlier completed track
   * of another person with the very same bytes. `username` is that track's owner (or guest name)
   * and `upload_date` its upload, both null once that track is deleted (`deleted`).
   */
  duplicate_of: DuplicateOfView | null;
}

export interface DuplicateOfView {
  id: number;
  username: string | null;
  /** ISO 8601. */
  upload_date: string | null;
  deleted: boolean;
}

/** The track detail: a track, every change of its decisions, oldest first, and who listened how long. */
export interface TrackDetailView extends TrackView {
  decision_history: DecisionHistoryEntry[];
  /** Each staff member's played time (issue 20), the most heard first. */
  listens: ListenView[];
}

// ---------------------------------------------------------------------------------------------
// Input schemas (shared with the moderator routes)

const MAX_SEARCH = 200;

const searchText = z
  .string()
  .max(MAX_SEARCH, "Слишком длинный поисковый запрос")
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const dateOnly = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
    const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
    if (!m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) {
      ctx.addIssue({ code: "custom", message: "Некорректная дата: ожидается ГГГГ-ММ-ДД" });
      return z.NEVER;
    }
    return ms;
  });

const boolQuery = (message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim().toLowerCase();
      if (s === undefined || s === "" || s === "all") return undefined;
      if (s === "true" || s === "1" || s === "downloaded") return true;
      if (s === "false" || s === "0" || s === "not_downloaded") return false;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });

const positiveIntQuery = (message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      if (!/^\d{1,9}$/.test(v.trim()) || Number(v) < 1) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return Number(v);
    });

/** Minutes east of UTC of the viewer (Moscow = 180), i.e. `-new Date().getTimezoneOffset()`. */
export const tzOffsetQuery = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return 0;
    if (!/^-?\d{1,3}$/.test(v.trim()) || Math.abs(Number(v)) > 14 * 60) {
      ctx.addIssue({ code: "custom", message: "Некорректный часовой пояс" });
      return z.NEVER;
    }
    return Number(v);
  });

export const trackListQuerySchema = z.object({
  filename: searchText,
  user: searchText,
  date: dateOnly,
  direction: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (!isDirection(v)) {
        ctx.addIssue({ code: "custom", message: "Неизвестное направление" });
        return z.NEVER;
      }
      return v;
    }),
  downloaded: boolQuery("Некорректное значение фильтра статуса"),
  /** A warning code (domain/audio-warnings.ts), or `any` for tracks with at least one warning. */
  warning: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (v !== "any" && !(WARNING_CODES as string[]).includes(v)) {
        ctx.addIssue({ code: "custom", message: "Неизвестное предупреждение" });
        return z.NEVER;
      }
      return v as AudioWarning | "any";
    }),
  /**
   * A review state (issue 13): tracks with a direction in that state, within `direction` when it
   * is given, else within the caller's scope. `all` or empty means no filter.
   */
  review: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "all") return undefined;
      if (!isReviewStatus(v)) {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.unknownReviewFilter });
        return z.NEVER;
      }
      return v;
    }),
  /** `upload_date`, `-upload_date`, `filename`, ... (a leading minus sorts descending). */
  sort: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      const field = v.replace(/^[-+]/, "");
      if (!(SORT_FIELDS as readonly string[]).includes(field)) {
        ctx.addIssue({ code: "custom", message: "Некорректное поле сортировки" });
        return z.NEVER;
      }
      return { field: field as SortField, desc: v.startsWith("-") ? true : undefined };
    }),
  order: z
    .enum(["asc", "desc"], { message: "Некорректный порядок сортировки" })
    .optional(),
  page: positiveIntQuery("Некорректный номер страницы"),
  page_size: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      const n = Number(v);
      if (!(PAGE_SIZES as readonly number[]).includes(n)) {
        ctx.addIssue({ code: "custom", message: "Размер страницы: 10, 25, 50 или 100" });
        return z.NEVER;
      }
      return n;
    }),
  tz_offset: tzOffsetQuery,
});

export type TrackListQuery = z.output<typeof trackListQuerySchema>;

/** Directions as a comma string (or an array) of known codes; conflicts are refused. */
export const directionsInput = z
  .union([z.string().max(500), z.array(z.string().max(100)).max(20), z.null()])
  .transform((v, ctx) => {
    const list = (Array.isArray(v) ? v : (v ?? "").split(",")).map((s) => s.trim()).filter(Boolean);
    const unknown = list.find((s) => !isDirection(s));
    if (unknown !== undefined) {
      ctx.addIssue({ code: "custom", message: "Неизвестное направление" });
      return z.NEVER;
    }
    return parseDirections(list.join(","));
  });

const boolBody = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]), z.literal(1), z.literal(0)])
  .transform((v) => v === true || v === "true" || v === "1" || v === 1);

const userIdInput = z
  .union([z.number(), z.string().max(20), z.null()])
  .transform((v, ctx) => {
    if (v === null || (typeof v === "string" && v.trim() === "")) return null;
    const n = typeof v === "number" ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) {
      ctx.addIssue({ code: "custom", message: "ID пользователя должен быть числом" });
      return z.NEVER;
    }
    return n;
  });

const optionalText = (max: number, message: string) =>
  z
    .union([z.string().max(max, message), z.null()])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === "" ? null : v.trim()))
    .refine((v) => !v || !hasHiddenChars(v), HIDDEN_CHARS_MESSAGE);

const dateTimeInput = z
  .union([z.string().max(40), z.number(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === "") return undefined;
    const d = new Date(v);
    if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1970 || d.getUTCFullYear() > 9999) {
      ctx.addIssue({ code: "custom", message: "Некорректная дата загрузки" });
      return z.NEVER;
    }
    return d;
  });

/** The admin form (spec 2 §7: filename, user_id, guest_username, upload_date, directions, downloaded). */
export const trackInputSchema = z.object({
  filename: z
    .string({ message: "Имя файла обязательно" })
    .trim()
    .min(1, "Имя файла обязательно")
    .max(255, "Имя файла слишком длинное")
    // The upload name rule's word for a name that hides or turns text around (issue 20).
    .refine((v) => !hasHiddenChars(v), INVALID_NAME_RECORD),
  user_id: userIdInput.optional(),
  guest_username: optionalText(100, "Имя гостя слишком длинное"),
  upload_date: dateTimeInput,
  directions: directionsInput.optional(),
  downloaded: boolBody.optional(),
});

/** An update: the same payload, but filename and upload date of an existing track stay as they are. */
export const trackUpdateSchema = trackInputSchema.extend({
  filename: z.string().max(1000).optional(),
});

/** What a moderator may change (issue 7). */
export const trackModerationSchema = z.object({
  directions: directionsInput.optional(),
  downloaded: boolBody.optional(),
});

export type TrackInput = z.output<typeof trackInputSchema>;
export type TrackUpdate = z.output<typeof trackUpdateSchema>;
export type TrackModeration = z.output<typeof trackModerationSchema>;

// ---------------------------------------------------------------------------------------------

const MAX_DOWNLOAD = 500;

function checkConflicts(list: readonly Direction[]) {
  if (findConflict(list)) throw badRequest(DIRECTION_CONFLICT_MESSAGE);
}

function displayName(u: { username: string; first_name: string | null; last_name: string | null }) {
  const full = [u.first_name, u.last_name].filter((s) => s && s.trim()).join(" ").trim();
  return full || u.username;
}

/** What the write paths need of the current track. */
const currentFields = {
  id: tracks.id,
  user_id: tracks.user_id,
  directions: tracks.directions,
  storage_key: tracks.storage_key,
  filename: tracks.filename,
};
type Current = { id: number; user_id: number | null; directions: string; storage_key: string | null; filename: string };

const originals = alias(tracks, "originals");
const originalOwners = alias(users, "original_owners");

/**
 * The track this one copies (decision 0206): its id, and its owner and upload date while it exists.
 * Null for nearly every row, so the lists pay nothing for it.
 */
const duplicateJsonField = sql`'dup_id', ${tracks.duplicate_of}, 'dup', CASE WHEN ${tracks.duplicate_of} IS NULL THEN NULL
  ELSE json((SELECT json_object('username', coalesce(${originalOwners.username}, ${originals.guest_username}),
    'upload_date', ${originals.upload_date})
  FROM ${tracks} AS "originals" LEFT JOIN ${users} AS "original_owners" ON ${originalOwners.id} = ${originals.user_id}
  WHERE ${originals.id} = ${tracks.duplicate_of})) END`;

/**
 * One JSON object per row, built by SQLite: with thousands of rows this is several times faster
 * than materialising fifteen columns per row in the driver and the ORM.
 */
const rowJson = sql<string>`json_object(
  'id', ${tracks.id}, 'filename', ${tracks.filename}, 'user_id', ${tracks.user_id},
  'guest_username', ${tracks.guest_username}, 'upload_date', ${tracks.upload_date},
  'directions', ${tracks.directions}, 'downloaded', ${tracks.downloaded}, 'status', ${tracks.status},
  'size', ${tracks.size}, 'duration', ${tracks.duration}, 'has_file', ${tracks.storage_key} IS NOT NULL,
  'u_id', ${users.id}, 'u_username', ${users.username}, 'u_first', ${users.first_name}, 'u_last', ${users.last_name},
  ${analysisJsonFields}, ${decisionsJsonField}, ${duplicateJsonField})`;

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
}

/** A row of the artist's own list as `ownedByQuery` builds it. */
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
  d_json: Pick<DecisionJson, "direction" | "status" | "message">[] | null;
}

/** A track of the artist's own list (GET /api/tracks). */
export interface OwnedTrack {
  id: number;
  filename: string;
  upload_date: Date;
  downloaded: boolean;
  analysis: ReturnType<typeof artistAnalysis>;
  decisions: ArtistDecisionView[];
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
  /** One per direction; empty for a failed upload, which was never reviewed. */
  decisions: ArtistDecisionView[];
}

export interface ArtistHistory {
  tracks: ArtistHistoryItem[];
  total: number;
  page: number;
  pages: number;
  page_size: number;
}

/** Whose waiting a track object reports, and when it is (decision 0152). */
interface ViewFor {
  scope: Scope;
  now: Date;
}

function fromJson(text: string, viewFor: ViewFor): TrackView {
  const r = JSON.parse(text) as JsonRow;
  const upload_date = new Date(r.upload_date).toISOString();
  const decisions = decisionViews(r.directions, r.decisions, displayName);
  const waiting = awaitsCaller(r.status, decisions, (d) => inScope(d, viewFor.scope));
  return {
    id: r.id,
    filename: r.filename,
    user_id: r.user_id,
    guest_username: r.guest_username,
    user_info: r.u_id !== null && r.u_username !== null
      ? { id: r.u_id, username: r.u_username, name: displayName({ username: r.u_username, first_name: r.u_first, last_name: r.u_last }) }
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
    overdue: waiting && isOverdue(upload_date, viewFor.now),
    duplicate_of: r.dup_id === null ? null : {
      id: r.dup_id,
      username: r.dup?.username ?? null,
      upload_date: r.dup ? new Date(r.dup.upload_date).toISOString() : null,
      deleted: r.dup === null,
    },
  };
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
      return analysisOrder(field, descending);
    default:
      return [dir(tracks.upload_date), dir(tracks.id)];
  }
}

function filterSql(q: TrackListQuery, scope: Scope): SQL | undefined {
  const conds: SQL[] = [];
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
    conds.push(reviewFilterSql(q.review, q.direction ? [q.direction] : scope === "*" ? "*" : scopeDirections(scope)));
  }
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
export type StaffCaller = Scope | Pick<User, "is_admin" | "is_moderator" | "moderator_categories">;

const scopeFor = (who: StaffCaller): Scope => typeof who === "string" || Array.isArray(who) ? who as Scope : scopeOf(who as Viewer);

/** What the processing job records when a file passes: its facts, whatever the analysis adds. */
export type CompletedFacts = Omit<Partial<NewTrack>, "id" | "status" | "error"> & { checksum: string };

/** What it records when a file fails. */
export interface FailedFacts {
  error: string;
  /** The content itself is unusable: the stored file is dropped from the row (the job deletes it). */
  discard: boolean;
  size?: number;
  checksum?: string;
}

const otherTracks = alias(tracks, "other_tracks");

/** A track the processing has still to judge: `processing`, with a stored file. */
const pendingSql = and(eq(tracks.status, "processing"), isNotNull(tracks.storage_key));
/** Nobody holds its processing lease, or the holder's lease ended by `now` (docs/decisions/0170). */
const claimableSql = (now: Date) => or(isNull(tracks.lease_owner), isNull(tracks.lease_until), lte(tracks.lease_until, now));

/** The hour MAX_UPLOADS_PER_HOUR counts over, sliding (docs/decisions/0196). */
const UPLOAD_WINDOW_MS = 3_600_000;

/** Times a decision is computed again after another change of the same pair got in first. */
const DECISION_ATTEMPTS = 3;

export function createTracksService(
  ctx: Pick<AppContext, "db" | "storage" | "kv" | "clock" | "logger" | "users"> & {
    /**
     * The outbox insert joins a decision's batch, so the artist's message exists exactly when the
     * change does; the sender is nudged after the commit and never awaited (decision 0157).
     */
    notifications?: Pick<Notifications, "outbox" | "sender">;
  },
) {
  const { db } = ctx;
  /**
   * GET /api/tracks, polled by the artist's pages: prepared once, one JSON object per row built by
   * SQLite (issue 15: building the query and materialising nine columns per row in the driver and
   * the ORM was most of the call).
   */
  const ownedByQuery = db
    .select({
      row: sql<string>`json_object('id', ${tracks.id}, 'filename', ${tracks.filename}, 'upload_date', ${tracks.upload_date},
        'downloaded', ${tracks.downloaded}, 'a_ok', ${ARTIST_ANALYSIS_COLUMNS.a_ok}, 'a_dur', ${ARTIST_ANALYSIS_COLUMNS.a_dur},
        'a_kbps', ${ARTIST_ANALYSIS_COLUMNS.a_kbps}, 'a_warn', ${ARTIST_ANALYSIS_COLUMNS.a_warn}, 'd_dirs', ${tracks.directions},
        'd_status', ${tracks.status}, 'd_json', ${artistDecisionsJson})`,
    })
    .from(tracks)
    .leftJoin(trackAnalysis, analysisJoin)
    .where(and(eq(tracks.user_id, sql.placeholder("userId")), ne(tracks.status, "failed")))
    .orderBy(desc(tracks.upload_date), desc(tracks.id))
    .prepare();
  /** The status store's keys; the one instance of the app (its stale set must be shared). */
  const status = createStatusKeys(ctx);
  const reports = createTrackAnalysisService(ctx);

  /**
   * The artist's own list, serialised, kept ready per artist (GET /api/tracks; decision 0185). Every
   * write below that changes what an artist's list shows calls `owned.forget(owner)` once it is
   * committed: new and removed tracks, status, directions, downloaded, decisions and reports.
   * Other instances see a change within `SHARED_ANSWER_TTL_MS`.
   */
  const owned = ownedAnswers((userId) => ownedList(userId).then((tracks) => ({ success: true as const, tracks })), {
    ttlMs: SHARED_ANSWER_TTL_MS,
    max: OWNED_ANSWERS_MAX,
    now: () => ctx.clock.now().getTime(),
  });

  /** The owner of a track, to drop their kept list after a write that did not return it. */
  async function forgetOwnerOf(trackId: number) {
    const [row] = await db.select({ user_id: tracks.user_id }).from(tracks).where(eq(tracks.id, trackId)).limit(1);
    // A track deleted meanwhile is in no list any more.
    if (row) owned.forget(row.user_id);
  }

  /** The audio reports; a saved report (or its error) shows in the owner's list. */
  const analysis: typeof reports = {
    ...reports,
    async save(trackId, a) {
      try {
        await reports.save(trackId, a);
      } finally {
        await forgetOwnerOf(trackId);
      }
    },
    async saveError(trackId, error) {
      try {
        await reports.saveError(trackId, error);
      } finally {
        await forgetOwnerOf(trackId);
      }
    },
  };

  async function ownedList(userId: number): Promise<OwnedTrack[]> {
    // The artist sees the length, bitrate and warnings of their own tracks (issue 12), no more.
    return (await ownedByQuery.all({ userId })).map(({ row }) => {
      const r = JSON.parse(row) as OwnedRow;
      return {
        id: r.id,
        filename: r.filename,
        upload_date: new Date(r.upload_date),
        downloaded: Boolean(r.downloaded),
        analysis: artistAnalysis(r),
        decisions: artistDecisionViews(r.d_dirs, r.d_status, r.d_json),
      };
    });
  }

  async function load(who: StaffCaller, id: number): Promise<Current> {
    const rows = await db.select(currentFields).from(tracks).where(and(eq(tracks.id, id), scopeSql(scopeFor(who))))
      .limit(1);
    if (!rows[0]) throw notFound(TRACK_NOT_FOUND);
    return rows[0];
  }

  /**
   * A listening receipt (issue 20, decision 0197): the track's `new` directions within the
   * listener's scope move to `listened`, each with a history entry by the listener. It does not
   * wait on a conflict: a pair another listener moved meanwhile is simply no longer `new`.
   */
  async function markListened(who: Viewer, id: number): Promise<DecisionView[]> {
    const scope = scopeOf(who);
    const current = await load(scope, id);
    const mine = parseDirections(current.directions).filter((d) => inScope(d, scope));
    for (let attempt = 1; attempt <= DECISION_ATTEMPTS; attempt++) {
      const pairs = await storedPairs(db, id, mine);
      const at = ctx.clock.now();
      const statements: BatchItem<"sqlite">[] = [...pairs]
        .filter(([, before]) => before.status === "new")
        .flatMap(([direction, before]) =>
          changeStatements(db, {
            trackId: id,
            direction,
            before,
            after: { status: "listened" as ReviewStatus, note: before.note, message: before.message },
            by: who.id,
            at,
          })
        );
      const [first, ...rest] = statements;
      if (!first) break;
      try {
        await db.batch([first, ...rest, syncReviewStatement(db, id)]);
        break;
      } catch (err) {
        if (!isConcurrentChange(err)) throw err;
      } finally {
        owned.forget(current.user_id);
      }
    }
    return (await view("*", id, scope)).decisions;
  }

  /**
   * The artist is told when a pair becomes accepted or declined, or the decision carries a new
   * message (issue 13); never about a guest track.
   */
  function noticeOf(c: PairChange, track: Current): DecisionNotice | null {
    if (track.user_id === null) return null;
    const decided = c.after.status !== c.before.status && (c.after.status === "accepted" || c.after.status === "declined");
    const newMessage = c.after.message !== null && c.after.message !== c.before.message;
    if (!decided && !newMessage) return null;
    return {
      key: decisionChangeKey(c.trackId, c.direction, c.before.revision + 1),
      userId: track.user_id,
      trackName: track.filename.replace(/\.mp3$/i, ""),
      direction: c.direction,
      outcome: artistReviewStatus(c.after.status),
      message: c.after.message,
    };
  }

  /**
   * A track seen with `scope` (404 outside it); `waitingFor` is whose waiting it reports, the same
   * scope unless a write answers with a track that may have just left the caller's sight.
   */
  async function view(scope: Scope, id: number, waitingFor: Scope = scope): Promise<TrackView> {
    const [row] = await db
      .select({ j: rowJson })
      .from(tracks)
      .leftJoin(users, eq(users.id, tracks.user_id))
      .leftJoin(trackAnalysis, analysisJoin)
      .where(and(eq(tracks.id, id), scopeSql(scope)))
      .limit(1);
    if (!row) throw notFound(TRACK_NOT_FOUND);
    return fromJson(row.j, { scope: waitingFor, now: ctx.clock.now() });
  }

  async function statusRow(id: number): Promise<StatusRow | undefined> {
    return (await db.select(STATUS_COLUMNS).from(tracks).where(eq(tracks.id, id)).limit(1))[0];
  }

  /**
   * The status key carries the owner and the directions of the moment it was written, and the status
   * call trusts its owner for the polling; after a staff edit the database must answer instead, or a
   * former owner would keep reading a track handed to someone else.
   */
  async function forgetStatus(id: number) {
    await ctx.kv.del([KV_KEYS.trackStatus(id)]).catch(() => 0);
  }

  /** The rows of a download in the order asked, every one visible to the caller (else 404). */
  async function downloadRows(who: StaffCaller, ids: readonly number[]) {
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

  async function checkUser(userId: number | null | undefined) {
    if (userId === null || userId === undefined) return;
    if (!(await ctx.users.byId(userId))) throw badRequest("Пользователь с таким ID не найден");
  }

  /** Inserts an upload's rows (within `hourlyLimit` files over the last hour when given; null when refused). */
  async function insertUploads(
    userId: number,
    files: ReadonlyArray<{ key: string; filename: string; size: number }>,
    directions: readonly Direction[],
    hourlyLimit?: number,
  ): Promise<StatusRow[] | null> {
    const now = ctx.clock.now();
    const values = files.map((f) => ({
      user_id: userId,
      filename: f.filename,
      directions: formatDirections(directions),
      upload_date: now,
      storage_key: f.key,
      size: f.size,
      status: "processing" as const,
    }));
    let rows: StatusRow[];
    if (hourlyLimit === undefined) {
      rows = await db.insert(tracks).values(values).returning(STATUS_COLUMNS);
    } else {
      // INSERT … SELECT over the files as a JSON array, guarded by the count of the last hour.
      const since = now.getTime() - UPLOAD_WINDOW_MS;
      const list = JSON.stringify(files.map((f) => [f.filename, f.key, f.size]));
      const added = await db.all<{ id: number }>(sql`
        INSERT INTO ${tracks} (user_id, filename, directions, upload_date, storage_key, size, status)
        SELECT ${userId}, json_extract(f.value, '$[0]'), ${values[0]?.directions ?? ""}, ${now.getTime()},
               json_extract(f.value, '$[1]'), json_extract(f.value, '$[2]'), 'processing'
        FROM json_each(${list}) AS f
        WHERE (SELECT count(*) FROM ${tracks} WHERE user_id = ${userId} AND upload_date > ${since}) + ${files.length} <= ${hourlyLimit}
        ORDER BY f.key
        RETURNING id`);
      if (added.length === 0 && files.length > 0) return null;
      const ids = added.map((r) => Number(r.id));
      rows = ids.length ? await db.select(STATUS_COLUMNS).from(tracks).where(inArray(tracks.id, ids)) : [];
    }
    owned.forget(userId);
    rows.sort((a, b) => a.id - b.id);
    await status.startBatch(userId, rows);
    return rows;
  }

  return {
    /** The status keys (batch ids, statuses, error lines, success text) the processing page reads. */
    status,

    // --- The artist's side --------------------------------------------------------------------

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
      return owned.get(userId);
    },

    /**
     * GET /api/tracks/history (issue 13, decision 0154): every submission the user ever made, newest
     * first and paged, failed ones with their reason; per direction the state the artist sees and
     * the staff's message, never the note or who decided.
     */
    async historyOf(userId: number, q: { page: number; page_size: number }): Promise<ArtistHistory> {
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
          d_json: artistDecisionsJson,
        })
        .from(tracks)
        .leftJoin(trackAnalysis, analysisJoin)
        .where(eq(tracks.user_id, userId))
        .orderBy(desc(tracks.upload_date), desc(tracks.id))
        .limit(q.page_size)
        .offset((page - 1) * q.page_size);
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
          decisions: artistDecisionViews(t.directions, t.status, d_json),
        })),
        total,
        page,
        pages,
        page_size: q.page_size,
      };
    },

    async countOwnedBy(userId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(tracks).where(eq(tracks.user_id, userId));
      return row?.n ?? 0;
    },

    /**
     * The rows of one stored upload, in one statement (the batch appears together or not at all),
     * sorted by id, and the batch's status keys.
     */
    /**
     * The files `userId` uploaded over the last hour (MAX_UPLOADS_PER_HOUR, docs/decisions/0196),
     * and, when `more` files would take them past `limit`, the seconds until enough of them have
     * left the hour (0 when they fit).
     */
    async uploadQuota(userId: number, limit: number, more: number): Promise<{ used: number; retryAfterS: number }> {
      const now = ctx.clock.now().getTime();
      const since = new Date(now - UPLOAD_WINDOW_MS);
      const inWindow = and(eq(tracks.user_id, userId), gt(tracks.upload_date, since));
      const [{ used }] = await db.select({ used: count() }).from(tracks).where(inWindow);
      const leaving = used + more - limit;
      if (leaving <= 0) return { used, retryAfterS: 0 };
      // More than the limit in one request never fits: a full hour.
      if (leaving > used) return { used, retryAfterS: UPLOAD_WINDOW_MS / 1000 };
      const [oldest] = await db
        .select({ at: tracks.upload_date })
        .from(tracks)
        .where(inWindow)
        .orderBy(asc(tracks.upload_date), asc(tracks.id))
        .limit(1)
        .offset(leaving - 1);
      const freeAt = (oldest?.at.getTime() ?? now) + UPLOAD_WINDOW_MS;
      return { used, retryAfterS: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    },

    /** Adds the rows of an upload (the files are stored already), queued for processing. */
    async addUploads(
      userId: number,
      files: ReadonlyArray<{ key: string; filename: string; size: number }>,
      directions: readonly Direction[],
    ): Promise<StatusRow[]> {
      return (await insertUploads(userId, files, directions))!;
    },

    /**
     * `addUploads` within MAX_UPLOADS_PER_HOUR: one statement adds the rows only while the files
     * `userId` uploaded over the last hour, these included, stay within `hourlyLimit`, so two
     * requests at once (on two instances too) cannot both pass it. Null when refused.
     */
    async addUploadsWithin(
      hourlyLimit: number,
      userId: number,
      files: ReadonlyArray<{ key: string; filename: string; size: number }>,
      directions: readonly Direction[],
    ): Promise<StatusRow[] | null> {
      return await insertUploads(userId, files, directions, hourlyLimit);
    },

    // --- The processing job (leases: docs/decisions/0170) ---------------------------------------

    /**
     * Takes the processing lease of a track for `owner` until `until`. One statement, so of several
     * instances asking at once exactly one gets it. Taken only while the track is `processing` with a
     * stored file and nobody else holds it (no lease, or its lease has ended on the app clock); the
     * holder may take it again (a retry). The track's state when taken, else undefined.
     */
    async claim(id: number, owner: string, until: Date): Promise<{ attempts: number; storage_key: string } | undefined> {
      const now = ctx.clock.now();
      const [row] = await db
        .update(tracks)
        .set({ lease_owner: owner, lease_until: until })
        .where(and(eq(tracks.id, id), pendingSql, or(claimableSql(now), eq(tracks.lease_owner, owner))))
        .returning({ attempts: tracks.attempts, storage_key: tracks.storage_key });
      return row?.storage_key ? { attempts: row.attempts, storage_key: row.storage_key } : undefined;
    },

    /**
     * Takes the lease of the next track to process, fairly across artists (docs/decisions/0195), in
     * one statement, so of several instances asking at once each gets a different track. Of each
     * artist's free tracks only the oldest is a candidate; first the artist with the fewest tracks in
     * flight (held by any instance), then the one served least recently (the latest `processed_at`
     * of their tracks; never served first), then the oldest track. So one artist's batch never
     * takes a free slot while another artist's first track waits, on any instance. The track's
     * state when taken, else undefined (nothing free).
     */
    async claimNext(owner: string, until: Date): Promise<{ id: number; attempts: number; storage_key: string } | undefined> {
      const now = ctx.clock.now().getTime();
      const free = sql`status = 'processing' AND storage_key IS NOT NULL
        AND (lease_owner IS NULL OR lease_until IS NULL OR lease_until <= ${now})`;
      const [row] = await db.all<{ id: number; attempts: number; storage_key: string | null }>(sql`
        UPDATE ${tracks} SET lease_owner = ${owner}, lease_until = ${until.getTime()}
        WHERE id = (
          SELECT c.id FROM (SELECT min(id) AS id, user_id FROM ${tracks} WHERE ${free} GROUP BY user_id) AS c
          ORDER BY
            (SELECT count(*) FROM ${tracks} h WHERE h.user_id = c.user_id AND h.status = 'processing'
              AND h.lease_owner IS NOT NULL AND h.lease_until > ${now}),
            (SELECT max(d.processed_at) FROM ${tracks} d WHERE d.user_id = c.user_id),
            c.id
          LIMIT 1
        ) AND ${free}
        RETURNING id, attempts, storage_key`);
      return row?.storage_key ? { id: Number(row.id), attempts: Number(row.attempts), storage_key: row.storage_key } : undefined;
    },

    /**
     * Counts an attempt before the work starts, so a crash counts too. Only the lease holder counts;
     * false when `owner` no longer holds the track.
     */
    async countAttempt(id: number, attempts: number, owner: string): Promise<boolean> {
      const done = await db
        .update(tracks)
        .set({ attempts, updated_at: ctx.clock.now() })
        .where(and(eq(tracks.id, id), eq(tracks.status, "processing"), eq(tracks.lease_owner, owner)))
        .returning({ id: tracks.id });
      return done.length > 0;
    },

    /** Extends the leases `owner` still holds among `ids`; the ids it still holds. */
    async renewLeases(owner: string, ids: readonly number[], until: Date): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .update(tracks)
        .set({ lease_until: until })
        .where(and(inArray(tracks.id, [...ids]), eq(tracks.status, "processing"), eq(tracks.lease_owner, owner)))
        .returning({ id: tracks.id });
      return rows.map((r) => r.id);
    },

    /**
     * Gives up the leases `owner` holds (those of `ids`, or all), so any instance may take the
     * tracks at once. The number given up.
     */
    async releaseLeases(owner: string, ids?: readonly number[]): Promise<number> {
      if (ids && ids.length === 0) return 0;
      const rows = await db
        .update(tracks)
        .set({ lease_owner: null, lease_until: null })
        .where(and(eq(tracks.lease_owner, owner), ids ? inArray(tracks.id, [...ids]) : undefined))
        .returning({ id: tracks.id });
      return rows.length;
    },

    /**
     * Tracks waiting for processing that any instance may take (a stored file, no lease or an ended
     * one), oldest first, at most `limit`; and when the earliest lease still held ends (null when
     * none is held), so the sweep can look again then.
     */
    async pendingProcessing(limit: number): Promise<{ ids: number[]; nextExpiry: Date | null }> {
      const now = ctx.clock.now();
      const free = await db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(pendingSql, claimableSql(now)))
        .orderBy(asc(tracks.id))
        .limit(Math.max(0, Math.min(limit, 10_000)));
      const [held] = await db
        .select({ until: sql<number | null>`min(${tracks.lease_until})` })
        .from(tracks)
        .where(and(pendingSql, isNotNull(tracks.lease_owner), gt(tracks.lease_until, now)));
      return { ids: free.map((r) => r.id), nextExpiry: held?.until == null ? null : new Date(Number(held.until)) };
    },

    /**
     * Marks a track completed unless it left `processing` meanwhile (deleted, or ended), `owner` no
     * longer holds its lease (another instance took it over), or another completed track of the
     * same person has the same checksum. The same bytes from another person are accepted, and
     * `duplicate_of` names the earliest completed track holding them, for staff only (issue 20,
     * decision 0206). One statement: the duplicate check and the completion cannot interleave with
     * another job's, so two copies of one file in flight cannot both end `completed`. The row as its
     * status key shows it, or undefined when nothing was written.
     */
    async complete(id: number, facts: CompletedFacts, owner: string): Promise<StatusRow | undefined> {
      const now = ctx.clock.now();
      const sameBytes = and(
        eq(otherTracks.checksum, facts.checksum),
        ne(otherTracks.id, id),
        eq(otherTracks.status, "completed"),
      );
      const done = await db
        .update(tracks)
        .set({
          ...facts,
          duplicate_of: sql`(${db.select({ first: sql`min(${otherTracks.id})` }).from(otherTracks).where(sameBytes)})`,
          status: "completed",
          error: null,
          processed_at: now,
          updated_at: now,
          lease_owner: null,
          lease_until: null,
        })
        .where(
          and(
            eq(tracks.id, id),
            eq(tracks.status, "processing"),
            eq(tracks.lease_owner, owner),
            notExists(
              db
                .select({ one: sql`1` })
                .from(otherTracks)
                // `IS`: two tracks without an owner (deleted accounts) count as the same owner.
                .where(and(sameBytes, sql`${otherTracks.user_id} IS ${tracks.user_id}`)),
            ),
          ),
        )
        .returning(STATUS_COLUMNS);
      owned.forget(...done.map((r) => r.user_id));
      return done[0];
    },

    /**
     * Marks a track failed unless it left `processing` meanwhile or `owner` no longer holds its
     * lease. The row as its status key shows it, or undefined when nothing was written.
     */
    async fail(id: number, facts: FailedFacts, owner: string): Promise<StatusRow | undefined> {
      const now = ctx.clock.now();
      const updated = await db
        .update(tracks)
        .set({
          status: "failed",
          error: facts.error,
          ...(facts.size !== undefined ? { size: facts.size } : {}),
          ...(facts.checksum !== undefined ? { checksum: facts.checksum } : {}),
          ...(facts.discard ? { storage_key: null } : {}),
          processed_at: now,
          updated_at: now,
          lease_owner: null,
          lease_until: null,
        })
        .where(and(eq(tracks.id, id), eq(tracks.status, "processing"), eq(tracks.lease_owner, owner)))
        .returning(STATUS_COLUMNS);
      owned.forget(...updated.map((r) => r.user_id));
      return updated[0];
    },

    /** What the status key of a track holds, read from the database. */
    statusRow,

    // --- The staff screens --------------------------------------------------------------------

    /** Filtered, sorted and (when asked) paged list; one count query and one page query. */
    async list(who: StaffCaller, q: TrackListQuery): Promise<TrackList> {
      const scope = scopeFor(who);
      const visible = scopeSql(scope);
      const filters = filterSql(q, scope);
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
      const sortField = q.sort?.field ?? "upload_date";
      const descending = q.sort?.desc ?? (q.order ? q.order === "desc" : sortField === "upload_date" || sortField === "id");
      let query = db
        .select({ j: rowJson })
        .from(tracks)
        .leftJoin(users, eq(users.id, tracks.user_id))
        .leftJoin(trackAnalysis, analysisJoin)
        .where(and(visible, filters))
        .orderBy(...orderBy(sortField, descending))
        .$dynamic();
      if (pageSize) query = query.limit(pageSize).offset((page - 1) * pageSize);
      const rows = await query;
      const viewFor = { scope, now: ctx.clock.now() };
      return { tracks: rows.map((r) => fromJson(r.j, viewFor)), total, filtered, page, pages, page_size: pageSize };
    },

    async get(who: StaffCaller, id: number): Promise<TrackView> {
      return await view(scopeFor(who), id);
    },

    /** The track detail: the track and the history of its decisions (issue 13). */
    async detail(who: StaffCaller, id: number): Promise<TrackDetailView> {
      const track = await view(scopeFor(who), id);
      return {
        ...track,
        decision_history: await decisionHistory(db, id, displayName),
        listens: await listensOf(db, id, displayName),
      };
    },

    /**
     * PUT …/tracks/{id}/decisions/{direction} (issue 13, decision 0151). Outside the caller's sight
     * the track is 404; a direction the track does not have is 400; one of its directions outside
     * the caller's categories is 403. A change writes the pair, its history entry and, when the
     * artist is to be told, the outbox message in one batch. Nothing changed, nothing is written.
     */
    async decide(
      who: Viewer,
      id: number,
      direction: Direction,
      input: DecisionInput,
      templateText: (templateId: number) => Promise<string | null>,
    ): Promise<DecisionView> {
      const scope = scopeOf(who);
      const current = await load(scope, id);
      if (!parseDirections(current.directions).includes(direction)) throw badRequest(REVIEW_TEXTS.notTrackDirection);
      if (!inScope(direction, scope)) throw forbidden(REVIEW_TEXTS.outsideCategories);
      let message = input.message;
      if (input.template_id !== undefined) {
        const text = await templateText(input.template_id);
        if (text === null) throw badRequest(REVIEW_TEXTS.templateNotFound);
        message = text;
      }
      const decisionNow = async () => (await view("*", id, scope)).decisions.find((d) => d.direction === direction)!;
      // Made from another state than the stored one (or from none): refused with what is stored, so
      // the form can show it (decision 0199).
      const stale = async () => conflict(REVIEW_TEXTS.decisionChanged, { current: await decisionNow() });
      const before = (await storedPairs(db, id, [direction])).get(direction)!;
      if (input.revision !== before.revision) throw await stale();
      // Left out: the status stays (a note alone never changes it); the note stays; the message
      // stays only with the same status, since a message belongs to the decision it came with
      // (decision 0151).
      const status = input.status ?? before.status;
      const after = {
        status,
        note: input.note !== undefined ? input.note : before.note,
        message: message !== undefined ? message : status === before.status ? before.message : null,
      };
      if (after.status !== before.status || after.note !== before.note || after.message !== before.message) {
        const change: PairChange = { trackId: id, direction, before, after, by: who.id, at: ctx.clock.now() };
        const notice = noticeOf(change, current);
        try {
          await db.batch([
            ...changeStatements(db, change),
            syncReviewStatement(db, id),
            ...(notice && ctx.notifications ? ctx.notifications.outbox.enqueueStatements(notice) : []),
          ]);
        } catch (err) {
          // The pair's next revision was taken meanwhile (another instance too): the batch is a
          // compare-and-set on the revision, and nothing of it was written.
          if (!isConcurrentChange(err)) throw err;
          throw await stale();
        } finally {
          owned.forget(current.user_id);
        }
        if (notice) ctx.notifications?.sender.kick();
      }
      return await decisionNow();
    },

    /**
     * The listening link was handed out (GET …/listen): the caller's played-time clock for the
     * track starts now (docs/decisions/0197). Opening a track marks nothing.
     */
    async openListen(who: Viewer, id: number): Promise<void> {
      await load(scopeOf(who), id);
      await openListen(db, id, who.id, ctx.clock.now());
    },

    /**
     * POST …/tracks/{id}/listened (issue 20, docs/decisions/0197): the player reports `seconds`
     * played since its previous report. 404 outside the caller's sight, like every call taking a
     * track id. Once the caller's capped total reaches the threshold (20 s, or all of a shorter
     * track), the track's `new` directions within their scope become `listened`.
     */
    async reportListened(who: Viewer, id: number, seconds: number) {
      await load(scopeOf(who), id);
      const durationS = await trackDuration(db, id);
      const heardS = await addPlayed(db, { trackId: id, userId: who.id, seconds, at: ctx.clock.now(), durationS });
      const heard = isHeard(heardS, durationS);
      const decisions = heard ? await markListened(who, id) : (await view(scopeOf(who), id)).decisions;
      return { heard_s: Math.floor(heardS * 10) / 10, duration_s: durationS, heard, decisions };
    },
    /** Admin: a track record without a file (spec 2 "Admin track edit", add mode). */
    async create(input: TrackInput): Promise<TrackView> {
      const dirs = input.directions ?? [];
      checkConflicts(dirs);
      await checkUser(input.user_id);
      const now = ctx.clock.now();
      const [row] = await db
        .insert(tracks)
        .values({
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
        })
        .returning({ id: tracks.id });
      owned.forget(input.user_id);
      return this.get("*", row.id);
    },

    /** Admin: everything but the filename and the upload date, which are fixed once a track exists. */
    async update(who: StaffCaller, id: number, input: TrackUpdate): Promise<TrackView> {
      const current = await load(who, id);
      const set: Partial<typeof tracks.$inferInsert> = { updated_at: ctx.clock.now() };
      if (input.directions !== undefined) {
        checkConflicts(input.directions);
        set.directions = formatDirections(input.directions);
      }
      if (input.downloaded !== undefined) set.downloaded = input.downloaded;
      if (input.user_id !== undefined) {
        if (input.user_id !== current.user_id) await checkUser(input.user_id);
        set.user_id = input.user_id;
      }
      const userId = input.user_id !== undefined ? input.user_id : current.user_id;
      if (userId) set.guest_username = null;
      else if (input.guest_username !== undefined) set.guest_username = input.guest_username;
      try {
        await db.batch([db.update(tracks).set(set).where(eq(tracks.id, id)), syncReviewStatement(db, id)]);
      } finally {
        // A track handed to another artist leaves one list and joins the other.
        owned.forget(current.user_id, userId);
      }
      await forgetStatus(id);
      return this.get("*", id);
    },

    /**
     * Moderator: only directions inside the scope and the downloaded flag change. Directions outside
     * the scope stay as they were whatever the request says; the result keeps at least one
     * direction and respects the conflict table.
     */
    async moderate(who: StaffCaller, id: number, input: TrackModeration): Promise<TrackView> {
      const scope = scopeFor(who);
      const current = await load(scope, id);
      const set: Partial<typeof tracks.$inferInsert> = { updated_at: ctx.clock.now() };
      if (input.directions !== undefined) {
        const before = parseDirections(current.directions);
        const wanted = new Set(input.directions);
        const next = DIRECTIONS.filter((d) => (inScope(d, scope) ? wanted.has(d) : before.includes(d)));
        if (next.length === 0) throw badRequest("У трека должно быть хотя бы одно направление");
        checkConflicts(next);
        set.directions = formatDirections(next);
      }
      if (input.downloaded !== undefined) set.downloaded = input.downloaded;
      try {
        await db.batch([db.update(tracks).set(set).where(eq(tracks.id, id)), syncReviewStatement(db, id)]);
      } finally {
        owned.forget(current.user_id);
      }
      await forgetStatus(id);
      // Unscoped read: removing their last direction takes the track out of the caller's sight,
      // but the change they just made is still theirs to see.
      return await view("*", id, scope);
    },

    /**
     * Deletes the record, then its file and its status key. A moderator whose categories cover only
     * some of the track's directions removes just those; the track goes with its last direction
     * (issue 13, decision 0153). An administrator's delete is the whole track, as before.
     */
    async remove(who: StaffCaller, id: number): Promise<{ track_deleted: boolean; directions: string }> {
      const scope = scopeFor(who);
      const current = await load(scope, id);
      const others = parseDirections(current.directions).filter((d) => !inScope(d, scope));
      if (others.length > 0) {
        const directions = formatDirections(others);
        try {
          await db.batch([
            db.update(tracks).set({ directions, updated_at: ctx.clock.now() }).where(eq(tracks.id, id)),
            syncReviewStatement(db, id),
          ]);
        } finally {
          owned.forget(current.user_id);
        }
        await forgetStatus(id);
        return { track_deleted: false, directions };
      }
      try {
        await db.delete(tracks).where(eq(tracks.id, id));
      } finally {
        owned.forget(current.user_id);
      }
      if (current.storage_key) {
        await ctx.storage.delete(current.storage_key).catch((err) =>
          ctx.logger.warn("track file not removed", { id, err })
        );
      }
      await forgetStatus(id);
      return { track_deleted: true, directions: "" };
    },

    /**
     * The tracks of a download, in the order asked, every one visible to the scope and with a file.
     * Anything else is 404 for the whole request: a download never silently leaves a track out.
     */
    async forDownload(who: StaffCaller, ids: readonly number[]) {
      const out = [];
      for (const r of await downloadRows(who, ids)) {
        if (!r.storage_key) throw notFound(`${TRACK_FILE_NOT_FOUND}: ${r.filename}`);
        out.push({ id: r.id, filename: r.filename, storage_key: r.storage_key });
      }
      return out;
    },

    /**
     * The tracks of a ZIP (issue 12): every one must be visible, as for `forDownload`, but a track
     * without a stored file (a failed duplicate, a staff-made record) is named in `missing` instead of
     * refusing the whole selection. 404 only when none of them has a file.
     */
    async forArchive(who: StaffCaller, ids: readonly number[]) {
      const files: { id: number; filename: string; storage_key: string }[] = [];
      const missing: { id: number; filename: string }[] = [];
      for (const r of await downloadRows(who, ids)) {
        if (r.storage_key) files.push({ id: r.id, filename: r.filename, storage_key: r.storage_key });
        else missing.push({ id: r.id, filename: r.filename });
      }
      if (files.length === 0) throw notFound(NO_FILES_FOUND);
      return { files, missing };
    },

    /** The audio reports (written by processing and the start-up pass). */
    analysis,

    /** What the listening call needs of a track the caller may see: 404 outside their sight or without a file. */
    async listenSource(who: StaffCaller, id: number) {
      return await analysis.listenSource(scopeFor(who), id, (filename) => `${TRACK_FILE_NOT_FOUND}: ${filename}`);
    },

    async markDownloaded(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      const done = await db
        .update(tracks)
        .set({ downloaded: true, updated_at: ctx.clock.now() })
        .where(and(inArray(tracks.id, [...ids]), eq(tracks.downloaded, false)))
        .returning({ user_id: tracks.user_id });
      // The list shows the downloaded flag.
      owned.forget(...new Set(done.map((r) => r.user_id)));
    },
  };
}

export type TracksService = ReturnType<typeof createTracksService>;

import { AUDIO_WARNINGS } from "../../../../domain/audio-warnings.ts";
import { DIRECTIONS } from "../../../../domain/directions.ts";
import { AI_USE_FILTERS } from "../../../../domain/ai-use-desk.ts";
import { MAX_PAGE, oneOf, text as textUpTo, wholeNumber } from "../../../lib/search-params.ts";
import { MODERATOR_QUEUE_START } from "./queue-start.ts";

/**
 * Where a staff track list stands, kept in the address (issue 12 §3; decision 0141): filters, sort,
 * page and page size, so Back, a reload, a shared link and the way back from the edit page land on
 * the same rows. `validateSearch` of /admin/tracks and /moderator/tracks runs this schema; a value
 * that does not parse (a hand-edited or outdated link) falls back to its default instead of failing
 * the page. Defaults are left out of the address. No zod: the router (and so this file) is in the
 * public entry chunk.
 */

export const TRACK_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
const MAX_TEXT = 200;

/** Fields the lists sort by: the server's (server/tracks/service.ts SORT_FIELDS) that a column offers. */
export const TRACK_SORT_FIELDS = [
  "upload_date",
  "filename",
  "user",
  "downloaded",
  "duration",
  "bitrate",
  "loudness",
  "bpm",
  "key",
  "drop",
  // Issue 24: the sum of the votes the caller sees (decision 0230).
  "score",
] as const;
export type TrackSortField = (typeof TRACK_SORT_FIELDS)[number];
/** `field` ascending or `-field` descending, as the API's `sort` takes it. */
export type TrackSort = TrackSortField | `-${TrackSortField}`;

/**
 * The review states (domain/review.ts REVIEW_STATUSES, issue 13), listed here because this file is in
 * the public entry chunk and domain/review.ts also holds the zod schemas; review-filter.test keeps them equal.
 */
export const TRACK_REVIEW_FILTERS = ["new", "listened", "shortlisted", "accepted", "declined"] as const;
/**
 * Besides the states, the server's `awaiting` (issue 23): a pair still waiting for a decision, new or
 * listened. The dashboards' overdue figure opens it oldest first (decision 0228).
 */
export const AWAITING_REVIEW_FILTER = "awaiting";
/**
 * The server's `overdue` (issue 24): awaiting a decision and uploaded more than OVERDUE_AFTER_DAYS
 * ago, the tracks the dashboards' overdue figure counts and opens (decision 0228).
 */
export const OVERDUE_REVIEW_FILTER = "overdue";
const REVIEW_FILTERS = [...TRACK_REVIEW_FILTERS, AWAITING_REVIEW_FILTER, OVERDUE_REVIEW_FILTER] as const;

/** The list's `votes` filter (domain/votes.ts VOTE_FILTERS, decision 0230); review-filter.test keeps them equal. */
export const TRACK_VOTE_FILTERS = ["second_ear", "positive", "negative", "none"] as const;

export const TRACK_WARNING_FILTERS = ["any", ...AUDIO_WARNINGS] as const;
export type TrackWarningFilter = (typeof TRACK_WARNING_FILTERS)[number];

const text = textUpTo(MAX_TEXT);
const isoDay = (v: unknown): string | undefined => {
  if (typeof v !== "string") return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  return !m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3]) ? undefined : v;
};
const bool = (v: unknown): boolean | undefined =>
  v === true || v === "true" ? true : v === false || v === "false" ? false : undefined;
const sortRule = new RegExp(`^-?(${TRACK_SORT_FIELDS.join("|")})$`);

export type TrackListSearch = {
  filename?: string;
  user?: string;
  date?: string;
  direction?: (typeof DIRECTIONS)[number];
  downloaded?: boolean;
  warning?: TrackWarningFilter;
  /** A review state (issue 13): with `direction`, that pair's state; else any direction in scope. */
  review?: (typeof REVIEW_FILTERS)[number];
  /** «Мне назначено» (issue 24): the tracks with a pair assigned to the caller. */
  assigned?: "me";
  /** Staff votes (issue 24): `second_ear`, `positive`, `negative`, `none`. */
  votes?: (typeof TRACK_VOTE_FILTERS)[number];
  /** The AI question's answer (issue 25): `no`, `partly`, `yes`, or `none` (no answer). */
  ai_use?: (typeof AI_USE_FILTERS)[number];
  sort?: TrackSort;
  page?: number;
  page_size?: number;
  /** The track the review player holds (issue 23): Back, a reload or a shared link land on it. */
  track?: number;
};

/**
 * Each field's reader: its value, or undefined when it is absent or does not parse. Plain functions
 * (this file is in the public entry chunk, and zod/mini alone was ~6.6 KB of it gzipped).
 */
const READERS: { [K in keyof TrackListSearch]-?: (v: unknown) => TrackListSearch[K] } = {
  filename: text,
  user: text,
  date: isoDay,
  direction: oneOf(DIRECTIONS),
  downloaded: bool,
  warning: oneOf(TRACK_WARNING_FILTERS),
  review: oneOf(REVIEW_FILTERS),
  assigned: oneOf(["me"] as const),
  votes: oneOf(TRACK_VOTE_FILTERS),
  ai_use: oneOf(AI_USE_FILTERS),
  sort: (v) => (typeof v === "string" && sortRule.test(v) ? (v as TrackSort) : undefined),
  page: wholeNumber((n) => n >= 1 && n <= MAX_PAGE),
  page_size: wholeNumber((n) => (TRACK_PAGE_SIZES as readonly number[]).includes(n)),
  track: wholeNumber((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER),
};

function readSearch(input: Record<string, unknown>): TrackListSearch {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(READERS) as (keyof TrackListSearch)[]) {
    const value = READERS[key](input[key]);
    if (value !== undefined) out[key] = value;
  }
  return out as TrackListSearch;
}

/** The address's search as the list reads it; anything unreadable falls back to the defaults. */
export function parseTrackListSearch(raw: unknown): TrackListSearch {
  const input = raw && typeof raw === "object" ? raw as Record<string, unknown> : {};
  return clean(readSearch(input));
}

/** Without empty values and defaults, so an untouched list has a bare address. */
function clean(s: TrackListSearch): TrackListSearch {
  const out: TrackListSearch = {};
  if (s.filename) out.filename = s.filename;
  if (s.user) out.user = s.user;
  if (s.date) out.date = s.date;
  if (s.direction) out.direction = s.direction;
  if (s.downloaded !== undefined) out.downloaded = s.downloaded;
  if (s.warning) out.warning = s.warning;
  if (s.review) out.review = s.review;
  if (s.assigned) out.assigned = s.assigned;
  if (s.votes) out.votes = s.votes;
  if (s.ai_use) out.ai_use = s.ai_use;
  if (s.sort && s.sort !== "-upload_date") out.sort = s.sort;
  if (s.page !== undefined && s.page !== 1) out.page = s.page;
  if (s.page_size !== undefined && s.page_size !== DEFAULT_PAGE_SIZE) out.page_size = s.page_size;
  if (s.track !== undefined) out.track = s.track;
  return out;
}

/** `validateSearch` of both track list routes. */
export const validateTrackListSearch = (raw: Record<string, unknown>): TrackListSearch => parseTrackListSearch(raw);

// --- The way back from the edit page ---------------------------------------------------------------

type Panel = "/admin" | "/moderator";

const placeKey = (panel: Panel) => `staffTrackList:${panel}`;

/**
 * The list's last place, kept for the session: the edit page's back link, Cancel and the return after
 * a save go there instead of to page 1 (sessionStorage, so a reload of the edit page keeps it too).
 */
export function rememberTrackListPlace(panel: Panel, search: TrackListSearch) {
  try {
    sessionStorage.setItem(placeKey(panel), JSON.stringify(clean(search)));
  } catch {
    // Storage refused (private mode, quota): the way back then starts at page 1.
  }
}

export function trackListPlace(panel: Panel): TrackListSearch {
  try {
    const kept = sessionStorage.getItem(placeKey(panel));
    if (kept === null && panel === "/moderator") return { ...MODERATOR_QUEUE_START };
    return parseTrackListSearch(JSON.parse(kept ?? "{}"));
  } catch {
    return {};
  }
}

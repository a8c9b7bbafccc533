import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { REVIEW_STATUSES, TEMPLATE_OUTCOMES } from "../domain/review.ts";
import { TILE_TYPES } from "../domain/slider.ts";
import { INTAKE_DEFAULTS } from "../domain/intake-rules.ts";
import { MESSAGE_CHANNELS, type MessageChannel } from "../domain/message-channels.ts";

const timestamps = {
  created_at: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  updated_at: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
};

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  email: text("email"),
  first_name: text("first_name"),
  last_name: text("last_name"),
  /** Path under /static/storage/, e.g. `/static/storage/avatars/<uuid>.jpg`. */
  avatar: text("avatar"),
  city: text("city"),
  /** ISO date `YYYY-MM-DD`. */
  birth_date: text("birth_date"),
  bio: text("bio"),
  favorite_dnb_genre: text("favorite_dnb_genre"),
  vk_id: text("vk_id").unique(),
  telegram_id: text("telegram_id").unique(),
  telegram_hash: text("telegram_hash"),
  phone_number: text("phone_number"),
  /** Phone recorded by `link_telegram_to_vk`: the next VK sign-in with this verified phone joins this account. */
  pending_vk_link_phone: text("pending_vk_link_phone"),
  is_admin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  is_moderator: integer("is_moderator", { mode: "boolean" }).notNull().default(false),
  /** Comma list of direction codes, or `*`. Empty for non-moderators. */
  moderator_categories: text("moderator_categories").notNull().default(""),
  is_banned: integer("is_banned", { mode: "boolean" }).notNull().default(false),
  ban_reason: text("ban_reason"),
  last_login_at: integer("last_login_at", { mode: "timestamp_ms" }),
  /**
   * When the staff rights last changed (admin, moderator, categories, ban): a signed download or
   * listening link issued before it is refused, even after the rights come back (decision 0203).
   */
  rights_changed_at: integer("rights_changed_at", { mode: "timestamp_ms" }),
  /**
   * Issue 36: whether the bot may write to the person, as the Telegram Mini App's launch data last
   * said (`allows_write_to_pm`) or its `requestWriteAccess` answered; null until they open the Mini App.
   */
  allows_write_to_pm: integer("allows_write_to_pm", { mode: "boolean" }),
  ...timestamps,
}, (t) => [
  index("users_is_banned_idx").on(t.is_banned),
  index("users_created_at_idx").on(t.created_at),
]);

export const sessions = sqliteTable("sessions", {
  /** Random id carried in both tokens as `sid`. */
  id: text("id").primaryKey(),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  /** jti of the only refresh token that may still be used (rotation). */
  refresh_jti: text("refresh_jti").notNull(),
  expires_at: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  revoked_at: integer("revoked_at", { mode: "timestamp_ms" }),
  user_agent: text("user_agent"),
  ...timestamps,
}, (t) => [index("sessions_user_id_idx").on(t.user_id)]);

/**
 * A sign-in started by one browser (GET /api/auth/oauth/urls): the VK state and PKCE verifier, and
 * the hash of the browser-binding cookie that browser got. Taken (deleted) by the VK callback or the
 * Telegram completion, so each works once; rows past `expires_at` are swept (docs/decisions/0016).
 */
export const oauthSessions = sqliteTable("oauth_sessions", {
  /** The `session_id` the browser keeps; the VK state starts with it. */
  id: text("id").primaryKey(),
  /** Null when VK sign-in is not configured. */
  vk_state: text("vk_state"),
  vk_verifier: text("vk_verifier"),
  /** SHA-256 (hex) of the browser-binding cookie. */
  browser_hash: text("browser_hash").notNull(),
  /**
   * The signed-in account that started this sign-in to link VK to itself (the profile's link path):
   * only such a sign-in may attach a new VK identity to an existing account (decision 0204).
   */
  link_user_id: integer("link_user_id"),
  expires_at: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  created_at: timestamps.created_at,
}, (t) => [index("oauth_sessions_expires_at_idx").on(t.expires_at)]);

/**
 * One-time codes the VK callback hands the front end instead of tokens (`?login_code=`): exchanged
 * once, by the browser that started the sign-in, within a minute, for a new session (decision 0202).
 * Only the code's hash is kept; the session is made at the exchange.
 */
export const loginCodes = sqliteTable("login_codes", {
  /** SHA-256 (hex) of the code. */
  code_hash: text("code_hash").primaryKey(),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  /** SHA-256 (hex) of the browser-binding cookie of the browser that started the sign-in. */
  browser_hash: text("browser_hash").notNull(),
  user_agent: text("user_agent"),
  expires_at: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  created_at: timestamps.created_at,
}, (t) => [index("login_codes_expires_at_idx").on(t.expires_at)]);

/**
 * Telegram login results already used, by their hash: a signed result is good for one sign-in or
 * link only. Kept until the result would be refused as too old anyway (docs/decisions/0017).
 */
export const telegramAuthUses = sqliteTable("telegram_auth_uses", {
  hash: text("hash").primaryKey(),
  telegram_id: text("telegram_id").notNull(),
  expires_at: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  created_at: timestamps.created_at,
}, (t) => [index("telegram_auth_uses_expires_at_idx").on(t.expires_at)]);

export const TRACK_STATUSES = ["processing", "completed", "failed"] as const;
export type TrackStatus = (typeof TRACK_STATUSES)[number];

export const tracks = sqliteTable("tracks", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  guest_username: text("guest_username"),
  /** The name the artist uploaded; never used as a path. */
  filename: text("filename").notNull(),
  /** Comma list of direction codes. */
  directions: text("directions").notNull().default(""),
  upload_date: integer("upload_date", { mode: "timestamp_ms" }).notNull(),
  downloaded: integer("downloaded", { mode: "boolean" }).notNull().default(false),
  /** Generated key in private storage; null for tracks created by staff without a file. */
  storage_key: text("storage_key"),
  size: integer("size"),
  duration: integer("duration_ms"),
  bitrate: integer("bitrate"),
  sample_rate: integer("sample_rate"),
  channels: integer("channels"),
  id3_artist: text("id3_artist"),
  id3_title: text("id3_title"),
  checksum: text("checksum"),
  status: text("status", { enum: TRACK_STATUSES }).notNull().default("processing"),
  error: text("error"),
  attempts: integer("attempts").notNull().default(0),
  processed_at: integer("processed_at", { mode: "timestamp_ms" }),
  /**
   * The processing claim of a `processing` track (docs/decisions/0170): the instance working on it
   * (a random id per process) and until when its lease holds. Both null while nobody holds it and
   * once the track has left `processing`.
   */
  lease_owner: text("lease_owner"),
  lease_until: integer("lease_until", { mode: "timestamp_ms" }),
  /**
   * The review states other than `new` of the track's current directions, `direction:status`
   * comma-joined (e.g. `label_koster:accepted`): a copy of `track_decisions`, rewritten in the same
   * batch as every change of a pair or of the directions, so the staff lists' review filter and the
   * dashboard read it from the row instead of a subquery per track (docs/decisions/0150).
   */
  review: text("review").notNull().default(""),
  /**
   * The earliest completed track of another owner with the same bytes, when this one was accepted
   * as such a copy (issue 20, docs/decisions/0206). Staff-only. Not a foreign key: the number stays
   * when that track is deleted, so staff still learn it was a copy (ids are never reused).
   */
  duplicate_of: integer("duplicate_of"),
  /**
   * The artist's answer to «Использовался ли ИИ при создании трека?» (issue 25), asked once per
   * upload batch: `no`, `partly` or `yes`; null for tracks uploaded before the question existed or
   * created by staff. Staff-only badge and filter; nothing is guessed by a model.
   */
  ai_use: text("ai_use", { enum: ["no", "partly", "yes"] }),
  /**
   * The earliest completed track of another owner whose audio fingerprint this one's matches (issue
   * 25, docs/decisions/0248): the same recording, however re-encoded. Staff-only, like
   * `duplicate_of`, and not a foreign key for the same reason.
   */
  same_audio_as: integer("same_audio_as"),
  /**
   * Issue 38 (docs/decisions/0422): the completed track this one is another version of (an
   * instrumental, a vocal, an edit, another mix or take: the fingerprints agree in part, not as the
   * same recording), the same owner's first, else another owner's; null when none. Staff see
   * «похоже на другую версию трека #N». Not a foreign key, like `same_audio_as`.
   */
  similar_to_track_id: integer("similar_to_track_id"),
  ...timestamps,
}, (t) => [
  index("tracks_user_id_idx").on(t.user_id),
  index("tracks_upload_date_idx").on(t.upload_date),
  // The dashboards' overdue count (issue 23, server/review/review-queue.ts): the awaiting tracks of
  // the last 14 days read from the index alone, without a row lookup each.
  index("tracks_upload_review_idx").on(t.upload_date, t.status, t.directions, t.review),
  index("tracks_downloaded_idx").on(t.downloaded),
  index("tracks_status_idx").on(t.status),
  index("tracks_checksum_idx").on(t.checksum),
  index("tracks_filename_idx").on(t.filename),
  // The dashboard's covering indexes (directions, downloaded) and (directions, review, status) were
  // dropped in migration 0010: it reads track_counts instead (docs/decisions/0190).
]);

/**
 * Running counts of tracks for the admin dashboard (docs/decisions/0190): one row per direction set,
 * `review` copy, downloaded flag and failed flag (`status = 'failed'`), with how many tracks have it.
 * Written only by the SQLite triggers on `tracks` (migration 0009), in the same transaction as
 * every insert, update and delete of a track, so it never differs from `tracks` after a commit and
 * needs no invalidation between instances. Rows whose count falls to 0 are removed.
 */
export const trackCounts = sqliteTable("track_counts", {
  directions: text("directions").notNull(),
  review: text("review").notNull(),
  downloaded: integer("downloaded").notNull(),
  failed: integer("failed").notNull(),
  n: integer("n").notNull(),
}, (t) => [primaryKey({ columns: [t.directions, t.review, t.downloaded, t.failed] })]);

/**
 * How many tracks each user has (`tracks.user_id`), for the dashboard's top user: kept by the same
 * triggers as `track_counts` (docs/decisions/0190). Only users with at least one track have a row.
 * No foreign key: a deleted user's tracks lose their `user_id` (set null), and that update's
 * trigger removes the row.
 */
export const userTrackCounts = sqliteTable("user_track_counts", {
  user_id: integer("user_id").primaryKey(),
  n: integer("n").notNull(),
}, (t) => [index("user_track_counts_n_user_idx").on(t.n, t.user_id)]);

/**
 * The response figures' facts (docs/decisions/0235, 0237): one row per (track, direction) pair of
 * every track that is not a failed upload, with its upload date and, from its counted history
 * (0235: no undo's entry, no entry of an undone call), the time from the upload to the first entry
 * to any state but `new` (heard) and to the first `accepted`/`declined` entry (decided), and who
 * made them. Written only by the SQLite triggers of migration 0023_track_pair_facts_triggers, in the
 * same transaction as every history entry and every change of a track's directions, status or
 * upload date, by recomputing the touched pairs from the history (the view
 * `track_pair_facts_source`), so an undo is as exact as a decision.
 */
export const trackPairFacts = sqliteTable("track_pair_facts", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  upload_date: integer("upload_date").notNull(),
  listen_ms: integer("listen_ms"),
  listen_by: integer("listen_by"),
  decide_ms: integer("decide_ms"),
  decide_by: integer("decide_by"),
}, (t) => [
  primaryKey({ columns: [t.track_id, t.direction] }),
  // The counts: one pass over the period grouped by direction and the two people (decision 0237).
  index("track_pair_facts_groups_idx").on(
    t.direction,
    t.listen_by,
    t.decide_by,
    t.upload_date,
    t.listen_ms,
    t.decide_ms,
  ),
  // The percentiles of a short period: the period's pairs of a group, sorted.
  index("track_pair_facts_direction_upload_idx").on(t.direction, t.upload_date, t.listen_ms, t.decide_ms),
  index("track_pair_facts_listen_by_upload_idx").on(t.listen_by, t.upload_date, t.listen_ms, t.direction),
  index("track_pair_facts_decide_by_upload_idx").on(t.decide_by, t.upload_date, t.decide_ms, t.direction),
  // The percentiles of a long period: a group's times in order, walked to the rank.
  index("track_pair_facts_direction_listen_idx").on(t.direction, t.listen_ms, t.upload_date),
  index("track_pair_facts_direction_decide_idx").on(t.direction, t.decide_ms, t.upload_date),
  index("track_pair_facts_listen_by_idx").on(t.listen_by, t.listen_ms, t.upload_date, t.direction),
  index("track_pair_facts_decide_by_idx").on(t.decide_by, t.decide_ms, t.upload_date, t.direction),
]);

/**
 * The technical report of a track's audio (server/audio/analyse-mp3.ts), one row per analysed track,
 * written by processing and by the start-up pass over older tracks. Kept apart from `tracks` so the
 * list queries never carry the ~15 KB of waveform peaks (docs/decisions/0101-track-analysis.md).
 * A row with `error` is a track whose stored file could not be decoded: the figures stay null and
 * the start-up pass does not try it again.
 */
export const trackAnalysis = sqliteTable("track_analysis", {
  track_id: integer("track_id").primaryKey().references(() => tracks.id, { onDelete: "cascade" }),
  duration_s: real("duration_s"),
  bitrate_kbps: integer("bitrate_kbps"),
  bitrate_mode: text("bitrate_mode", { enum: ["cbr", "vbr"] }),
  sample_rate_hz: integer("sample_rate_hz"),
  channels: integer("channels"),
  loudness_lufs: real("loudness_lufs"),
  true_peak_dbtp: real("true_peak_dbtp"),
  clipped_samples: integer("clipped_samples"),
  bpm: real("bpm"),
  /** 0–1, how sure the tempo reading is (server/audio/tempo.ts, docs/decisions/0221); null: none read. */
  bpm_confidence: real("bpm_confidence"),
  drop_s: real("drop_s"),
  /** The musical key, e.g. "F minor" (server/audio, issue 22); null when none was read. */
  musical_key: text("musical_key"),
  /** Its Camelot code, e.g. "4A"; the staff lists sort by it (number, then letter). */
  camelot: text("camelot"),
  /** 0–1, how sure the key reading is; null: none read. */
  key_confidence: real("key_confidence"),
  /**
   * The analyser that wrote this report (ANALYSIS_VERSION, server/processing/analysis.ts): reports older
   * than the current one are analysed again in the background (docs/decisions/0217). Reports from
   * before versions were counted are 1.
   */
  analysis_version: integer("analysis_version").notNull().default(1),
  /** The re-analysis lease: which instance works on this report, until when (0217). */
  reanalysis_owner: text("reanalysis_owner"),
  /** Also the earliest time a failed re-analysis is tried again. */
  reanalysis_until: integer("reanalysis_until", { mode: "timestamp_ms" }),
  /** Re-analysis attempts at `reanalysis_version` (counted when claimed, so a crash counts too). */
  reanalysis_attempts: integer("reanalysis_attempts").notNull().default(0),
  /** The ANALYSIS_VERSION those attempts were made for. */
  reanalysis_version: integer("reanalysis_version"),
  /** Why the last re-analysis did not replace the report (the old report is kept); null after a success. */
  reanalysis_error: text("reanalysis_error"),
  /** Comma list of warning codes (server/audio/warnings.ts), empty when none. */
  warnings: text("warnings").notNull().default(""),
  /** JSON array of [min, max] pairs in -1..1. */
  peaks: text("peaks"),
  error: text("error"),
  analysed_at: integer("analysed_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * A completed track's audio fingerprint (server/audio/fingerprint.ts, issue 25, docs/decisions/0247):
 * its sub-fingerprints, one every 0.124 s over the first 120 s from the first sound, as little-endian
 * 32-bit numbers (at most 3.9 KB). Read only for the few candidates the segment index names.
 */
export const trackFingerprints = sqliteTable("track_fingerprints", {
  track_id: integer("track_id").primaryKey().references(() => tracks.id, { onDelete: "cascade" }),
  codes: blob("codes", { mode: "buffer" }).notNull(),
  /** FINGERPRINT_VERSION of the code that made it: codes of another version are never compared. */
  version: integer("version").notNull(),
});

/**
 * The segment index over `track_fingerprints` (docs/decisions/0247): for about one position in 16
 * of each fingerprint, the hash of the sub-fingerprint there (its 24 steadiest bits) and its position.
 * A lookup reads the rows of the query's hashes and keeps the tracks hit at one consistent offset:
 * never a scan of the fingerprints.
 */
export const fingerprintSegments = sqliteTable("fingerprint_segments", {
  hash: integer("hash").notNull(),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  /** The sub-fingerprint's position in the track's fingerprint. */
  position: integer("position").notNull(),
}, (t) => [
  index("fingerprint_segments_hash_idx").on(t.hash, t.track_id, t.position),
  // A track's delete cascades here: without this index each delete would scan the table.
  index("fingerprint_segments_track_idx").on(t.track_id),
]);

/**
 * The review state of one (track, direction) pair (issue 13; docs/decisions/0150). No row means
 * `new`: rows appear with the first listening receipt (0197) or decision, so tracks from before the
 * review needed no backfill. A row outlives its direction being removed from the track and is ignored meanwhile
 * (every read goes through the track's current directions). `revision` counts the pair's changes;
 * each change writes history row number `revision`, unique per pair, which is what keeps two
 * concurrent decisions from both being recorded on top of the same state.
 */
export const trackDecisions = sqliteTable("track_decisions", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  status: text("status", { enum: REVIEW_STATUSES }).notNull().default("new"),
  /** For staff only. */
  note: text("note"),
  /** For the artist. */
  message: text("message"),
  decided_by: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
  decided_at: integer("decided_at", { mode: "timestamp_ms" }),
  revision: integer("revision").notNull().default(0),
  /**
   * What the artist's side shows while the latest change is within the notification hold
   * (DECISION_NOTIFY_HOLD_S, docs/decisions/0223): the state they last could see. Null: `new`.
   */
  shown_status: text("shown_status", { enum: REVIEW_STATUSES }),
  shown_message: text("shown_message"),
}, (t) => [
  primaryKey({ columns: [t.track_id, t.direction] }),
  index("track_decisions_direction_status_idx").on(t.direction, t.status),
]);

/** Every change of a pair's decision: who, when, from which state to which, and the texts it left. */
export const trackDecisionHistory = sqliteTable("track_decision_history", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  /** The pair's revision this change made (1 for the first). */
  revision: integer("revision").notNull(),
  from_status: text("from_status", { enum: REVIEW_STATUSES }).notNull(),
  to_status: text("to_status", { enum: REVIEW_STATUSES }).notNull(),
  note: text("note"),
  message: text("message"),
  decided_by: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
  decided_at: integer("decided_at", { mode: "timestamp_ms" }).notNull(),
  /**
   * The decision call that wrote this entry (one id for every pair one call decided), so the call
   * can be undone as a whole; null for listening marks (docs/decisions/0222).
   */
  call_id: text("call_id"),
  /** On an undo's entries: the call it undid. */
  undoes: text("undoes"),
  /**
   * Written by the response promise's sweep, not by a person (issue 25): the pair passed its
   * direction's promise plus the grace undecided and was declined with the «не успели послушать»
   * message. Shown as automatic in the artist's history and on the dashboards.
   */
  automatic: integer("automatic", { mode: "boolean" }).notNull().default(false),
}, (t) => [
  uniqueIndex("track_decision_history_pair_revision_idx").on(t.track_id, t.direction, t.revision),
  // The dashboards' count of automatic declines (issue 25) reads only these few entries.
  index("track_decision_history_automatic_idx").on(t.direction).where(sql`${t.automatic} = 1`),
]);

/**
 * How much of a track each staff member has played (issue 20; docs/decisions/0197). `heard_s` is
 * the sum of the played time the player reported, each report capped by the time since `last_at`
 * (the member's previous report, or their opening of the track's listening link), the total by the
 * track's length. A pair becomes `listened` once some member's `heard_s` reaches the threshold.
 */
export const trackListens = sqliteTable("track_listens", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  heard_s: real("heard_s").notNull().default(0),
  last_at: integer("last_at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [
  primaryKey({ columns: [t.track_id, t.user_id] }),
  // A report reads the member's listening clock across all their tracks (decision 0197).
  index("track_listens_user_last_idx").on(t.user_id, t.last_at),
]);

/**
 * Staff votes (issue 24, docs/decisions/0229): one per (track, direction, staff member), +1 / 0 / −1
 * with an optional short word; voting again replaces it. Staff-only: no artist answer reads this
 * table. A vote outlives its direction being removed from the track and is ignored meanwhile, as
 * `track_decisions` rows are.
 */
export const trackVotes = sqliteTable("track_votes", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  vote: integer("vote").notNull(),
  word: text("word"),
  voted_at: integer("voted_at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [
  // A row's votes, a pair's votes and "has the caller voted on this pair" are prefix reads of the key.
  primaryKey({ columns: [t.track_id, t.direction, t.user_id] }),
  // Removing a user removes their votes (the cascade looks them up by user).
  index("track_votes_user_idx").on(t.user_id),
]);

/**
 * Staff comments pinned to a moment (or a range) of a track's audio (issue 24, decision 0231):
 * staff-only unless `shared`, then the artist reads the text (never the author) in their history
 * (decision 0232). The author may be gone (their row deleted): the comment stays, unsigned.
 */
export const trackComments = sqliteTable("track_comments", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  author_id: integer("author_id").references(() => users.id, { onDelete: "set null" }),
  at_s: real("at_s").notNull(),
  end_s: real("end_s"),
  text: text("text").notNull(),
  shared: integer("shared", { mode: "boolean" }).notNull().default(false),
  ...timestamps,
}, (t) => [index("track_comments_track_at_idx").on(t.track_id, t.at_s)]);

/**
 * Who is to decide a (track, direction) pair (issue 24, docs/decisions/0233): one colleague per pair,
 * set by an admin or a moderator of the direction. A decision of the pair (its status changed by the
 * decision call) clears it by writing the call's id into `cleared_call`, so undoing that call brings
 * the assignment back; a row with `cleared_call` is no assignment. A row outlives its direction being
 * removed from the track and is ignored meanwhile, like `track_decisions`.
 */
export const trackAssignments = sqliteTable("track_assignments", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  assigned_by: integer("assigned_by").references(() => users.id, { onDelete: "set null" }),
  assigned_at: integer("assigned_at", { mode: "timestamp_ms" }).notNull(),
  cleared_call: text("cleared_call"),
}, (t) => [
  primaryKey({ columns: [t.track_id, t.direction] }),
  // «Мне назначено» (`assigned=me`) asks per track row for the caller's assignment: (user, track)
  // makes that one seek; on `user_id` alone SQLite read all of the person's rows for every track.
  index("track_assignments_user_track_idx").on(t.user_id, t.track_id),
]);

/**
 * Who is listening now (issue 24, docs/decisions/0234): each staff member's last played moment and
 * the track, one row per person (one hears one track at a time). Written by every listening report,
 * read by the queues' poll; shared by every instance through the database.
 */
export const trackPresence = sqliteTable("track_presence", {
  user_id: integer("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  at: integer("at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [index("track_presence_track_at_idx").on(t.track_id, t.at)]);

/**
 * Leases of the periodic jobs every instance runs but only one should run at a time (server/leases/):
 * the job's name, who holds it and until when (issue 25: the response promise's automatic decline;
 * issue 27: the Telegram bot's `getUpdates` polling, named `telegram-updates:<bot id>`). `cursor` is
 * where the job's work has got to, for the next holder to start from: for the poller, the `offset`
 * of the next `getUpdates` (the last handled `update_id` + 1, docs/decisions/0262); 0 for others.
 */
export const jobLeases = sqliteTable("job_leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  until: integer("until", { mode: "timestamp_ms" }).notNull(),
  cursor: integer("cursor").notNull().default(0),
});

/**
 * Intake rules per direction (issue 25), kept by admins on «Приём треков»: one row per direction
 * whose rules were ever saved; a direction without a row has the defaults (open, no cap, no
 * cooldown, tempo 160–190 flagged, a 14-day promise, declined 7 days after it). `staff_chat_id` is
 * the Telegram chat that gets the direction's track cards (issue 27); null: no cards.
 */
export const directionIntake = sqliteTable("direction_intake", {
  direction: text("direction").primaryKey(),
  open: integer("open", { mode: "boolean" }).notNull().default(true),
  pause_message: text("pause_message"),
  cap_per_30_days: integer("cap_per_30_days"),
  cooldown_hours: integer("cooldown_hours"),
  tempo_min: real("tempo_min").notNull().default(INTAKE_DEFAULTS.tempo_min),
  tempo_max: real("tempo_max").notNull().default(INTAKE_DEFAULTS.tempo_max),
  tempo_mode: text("tempo_mode", { enum: ["flag", "refuse"] }).notNull().default("flag"),
  promise_days: integer("promise_days").notNull().default(INTAKE_DEFAULTS.promise_days),
  auto_decline_after_days: integer("auto_decline_after_days").notNull().default(7),
  staff_chat_id: text("staff_chat_id"),
  /**
   * The direction's ready-made «не успели послушать» text of the automatic decline (may use
   * `{artist}` `{title}` `{direction}`); null: the built-in text (server/intake/rules.ts).
   */
  late_message: text("late_message"),
  /**
   * The label's release desk (issue 34): the catalogue number's prefix (null: the direction's
   * built-in one, domain/releases.ts), the next number staff are offered, and which extra files the
   * label asks the artist for besides the master.
   */
  catalogue_prefix: text("catalogue_prefix"),
  catalogue_next: integer("catalogue_next").notNull().default(1),
  release_extended: integer("release_extended", { mode: "boolean" }).notNull().default(false),
  release_instrumental: integer("release_instrumental", { mode: "boolean" }).notNull().default(false),
  updated_by: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  updated_at: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Resumable uploads (issue 26, server/uploads/resumable/): one row per file an artist has started and
 * not yet completed, its parts either in an S3 multipart upload (`mode` `s3`, `s3_upload_id`) or in
 * the server's part store under DATA_DIR (`local`). `id` is random and unguessable (it is the only
 * handle the browser keeps). An `open` row counts towards MAX_UPLOADS_PER_HOUR from `created_at`
 * (docs/decisions/0251); past `expires_at` (24 h) the sweep aborts it. `completing` while one
 * request turns it into a track; `completed` and `aborted` rows are kept for the count's history
 * and removed by the sweep a day later.
 */
export const UPLOAD_SESSION_STATES = ["open", "completing", "completed", "aborted"] as const;

export const uploadSessions = sqliteTable("upload_sessions", {
  id: text("id").primaryKey(),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  /** The name as it will be kept (NFC), checked by the upload rules at start. */
  filename: text("filename").notNull(),
  size: integer("size").notNull(),
  /** The file's modification time the browser gave (ms), so a page can match a file picked again. */
  last_modified: integer("last_modified"),
  /** Comma list of direction codes, as `tracks.directions`. */
  directions: text("directions").notNull(),
  ai_use: text("ai_use", { enum: ["no", "partly", "yes"] }),
  mode: text("mode", { enum: ["s3", "local"] }).notNull(),
  part_size: integer("part_size").notNull(),
  part_count: integer("part_count").notNull(),
  s3_upload_id: text("s3_upload_id"),
  /** The generated key the file gets in private storage (never the file name). */
  storage_key: text("storage_key").notNull(),
  created_at: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expires_at: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  state: text("state", { enum: UPLOAD_SESSION_STATES }).notNull().default("open"),
  /** Until when a `completing` claim holds; a completion cut off mid-way is taken again after it. */
  claimed_until: integer("claimed_until", { mode: "timestamp_ms" }),
  /** The track a `completed` upload became: a completion asked again (its answer lost) gets it again. */
  track_id: integer("track_id"),
  /**
   * A release's file (issue 34): `master`, `extended` or `instrumental` of the artist's release
   * `release_id`; its completion writes the `release_materials` row instead of a track. Null: a track.
   */
  material_kind: text("material_kind", { enum: ["master", "extended", "instrumental"] }),
  release_id: integer("release_id"),
}, (t) => [
  index("upload_sessions_user_created_idx").on(t.user_id, t.created_at),
  index("upload_sessions_state_expires_idx").on(t.state, t.expires_at),
]);

/** Ready-made decline messages to artists, kept by administrators (Russian, editable). */
export const declineTemplates = sqliteTable("decline_templates", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Short name shown in the decision form's menu. */
  title: text("title").notNull(),
  /** The message the artist gets; `{artist}`, `{title}`, `{direction}` are filled in (0224). */
  text: text("text").notNull(),
  /** The decision it goes with (docs/decisions/0224); the rows from before were all declines. */
  outcome: text("outcome", { enum: TEMPLATE_OUTCOMES }).notNull().default("declined"),
  ...timestamps,
});

export const faqs = sqliteTable("faqs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  question: text("question").notNull(),
  /** Sanitised HTML. */
  answer: text("answer").notNull(),
  order: integer("order").notNull(),
  ...timestamps,
}, (t) => [index("faqs_order_idx").on(t.order)]);

export const sliderTiles = sqliteTable("slider_tiles", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tile_type: text("tile_type", { enum: TILE_TYPES }).notNull(),
  /** File name under static/storage/slider/. */
  image_filename: text("image_filename"),
  redirect_url: text("redirect_url"),
  track_url: text("track_url"),
  ...timestamps,
});

/**
 * `superseded`: never sent, because a newer message about the same decision replaced it while it
 * waited, or it said what the artist was last told (docs/decisions/0200).
 */
export const TELEGRAM_OUTBOX_STATUSES = [
  "pending",
  "sending",
  "sent",
  "failed",
  "blocked",
  "skipped",
  "superseded",
] as const;
export type TelegramOutboxStatus = (typeof TELEGRAM_OUTBOX_STATUSES)[number];

/** The outbox's channels (issue 36): the artist's messages go to Telegram, VK or both. */
export const OUTBOX_CHANNELS = MESSAGE_CHANNELS;
export type OutboxChannel = MessageChannel;

/** Methods of the outbox's rows: messages to artists, and the staff cards and their edits (issue 27). */
export const TELEGRAM_OUTBOX_METHODS = [
  "sendMessage",
  "sendAudio",
  "editMessageText",
  "editMessageCaption",
  "editMessageReplyMarkup",
] as const;
export type TelegramOutboxMethod = (typeof TELEGRAM_OUTBOX_METHODS)[number];

/** `queued`: not sent yet; `sent`: `message_id` holds it; `failed`/`blocked`: it never reached the chat. */
export const TELEGRAM_CARD_STATES = ["queued", "sent", "failed", "blocked"] as const;
export type TelegramCardState = (typeof TELEGRAM_CARD_STATES)[number];

/**
 * The staff cards in Telegram (issue 27, server/notifications/telegram-desk/): one per track and
 * direction, posted to the direction's `direction_intake.staff_chat_id` when the track completes
 * processing. Its text and buttons are rendered when it is sent or edited, from the track's state
 * then; `shown_text` is what the chat shows now (an edit that changes only the buttons sends only
 * them). A button's callback data names the card's `id`, signed (callback-data.ts).
 */
export const telegramCards = sqliteTable("telegram_cards", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  chat_id: text("chat_id").notNull(),
  message_id: integer("message_id"),
  /** Sent with `sendAudio` (the clip): its text is a caption, edited with `editMessageCaption`. */
  has_audio: integer("has_audio", { mode: "boolean" }).notNull().default(false),
  state: text("state", { enum: TELEGRAM_CARD_STATES }).notNull().default("queued"),
  shown_text: text("shown_text"),
  /** The inline keyboard the chat shows now (JSON), or null when it has none. */
  shown_markup: text("shown_markup"),
  ...timestamps,
}, (t) => [
  uniqueIndex("telegram_cards_track_direction_idx").on(t.track_id, t.direction),
]);

/**
 * Telegram messages to artists (server/notifications/), written in the same batch as the change
 * they announce and sent afterwards by the sender. `key` is unique per change, so a change is
 * enqueued at most once. A `sending` row whose `lease_until` has passed was being sent by a
 * process that stopped: it is claimed again (at-least-once; docs/decisions/0157).
 */
export const telegramOutbox = sqliteTable("telegram_outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Unique with `channel`: one message goes out once per channel (issue 36). */
  key: text("key").notNull(),
  /**
   * Where the row is sent (issue 36, docs/decisions/0390): `telegram` (the Bot API; `chat_id` the
   * chat) or `vk` (the community's `messages.send`; `chat_id` is `vk:<user id>`).
   */
  channel: text("channel", { enum: OUTBOX_CHANNELS }).notNull().default("telegram"),
  user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  chat_id: text("chat_id").notNull(),
  text: text("text").notNull(),
  /**
   * The Bot API method (issue 27): `sendMessage` for the artists' messages; a staff card's rows are
   * `sendAudio`/`sendMessage` (the card) and its edits, rendered from `card_id` when they are sent.
   */
  method: text("method", { enum: TELEGRAM_OUTBOX_METHODS }).notNull().default("sendMessage"),
  /** Not a foreign key (SQLite cannot add one with ON DELETE to a table): a row whose card is gone is dropped. */
  card_id: integer("card_id"),
  status: text("status", { enum: TELEGRAM_OUTBOX_STATUSES }).notNull().default("pending"),
  attempts: integer("attempts").notNull().default(0),
  next_attempt_at: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
  /** Set with `sending`: the claim's id and until when it holds. */
  claim_id: text("claim_id"),
  lease_until: integer("lease_until", { mode: "timestamp_ms" }),
  last_error: text("last_error"),
  sent_at: integer("sent_at", { mode: "timestamp_ms" }),
  /**
   * When the row was last claimed for a try: a chat is tried at most once a second, across
   * processes (docs/decisions/0201).
   */
  attempted_at: integer("attempted_at", { mode: "timestamp_ms" }),
  ...timestamps,
}, (t) => [
  index("telegram_outbox_status_next_idx").on(t.status, t.next_attempt_at),
  index("telegram_outbox_chat_attempted_idx").on(t.chat_id, t.attempted_at),
  uniqueIndex("telegram_outbox_key_channel_unique").on(t.key, t.channel),
  // The VK community's pace across instances: tries over the last second (issue 36).
  index("telegram_outbox_channel_attempted_idx").on(t.channel, t.attempted_at),
]);

export type TelegramCard = typeof telegramCards.$inferSelect;
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Track = typeof tracks.$inferSelect;
export type NewTrack = typeof tracks.$inferInsert;
export type UploadSession = typeof uploadSessions.$inferSelect;
export type TrackAnalysisRow = typeof trackAnalysis.$inferSelect;
export type TrackDecisionRow = typeof trackDecisions.$inferSelect;
export type TrackCommentRow = typeof trackComments.$inferSelect;
export type DeclineTemplate = typeof declineTemplates.$inferSelect;
export type Faq = typeof faqs.$inferSelect;
export type SliderTile = typeof sliderTiles.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type OauthSession = typeof oauthSessions.$inferSelect;

/**
 * The release desk (issue 34): one release per track accepted for a label direction
 * (`label_neuropunk`, `label_koster`). `stage` moves materials_requested → materials_received →
 * scheduled → released, or to cancelled (a later decline); an undo within the decision's hold
 * removes the row. `revision` is checked on every staff change like a decision's. `label_copy` is
 * the artist's and staff's label copy as JSON; `isrc` is lifted out of it so
 * one ISRC is never given to two releases.
 */
export const RELEASE_STAGES = [
  "materials_requested",
  "materials_received",
  "scheduled",
  "released",
  "cancelled",
] as const;

export const releases = sqliteTable("releases", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  stage: text("stage", { enum: RELEASE_STAGES }).notNull().default("materials_requested"),
  revision: integer("revision").notNull().default(0),
  title: text("title"),
  version: text("version"),
  catalogue_number: text("catalogue_number"),
  /** The release day, YYYY-MM-DD (the label's calendar day). */
  release_date: text("release_date"),
  /** For staff only: never in an artist's answer. */
  note: text("note"),
  label_copy: text("label_copy", { mode: "json" }),
  isrc: text("isrc"),
  accepted_at: integer("accepted_at", { mode: "timestamp_ms" }).notNull(),
  materials_complete_at: integer("materials_complete_at", { mode: "timestamp_ms" }),
  released_at: integer("released_at", { mode: "timestamp_ms" }),
  /** When the artist was told what is needed (the sweep, once the decision's hold is over). */
  request_told_at: integer("request_told_at", { mode: "timestamp_ms" }),
  /** Reminders for missing materials sent (at most 4, at least 3 days apart) and the last one's time. */
  reminders_sent: integer("reminders_sent").notNull().default(0),
  reminded_at: integer("reminded_at", { mode: "timestamp_ms" }),
  ...timestamps,
}, (t) => [
  uniqueIndex("releases_track_direction_idx").on(t.track_id, t.direction),
  uniqueIndex("releases_direction_catalogue_idx").on(t.direction, t.catalogue_number),
  uniqueIndex("releases_isrc_idx").on(t.isrc),
  index("releases_direction_stage_idx").on(t.direction, t.stage),
]);

/** Every change of a release: who (null: the artist's own or the system), what, before and after (JSON). */
export const releaseHistory = sqliteTable("release_history", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  release_id: integer("release_id").notNull().references(() => releases.id, { onDelete: "cascade" }),
  user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  action: text("action").notNull(),
  before: text("before", { mode: "json" }),
  after: text("after", { mode: "json" }),
  created_at: integer("created_at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [index("release_history_release_idx").on(t.release_id, t.id)]);

/**
 * A release's files from the artist (issue 34): the master, an extended mix, an instrumental. One
 * row per release and kind (a new upload of a kind replaces the old one). `state`: `checking` while
 * the file is analysed, `accepted`, or `refused` with `reason` (Russian, for the artist). `report`
 * is the check's figures for staff (format, rate, depth, duration, loudness, true peak, clipped
 * samples, the fingerprint's match with the demo).
 */
export const RELEASE_MATERIAL_KINDS = ["master", "extended", "instrumental"] as const;
export const RELEASE_MATERIAL_STATES = ["checking", "accepted", "refused"] as const;

export const releaseMaterials = sqliteTable("release_materials", {
  release_id: integer("release_id").notNull().references(() => releases.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: RELEASE_MATERIAL_KINDS }).notNull(),
  state: text("state", { enum: RELEASE_MATERIAL_STATES }).notNull().default("checking"),
  reason: text("reason"),
  report: text("report", { mode: "json" }),
  filename: text("filename").notNull(),
  size: integer("size").notNull(),
  storage_key: text("storage_key").notNull(),
  ...timestamps,
}, (t) => [primaryKey({ columns: [t.release_id, t.kind] })]);

/**
 * Issue 36, VK community messages: per artist, the VK user allowed to receive the community's
 * messages (`vk_user_id`: bound by the Callback API's `message_allow` with the artist's key, or by a
 * VK ID sign-in), whether they allow it now (`vk_allowed`: `message_deny` and a `messages.send`
 * error 901 clear it), and the channels the artist chose for their answers (`channels`: a comma
 * list of `telegram`, `vk`; null: wherever they can receive). docs/decisions/0390–0393.
 */
export const artistChannels = sqliteTable("artist_channels", {
  user_id: integer("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  vk_user_id: text("vk_user_id").unique(),
  vk_allowed: integer("vk_allowed", { mode: "boolean" }).notNull().default(false),
  channels: text("channels"),
  ...timestamps,
});

/**
 * The shows' episode desk (issue 35): episodes of the four show directions (`podcast_neuropunk`,
 * `podcast_koster`, `show_neurogon`, `radio_k_profit`), numbered per direction. `aired_at` and `url`
 * are set by «aired»; until then the episode is staff-only and its running order may change.
 */
export const episodes = sqliteTable("episodes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  direction: text("direction").notNull(),
  number: integer("number").notNull(),
  title: text("title").notNull(),
  /** The planned air day, YYYY-MM-DD. */
  air_date: text("air_date").notNull(),
  revision: integer("revision").notNull().default(0),
  aired_at: integer("aired_at", { mode: "timestamp_ms" }),
  url: text("url"),
  created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  ...timestamps,
}, (t) => [
  uniqueIndex("episodes_direction_number_idx").on(t.direction, t.number),
  index("episodes_direction_aired_idx").on(t.direction, t.aired_at),
]);

/**
 * An episode's running order: one row per track, `position` from 1; `at_s` the cue (seconds into the
 * recording) given when it aired; `note` for staff. `direction` repeats the episode's so the pool
 * ("accepted, in no episode of the direction") reads one index.
 */
export const episodeTracks = sqliteTable("episode_tracks", {
  episode_id: integer("episode_id").notNull().references(() => episodes.id, { onDelete: "cascade" }),
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  position: integer("position").notNull(),
  note: text("note"),
  at_s: integer("at_s"),
}, (t) => [
  primaryKey({ columns: [t.episode_id, t.track_id] }),
  index("episode_tracks_direction_track_idx").on(t.direction, t.track_id),
]);

/**
 * What staff are told on an episode's page when a track left it because its pair stopped being
 * accepted (an undo within the hold, a decline): which track, why, when.
 */
export const episodeNotices = sqliteTable("episode_notices", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  episode_id: integer("episode_id").notNull().references(() => episodes.id, { onDelete: "cascade" }),
  track_id: integer("track_id").notNull(),
  filename: text("filename").notNull(),
  /** `undone` (the acceptance was undone) or the pair's new status (`declined`, `shortlisted`, …). */
  reason: text("reason").notNull(),
  created_at: integer("created_at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [index("episode_notices_episode_idx").on(t.episode_id, t.id)]);
// ---- issue 37: feedback that teaches (decline reasons, versions, ratings) ----

/**
 * The reasons a decision named (issue 37), per pair and per change: the row of the history entry
 * with the same (track, direction, revision). A pair's current reasons are those of its current
 * revision; an undo (a new revision) carries none.
 */
export const trackPairReasons = sqliteTable("track_pair_reasons", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  revision: integer("revision").notNull(),
  /** JSON list of reason codes (domain/decline-reasons.ts). */
  reasons: text("reasons").notNull(),
}, (t) => [primaryKey({ columns: [t.track_id, t.direction, t.revision] })]);

/**
 * A track sent as a new version of an earlier one of the same artist (issue 37). `original_id` is
 * the first track of the line (its own row has none), `number` the version's number (the original
 * is 1). `cooldown_passed`: this version was let past a direction's cooldown (once per original).
 */
export const trackVersions = sqliteTable("track_versions", {
  track_id: integer("track_id").primaryKey().references(() => tracks.id, { onDelete: "cascade" }),
  version_of: integer("version_of").references(() => tracks.id, { onDelete: "set null" }),
  original_id: integer("original_id").notNull(),
  number: integer("number").notNull(),
  cooldown_passed: integer("cooldown_passed", { mode: "boolean" }).notNull().default(false),
}, (t) => [index("track_versions_original_idx").on(t.original_id, t.number)]);

/** A resumable upload started as a new version (issue 37): linked when it completes. */
export const uploadVersions = sqliteTable("upload_versions", {
  upload_id: text("upload_id").primaryKey().references(() => uploadSessions.id, { onDelete: "cascade" }),
  version_of: integer("version_of").notNull(),
  cooldown_passed: integer("cooldown_passed", { mode: "boolean" }).notNull().default(false),
});

/**
 * The artist's rating of a decided pair's feedback (issue 37), once per pair. `staff_id` is who
 * decided the pair when it was rated (the dashboards' average per staff member).
 */
export const feedbackRatings = sqliteTable("feedback_ratings", {
  track_id: integer("track_id").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  direction: text("direction").notNull(),
  user_id: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  staff_id: integer("staff_id").references(() => users.id, { onDelete: "set null" }),
  rating: integer("rating").notNull(),
  words: text("words"),
  rated_at: integer("rated_at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [
  primaryKey({ columns: [t.track_id, t.direction] }),
  index("feedback_ratings_rated_at_idx").on(t.rated_at),
]);

/**
 * Issue 37: a completed upload the fingerprint's lookup finds to be another version of an earlier
 * track of the same artist (issue 38's kind "version": an edit, a remix, a new mixdown), not the same
 * recording: offered to the artist as a new version of `similar_to` until they link it
 * (`POST /api/tracks/{id}/version-of`).
 */
export const versionOffers = sqliteTable("version_offers", {
  track_id: integer("track_id").primaryKey().references(() => tracks.id, { onDelete: "cascade" }),
  similar_to: integer("similar_to").notNull().references(() => tracks.id, { onDelete: "cascade" }),
  created_at: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

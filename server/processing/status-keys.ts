import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type Track, tracks, type TrackStatus } from "../../db/schema.ts";
import { KV_KEYS, type StatusStore, STATUS_TTL_S } from "../lib/kv.ts";
import type { Logger } from "../lib/logger.ts";

/**
 * The fast keys the processing page polls (track_ids, track_status, errors, success; TTL 24 h).
 * The database is the record of truth: every write here is best effort (a status store that is down
 * is logged and skipped), and every read falls back to the database when a key is missing or the
 * store fails (docs/decisions/0022-status-keys-and-database-fallback.md).
 */

export interface TrackData {
  id: number;
  filename: string;
  /** A Date from the database, its ISO string when read back from the store; JSON makes both the same. */
  upload_date: Date | string;
  directions: string;
  size: number | null;
  duration: number | null;
  bitrate: number | null;
  sample_rate: number | null;
  channels: number | null;
  id3_artist: string | null;
  id3_title: string | null;
}

/** The value of `track_status:{id}`: the issue's `{ status, filename, error? }`, plus what the status call answers. */
export interface TrackStatusValue {
  status: TrackStatus;
  filename: string;
  error?: string;
  /** The owner, so the status call can check permission without the database. */
  user_id: number | null;
  track_data: TrackData;
}

export type StatusRow = Pick<
  Track,
  | "id"
  | "user_id"
  | "filename"
  | "upload_date"
  | "directions"
  | "status"
  | "error"
  | "size"
  | "duration"
  | "bitrate"
  | "sample_rate"
  | "channels"
  | "id3_artist"
  | "id3_title"
>;

export const STATUS_COLUMNS = {
  id: tracks.id,
  user_id: tracks.user_id,
  filename: tracks.filename,
  upload_date: tracks.upload_date,
  directions: tracks.directions,
  status: tracks.status,
  error: tracks.error,
  size: tracks.size,
  duration: tracks.duration,
  bitrate: tracks.bitrate,
  sample_rate: tracks.sample_rate,
  channels: tracks.channels,
  id3_artist: tracks.id3_artist,
  id3_title: tracks.id3_title,
} as const;

export function statusValue(row: StatusRow): TrackStatusValue {
  return {
    status: row.status,
    filename: row.filename,
    ...(row.error ? { error: row.error } : {}),
    user_id: row.user_id,
    track_data: {
      id: row.id,
      filename: row.filename,
      upload_date: row.upload_date,
      directions: row.directions,
      size: row.size,
      duration: row.duration,
      bitrate: row.bitrate,
      sample_rate: row.sample_rate,
      channels: row.channels,
      id3_artist: row.id3_artist,
      id3_title: row.id3_title,
    },
  };
}

/** One error line of a batch, as the processing page lists it. */
export function errorLine(row: Pick<Track, "filename" | "error">): string {
  return `${row.filename}: ${row.error ?? "Ошибка обработки"}`;
}

/** Error lines and success text of a batch; the success text appears only once every track has ended. */
export function batchSummary(rows: Array<Pick<Track, "status" | "filename" | "error">>) {
  const errors = rows.filter((r) => r.status === "failed").map(errorLine);
  const finished = rows.length > 0 && rows.every((r) => r.status !== "processing");
  const done = rows.filter((r) => r.status === "completed").length;
  let success = "";
  if (finished && done > 0) {
    success = done === rows.length
      ? rows.length === 1
        ? "Трек успешно загружен и прошёл проверку."
        : `Все треки успешно загружены и прошли проверку (${rows.length}).`
      : `Успешно загружено и проверено треков: ${done} из ${rows.length}.`;
  }
  return { errors, success, finished };
}

export function createStatusKeys(deps: { kv: StatusStore; db: Db; logger: Logger }) {
  const { kv, db, logger } = deps;

  /** Runs a status-store call; a failure is logged and answered with `fallback`. */
  async function safe<T>(what: string, fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      logger.warn("status store unavailable, using the database", { op: what, err });
      return fallback;
    }
  }

  // Batch summaries are rebuilt from the database one at a time per user, so two jobs finishing
  // together cannot overwrite each other's newer view with an older one.
  const chains = new Map<number, Promise<void>>();
  function serialise(userId: number, fn: () => Promise<void>): Promise<void> {
    const prev = chains.get(userId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    chains.set(userId, next);
    return next.finally(() => {
      if (chains.get(userId) === next) chains.delete(userId);
    });
  }

  async function batchRows(ids: number[]) {
    if (ids.length === 0) return [];
    return await db
      .select({ id: tracks.id, status: tracks.status, filename: tracks.filename, error: tracks.error })
      .from(tracks)
      .where(inArray(tracks.id, ids))
      .orderBy(asc(tracks.id));
  }

  /**
   * The user's latest batch from the database: the uploads (rows with a size, unlike tracks staff
   * add by hand) sharing the newest upload time, which one upload gives all its rows.
   */
  async function latestBatchFromDb(userId: number): Promise<number[]> {
    const uploaded = and(eq(tracks.user_id, userId), isNotNull(tracks.size));
    const [latest] = await db
      .select({ upload_date: tracks.upload_date })
      .from(tracks)
      .where(uploaded)
      .orderBy(desc(tracks.upload_date))
      .limit(1);
    if (!latest) return [];
    const rows = await db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(uploaded, eq(tracks.upload_date, latest.upload_date)))
      .orderBy(asc(tracks.id));
    return rows.map((r) => r.id);
  }

  async function batchIds(userId: number): Promise<number[]> {
    const ids = await safe("trackIds", () => kv.get<number[]>(KV_KEYS.trackIds(userId)), null);
    if (Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id))) return ids;
    return await latestBatchFromDb(userId);
  }

  return {
    /** A new batch: its ids, a `processing` status per track, and the previous batch's texts cleared. */
    async startBatch(userId: number, rows: StatusRow[]): Promise<void> {
      await safe("startBatch", async () => {
        await kv.del([KV_KEYS.errors(userId), KV_KEYS.success(userId)]);
        await Promise.all(rows.map((r) => kv.set(KV_KEYS.trackStatus(r.id), statusValue(r), STATUS_TTL_S)));
        await kv.set(KV_KEYS.trackIds(userId), rows.map((r) => r.id), STATUS_TTL_S);
      }, undefined);
    },

    /** A track reached its end state: its status key, then its batch's error lines and success text. */
    async trackFinished(row: StatusRow): Promise<void> {
      await safe("trackStatus", () => kv.set(KV_KEYS.trackStatus(row.id), statusValue(row), STATUS_TTL_S), undefined);
      const userId = row.user_id;
      if (userId === null) return;
      await serialise(userId, () =>
        safe("batchSummary", async () => {
          const ids = await kv.get<number[]>(KV_KEYS.trackIds(userId));
          // A newer batch replaced this one: its keys are not this track's business any more.
          if (!Array.isArray(ids) || !ids.includes(row.id)) return;
          const summary = batchSummary(await batchRows(ids));
          if (summary.errors.length) await kv.set(KV_KEYS.errors(userId), summary.errors, STATUS_TTL_S);
          if (summary.success) await kv.set(KV_KEYS.success(userId), summary.success, STATUS_TTL_S);
        }, undefined)
      );
    },

    /** `track_status:{id}` when present and well formed; null sends the caller to the database. */
    async readStatus(trackId: number): Promise<TrackStatusValue | null> {
      const v = await safe("readStatus", () => kv.get<TrackStatusValue>(KV_KEYS.trackStatus(trackId)), null);
      if (!v || typeof v !== "object" || typeof v.status !== "string" || !v.track_data || !("user_id" in v)) {
        return null;
      }
      return v;
    },

    /** The ids of the user's latest batch. */
    batchIds,

    async errors(userId: number): Promise<string[]> {
      const lines = await safe("errors", () => kv.get<string[]>(KV_KEYS.errors(userId)), null);
      if (Array.isArray(lines) && lines.length > 0) return lines.map(String);
      return batchSummary(await batchRows(await batchIds(userId))).errors;
    },

    async success(userId: number): Promise<string> {
      const text = await safe("success", () => kv.get<string>(KV_KEYS.success(userId)), null);
      if (typeof text === "string" && text) return text;
      return batchSummary(await batchRows(await batchIds(userId))).success;
    },
  };
}

export type StatusKeys = ReturnType<typeof createStatusKeys>;

import type { Db } from "../../db/client.ts";
import { type Track, tracks, type TrackStatus } from "../../db/schema.ts";
import { batchRows, continuesBatch, latestBatchFromDb } from "./batch-rule.ts";
import { KV_KEYS, STATUS_TTL_S, type StatusStore, StatusStoreUnavailable } from "../status-store/kv.ts";
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

/** `GET /api/status/{id}`'s answer for a key's value: the route and the lane in front of it send this (issue 15). */
export function statusAnswer(value: TrackStatusValue) {
  return { status: value.status, error: value.error ?? null, track_data: value.track_data };
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

/** A status key's value when well formed; null sends the caller to the database. */
function wellFormed(v: TrackStatusValue | null): TrackStatusValue | null {
  if (!v || typeof v !== "object" || typeof v.status !== "string" || !v.track_data || !("user_id" in v)) return null;
  return v;
}

/**
 * What the status-store calls moved out of `createStatusKeys` share: the store, the logger and the
 * stale keys (with the flush under way).
 */
interface StatusStoreState {
  kv: StatusStore;
  logger: Logger;
  /**
   * Keys whose write failed: once the store answers again it may still hold their older value (a
   * track "processing" that has since ended), so they are read from the database until they are
   * written again or removed from the store.
   */
  stale: Set<string>;
  flushing: Promise<void> | null;
}

function logFailure(st: StatusStoreState, what: string, err: unknown): void {
  // While the circuit is open every call fails at once; the store logged the outage already.
  if (err instanceof StatusStoreUnavailable && err.circuitOpen) st.logger.debug("status store skipped", { op: what });
  else st.logger.warn("status store unavailable, using the database", { op: what, err });
}

/** Runs a status-store call; a failure is logged and answered with `fallback`. */
async function safe<T>(st: StatusStoreState, what: string, fn: () => Promise<T>, fallback: T): Promise<T> {
  try {
    const out = await fn();
    if (st.stale.size > 0) flushStale(st);
    return out;
  } catch (err) {
    logFailure(st, what, err);
    return fallback;
  }
}

/** Writes `keys`: they turn stale when the write fails and fresh when it succeeds. */
async function write(st: StatusStoreState, what: string, keys: string[], fn: () => Promise<unknown>): Promise<void> {
  if (keys.length === 0) return;
  try {
    await fn();
  } catch (err) {
    for (const key of keys) st.stale.add(key);
    logFailure(st, what, err);
    return;
  }
  for (const key of keys) st.stale.delete(key);
  if (st.stale.size > 0) flushStale(st);
}

/** Removes the stale keys from the store once it answers again. */
function flushStale(st: StatusStoreState): void {
  if (st.flushing) return;
  const keys = [...st.stale];
  st.flushing = (async () => {
    try {
      for (let i = 0; i < keys.length; i += 500) {
        const chunk = keys.slice(i, i + 500);
        await st.kv.del(chunk);
        // A key written meanwhile is fresh again and already out of the set; the rest are gone.
        for (const key of chunk) st.stale.delete(key);
      }
    } catch {
      // Still unreachable: the keys stay stale and the next successful call tries again.
    } finally {
      st.flushing = null;
    }
  })();
}

/** One key's value, or null when it is missing, stale or the store is down (the caller asks the database). */
async function read<T>(st: StatusStoreState, what: string, key: string): Promise<T | null> {
  if (st.stale.has(key)) {
    flushStale(st);
    return null;
  }
  return await safe(st, what, () => st.kv.get<T>(key), null);
}

export function createStatusKeys(deps: { kv: StatusStore; db: Db; logger: Logger }) {
  const { kv, db, logger } = deps;
  const st: StatusStoreState = { kv, logger, stale: new Set<string>(), flushing: null };

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

  /** The batch's ids from the store, else from the database; `without`: tracks being added, left out. */
  async function batchIds(userId: number, without: readonly number[] = []): Promise<number[]> {
    const ids = await read<number[]>(st, "trackIds", KV_KEYS.trackIds(userId));
    if (Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id))) {
      return ids.filter((id) => !without.includes(id));
    }
    return await latestBatchFromDb(db, userId, without);
  }

  /** Writes a batch's keys: `ids` the whole batch, `rows` its new tracks (the others keep their status keys). */
  async function writeBatch(userId: number, rows: StatusRow[], ids: number[]): Promise<void> {
    // A batch continued keeps its earlier error lines; its success text waits for the new tracks.
    const cleared = ids.length === rows.length ? [KV_KEYS.errors(userId), KV_KEYS.success(userId)] : [
      KV_KEYS.success(userId),
    ];
    const keys = [...cleared, ...rows.map((r) => KV_KEYS.trackStatus(r.id)), KV_KEYS.trackIds(userId)];
    await write(st, "startBatch", keys, async () => {
      await kv.del(cleared);
      await Promise.all(rows.map((r) => kv.set(KV_KEYS.trackStatus(r.id), statusValue(r), STATUS_TTL_S)));
      await kv.set(KV_KEYS.trackIds(userId), ids, STATUS_TTL_S);
    });
  }

  return {
    /**
     * A new batch: its ids, a `processing` status per track, and the previous batch's texts cleared.
     * `startedAt`, a resumable upload's start: the user's current batch is continued instead when the
     * upload was started before its newest track was stored (batch-rule.ts, docs/decisions/0285).
     */
    async startBatch(userId: number, rows: StatusRow[], startedAt?: Date): Promise<void> {
      const fresh = rows.map((r) => r.id);
      if (!startedAt) return await writeBatch(userId, rows, fresh);
      await serialise(userId, async () => {
        const before = await batchIds(userId, fresh);
        const joined = await continuesBatch(db, before, startedAt);
        await writeBatch(userId, rows, joined ? [...before, ...fresh] : fresh);
      });
    },

    /** A track reached its end state: its status key, then its batch's error lines and success text. */
    async trackFinished(row: StatusRow): Promise<void> {
      const statusKey = KV_KEYS.trackStatus(row.id);
      await write(st, "trackStatus", [statusKey], () => kv.set(statusKey, statusValue(row), STATUS_TTL_S));
      const userId = row.user_id;
      if (userId === null) return;
      await serialise(userId, async () => {
        const ids = await batchIds(userId);
        // A newer batch replaced this one: its keys are not this track's business any more.
        if (!ids.includes(row.id)) return;
        const summary = batchSummary(await batchRows(db, ids));
        const texts: Array<[string, unknown]> = [];
        if (summary.errors.length) texts.push([KV_KEYS.errors(userId), summary.errors]);
        if (summary.success) texts.push([KV_KEYS.success(userId), summary.success]);
        await write(st, "batchSummary", texts.map(([key]) => key), async () => {
          for (const [key, value] of texts) await kv.set(key, value, STATUS_TTL_S);
        });
      });
    },

    /** `track_status:{id}` when present and well formed; null sends the caller to the database. */
    async readStatus(trackId: number): Promise<TrackStatusValue | null> {
      return wellFormed(await read<TrackStatusValue>(st, "readStatus", KV_KEYS.trackStatus(trackId)));
    },

    /**
     * `track_status:{id}`'s stored JSON text, read without a promise where the store holds it in this
     * process (the embedded store): null when missing or stale (the caller asks `readStatus`'s way),
     * undefined when the store cannot (Upstash). The same string while the value is unchanged
     * (decision 0188). `parseStatus` turns it into what `readStatus` would give.
     */
    rawStatus(trackId: number): string | null | undefined {
      if (!kv.peekRaw) return undefined;
      const key = KV_KEYS.trackStatus(trackId);
      if (st.stale.has(key)) {
        flushStale(st);
        return null;
      }
      return kv.peekRaw(key);
    },

    parseStatus(raw: string): TrackStatusValue | null {
      try {
        return wellFormed(JSON.parse(raw) as TrackStatusValue);
      } catch {
        return null;
      }
    },

    /** The ids of the user's latest batch. */
    batchIds: (userId: number) => batchIds(userId),

    async errors(userId: number): Promise<string[]> {
      const lines = await read<string[]>(st, "errors", KV_KEYS.errors(userId));
      if (Array.isArray(lines) && lines.length > 0) return lines.map(String);
      return batchSummary(await batchRows(db, await batchIds(userId))).errors;
    },

    async success(userId: number): Promise<string> {
      const text = await read<string>(st, "success", KV_KEYS.success(userId));
      if (typeof text === "string" && text) return text;
      return batchSummary(await batchRows(db, await batchIds(userId))).success;
    },
  };
}

export type StatusKeys = ReturnType<typeof createStatusKeys>;

import { and, asc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { trackAnalysis, tracks } from "../../db/schema.ts";
import type { AudioAnalysis } from "../audio/analyse-mp3.ts";
import { AUDIO_WARNINGS, type AudioWarning, isAudioWarning, STAFF_ONLY_WARNINGS } from "../../domain/audio-warnings.ts";
import type { Clock } from "../deps.ts";
import { notFound } from "../lib/http-error.ts";
import { type Scope, scopeSql } from "../tracks/scope.ts";

/**
 * The stored audio report of a track (server/audio, docs/decisions/0101-track-analysis.md): written
 * by processing and by the start-up pass over tracks completed before analysis existed, read by the
 * staff lists (as SQL pieces joined into their one-JSON-per-row query), the artist's list and the
 * listening call.
 */

/**
 * The analyser's version, stored with every report (`track_analysis.analysis_version`). Reports of an
 * older version are analysed again in the background (processing/reanalysis.ts, docs/decisions/0217).
 * 1: the reports written before versions were counted (issue 12's analyser, and issue 22's tempo
 * before its key and drop). 2: issue 22's tempo, drop and key. 3: issue 38's drop and the audio
 * fingerprint's version 2 (re-analysis stores the fingerprint again with the report: 0421). 4: the
 * key's chords heard and minor prior (0425). Bump it
 * when a change to server/audio changes what a stored report or a stored fingerprint says.
 */
export const ANALYSIS_VERSION = 4;

/**
 * Re-analysis attempts per report and version: claims are counted, so a file that kills the process
 * (or a storage fault that does not pass) is given up after this many, keeping its old report.
 */
export const REANALYSIS_MAX_ATTEMPTS = 3;

/** What every staff track object carries as `analysis` (null until analysed). */
export interface TrackAnalysisView {
  duration_s: number;
  bitrate_kbps: number;
  bitrate_mode: "cbr" | "vbr";
  sample_rate_hz: number;
  channels: number;
  loudness_lufs: number | null;
  true_peak_dbtp: number | null;
  clipped_samples: number;
  bpm: number | null;
  drop_s: number | null;
  /** The musical key, e.g. "F minor" (issue 22); null when none was read or the report is older. */
  key: string | null;
  /** Its Camelot code, e.g. "4A". */
  camelot: string | null;
  /** How sure the key is, 0–1; below KEY_SURE_CONFIDENCE the desk shows it as uncertain (issue 38). */
  key_confidence?: number | null;
  warnings: AudioWarning[];
}

/** What the artist sees of their own track (issue 12): length, bitrate and warnings. */
export type ArtistAnalysisView = Pick<TrackAnalysisView, "duration_s" | "bitrate_kbps" | "warnings">;

export const WARNING_CODES = AUDIO_WARNINGS;

/** Sort fields of the staff lists that come from the report, and their columns. */
export const ANALYSIS_SORT_COLUMNS = {
  duration: trackAnalysis.duration_s,
  bitrate: trackAnalysis.bitrate_kbps,
  loudness: trackAnalysis.loudness_lufs,
  bpm: trackAnalysis.bpm,
  drop: trackAnalysis.drop_s,
} as const;
export type AnalysisSortField = keyof typeof ANALYSIS_SORT_COLUMNS | "key";

/** The join every query that reads the report adds: at most one row per track. */
export const analysisJoin = eq(trackAnalysis.track_id, tracks.id);

/** A usable report: a row that is not a decode failure. */
const analysed = sql`(${trackAnalysis.track_id} IS NOT NULL AND ${trackAnalysis.error} IS NULL)`;

/**
 * A track's length in seconds, the one rule (joined with `analysisJoin`): the audio report's when
 * there is a usable one, else the length processing counted; null while neither is known. The
 * listening call shows it and the listening receipts cap played time by it.
 */
export const trackLengthS = sql<
  number | null
>`(CASE WHEN ${analysed} THEN ${trackAnalysis.duration_s} ELSE ${tracks.duration} / 1000.0 END)`;

/**
 * Tracks without a figure (not analysed yet, no file, undecodable) come last in both directions:
 * a sort by loudness is about the tracks that have one.
 */
export function analysisOrder(field: AnalysisSortField, descending: boolean): SQL[] {
  const dir = descending ? sql`DESC` : sql`ASC`;
  if (field === "key") {
    // The Camelot wheel's order, as DJs read it: 1A, 1B, 2A … 12B (number, then letter).
    const camelot = trackAnalysis.camelot;
    return [
      sql`(${camelot} IS NULL)`,
      sql`CAST(${camelot} AS INTEGER) ${dir}`,
      sql`${camelot} ${dir}`,
      sql`${tracks.id} ${dir}`,
    ];
  }
  const column = ANALYSIS_SORT_COLUMNS[field];
  return [sql`(${column} IS NULL)`, sql`${column} ${dir}`, sql`${tracks.id} ${dir}`];
}

/** `any`: at least one warning; a code: that warning. */
export function warningSql(warning: AudioWarning | "any"): SQL {
  if (warning === "any") return sql`(${analysed} AND ${trackAnalysis.warnings} <> '')`;
  return sql`instr(',' || coalesce(${trackAnalysis.warnings}, '') || ',', ${"," + warning + ","}) > 0`;
}

/** Fields of the report inside a row's `json_object(...)`; read back with `analysisFromJson`. */
export const analysisJsonFields = sql`'a_ok', ${analysed}, 'a_dur', ${trackAnalysis.duration_s},
  'a_kbps', ${trackAnalysis.bitrate_kbps}, 'a_mode', ${trackAnalysis.bitrate_mode},
  'a_rate', ${trackAnalysis.sample_rate_hz}, 'a_ch', ${trackAnalysis.channels},
  'a_lufs', ${trackAnalysis.loudness_lufs}, 'a_tp', ${trackAnalysis.true_peak_dbtp},
  'a_clip', ${trackAnalysis.clipped_samples}, 'a_bpm', ${trackAnalysis.bpm}, 'a_drop', ${trackAnalysis.drop_s},
  'a_key', ${trackAnalysis.musical_key}, 'a_cam', ${trackAnalysis.camelot}, 'a_warn', ${trackAnalysis.warnings},
  'a_kc', ${trackAnalysis.key_confidence}`;

export interface AnalysisJson {
  a_ok: number;
  a_dur: number | null;
  a_kbps: number | null;
  a_mode: "cbr" | "vbr" | null;
  a_rate: number | null;
  a_ch: number | null;
  a_lufs: number | null;
  a_tp: number | null;
  a_clip: number | null;
  a_bpm: number | null;
  a_drop: number | null;
  a_key: string | null;
  a_cam: string | null;
  a_warn: string | null;
  a_kc?: number | null;
}

const warningsOf = (text: string | null): AudioWarning[] => (text ?? "").split(",").filter(isAudioWarning);

export function analysisFromJson(r: AnalysisJson): TrackAnalysisView | null {
  if (!r.a_ok) return null;
  return {
    duration_s: r.a_dur!,
    bitrate_kbps: r.a_kbps!,
    bitrate_mode: r.a_mode!,
    sample_rate_hz: r.a_rate!,
    channels: r.a_ch!,
    loudness_lufs: r.a_lufs,
    true_peak_dbtp: r.a_tp,
    clipped_samples: r.a_clip!,
    bpm: r.a_bpm,
    drop_s: r.a_drop,
    key: r.a_key ?? null,
    camelot: r.a_cam ?? null,
    key_confidence: r.a_kc ?? null,
    warnings: warningsOf(r.a_warn),
  };
}

/** Columns for the artist's list: select them with `analysisJoin` and read with `artistAnalysis`. */
export const ARTIST_ANALYSIS_COLUMNS = {
  a_ok: sql<number>`${analysed}`,
  a_dur: trackAnalysis.duration_s,
  a_kbps: trackAnalysis.bitrate_kbps,
  a_warn: trackAnalysis.warnings,
};

export function artistAnalysis(
  r: { a_ok: number; a_dur: number | null; a_kbps: number | null; a_warn: string | null },
): ArtistAnalysisView | null {
  if (!Number(r.a_ok)) return null;
  // The intake rules' tempo flag is the staff's (issue 25).
  const warnings = warningsOf(r.a_warn).filter((w) => !STAFF_ONLY_WARNINGS.includes(w));
  return { duration_s: r.a_dur!, bitrate_kbps: r.a_kbps!, warnings };
}

export interface ListenSource {
  id: number;
  storage_key: string;
  filename: string;
  /** The stored file's bytes as recorded at upload; null for rows that never recorded it. */
  size: number | null;
  duration_s: number | null;
  peaks: [number, number][] | null;
}

/** A report's figures as columns, with the current version; a written report ends any re-analysis state. */
function reportColumns(a: AudioAnalysis) {
  return {
    duration_s: a.duration_s,
    bitrate_kbps: a.bitrate_kbps,
    bitrate_mode: a.bitrate_mode,
    sample_rate_hz: a.sample_rate_hz,
    channels: a.channels,
    loudness_lufs: a.loudness_lufs,
    true_peak_dbtp: a.true_peak_dbtp,
    clipped_samples: a.clipped_samples,
    bpm: a.bpm,
    bpm_confidence: a.bpm_confidence,
    drop_s: a.drop_s,
    musical_key: a.key,
    camelot: a.camelot,
    key_confidence: a.key_confidence,
    warnings: a.warnings.join(","),
    peaks: JSON.stringify(a.peaks),
    error: null,
    ...REANALYSIS_CLEARED,
  };
}

const REANALYSIS_CLEARED = {
  analysis_version: ANALYSIS_VERSION,
  reanalysis_owner: null,
  reanalysis_until: null,
  reanalysis_attempts: 0,
  reanalysis_version: null,
  reanalysis_error: null,
};

/**
 * A report to analyse again: older than ANALYSIS_VERSION, of a completed track that has its file,
 * not given up at this version, and not held (its lease, or the pause after a failure, ended by
 * `now`). Raw SQL over `track_analysis a` and `tracks t`.
 */
const reanalysisDue = (now: number) =>
  sql`a.analysis_version < ${ANALYSIS_VERSION} AND t.status = 'completed' AND t.storage_key IS NOT NULL
    AND (a.reanalysis_version IS NULL OR a.reanalysis_version <> ${ANALYSIS_VERSION}
      OR a.reanalysis_attempts < ${REANALYSIS_MAX_ATTEMPTS})
    AND (a.reanalysis_until IS NULL OR a.reanalysis_until <= ${now})`;

/** What the service's operations moved out of it use. */
interface AnalysisCtx {
  db: Db;
  clock: Clock;
}

/** `releaseReanalysis` of the service. */
async function releaseReanalysisIn(ctx: AnalysisCtx, owner: string, trackId?: number): Promise<number> {
  const { db } = ctx;
  const rows = await db
    .update(trackAnalysis)
    .set({
      reanalysis_owner: null,
      reanalysis_until: null,
      reanalysis_attempts: sql`max(0, ${trackAnalysis.reanalysis_attempts} - 1)`,
    })
    .where(
      and(
        eq(trackAnalysis.reanalysis_owner, owner),
        trackId === undefined ? undefined : eq(trackAnalysis.track_id, trackId),
      ),
    )
    .returning({ id: trackAnalysis.track_id });
  return rows.length;
}

/** `listenSource` of the service. */
async function listenSourceIn(
  ctx: AnalysisCtx,
  scope: Scope,
  trackId: number,
  fileMissing: (filename: string) => string,
): Promise<ListenSource> {
  const { db } = ctx;
  const [row] = await db
    .select({
      id: tracks.id,
      storage_key: tracks.storage_key,
      filename: tracks.filename,
      size: tracks.size,
      ok: sql<number>`${analysed}`,
      duration_s: trackLengthS,
      peaks: trackAnalysis.peaks,
    })
    .from(tracks)
    .leftJoin(trackAnalysis, analysisJoin)
    .where(and(eq(tracks.id, trackId), scopeSql(scope)))
    .limit(1);
  if (!row) throw notFound("Трек не найден");
  if (!row.storage_key) throw notFound(fileMissing(row.filename));
  const ok = Boolean(Number(row.ok));
  return {
    id: row.id,
    storage_key: row.storage_key,
    filename: row.filename,
    size: row.size,
    duration_s: row.duration_s,
    peaks: ok && row.peaks ? JSON.parse(row.peaks) : null,
  };
}

export function createTrackAnalysisService(ctx: { db: Db; clock: Clock }) {
  const { db } = ctx;

  async function write(trackId: number, values: Omit<typeof trackAnalysis.$inferInsert, "track_id" | "analysed_at">) {
    const row = { ...values, analysed_at: ctx.clock.now() };
    try {
      await db
        .insert(trackAnalysis)
        .values({ track_id: trackId, ...row })
        .onConflictDoUpdate({ target: trackAnalysis.track_id, set: row });
    } catch (err) {
      // The track was deleted while its file was read: there is nothing to attach the report to.
      const text = `${(err as Error)?.message ?? ""} ${String((err as { cause?: unknown })?.cause ?? "")}`;
      if (!/FOREIGN KEY constraint failed/i.test(text)) throw err;
    }
  }

  return {
    /** Stores (or replaces) the report of a track. */
    async save(trackId: number, a: AudioAnalysis): Promise<void> {
      await write(trackId, reportColumns(a));
    },

    /** A completed track whose file the decoder refuses: remembered, so the start-up pass skips it. */
    async saveError(trackId: number, error: string): Promise<void> {
      await write(trackId, { error, warnings: "", peaks: null, ...REANALYSIS_CLEARED });
    },

    // Re-analysis (processing/reanalysis.ts, docs/decisions/0217): the lease and the verdicts. They
    // write only `track_analysis`: the track's status, review and messages are never touched.

    /**
     * Takes the re-analysis lease of the next report due (the newest track first: the ones staff
     * are reviewing now), counting the attempt, in one statement, so of several instances asking at
     * once each gets a different track. The track and its stored file, else undefined.
     */
    async claimReanalysis(owner: string, until: Date): Promise<{ id: number; storage_key: string } | undefined> {
      const now = ctx.clock.now().getTime();
      const [row] = await db.all<{ track_id: number }>(sql`
        UPDATE ${trackAnalysis} SET reanalysis_owner = ${owner}, reanalysis_until = ${until.getTime()},
          reanalysis_attempts = CASE WHEN reanalysis_version = ${ANALYSIS_VERSION}
            THEN reanalysis_attempts + 1 ELSE 1 END,
          reanalysis_version = ${ANALYSIS_VERSION}
        WHERE track_id = (
          SELECT a.track_id FROM ${trackAnalysis} a JOIN ${tracks} t ON t.id = a.track_id
          WHERE ${reanalysisDue(now)} ORDER BY a.track_id DESC LIMIT 1
        ) AND track_id IN (
          SELECT a.track_id FROM ${trackAnalysis} a JOIN ${tracks} t ON t.id = a.track_id WHERE ${reanalysisDue(now)}
        )
        RETURNING track_id`);
      if (!row) return undefined;
      const id = Number(row.track_id);
      const [track] = await db.select({ key: tracks.storage_key }).from(tracks).where(eq(tracks.id, id)).limit(1);
      return { id, storage_key: track?.key ?? "" };
    },

    /** When a report not due now becomes due (a held lease or a pause ends); null when none waits. */
    async nextReanalysisAt(): Promise<Date | null> {
      const [row] = await db.all<{ at: number | null }>(sql`
        SELECT min(a.reanalysis_until) AS at FROM ${trackAnalysis} a JOIN ${tracks} t ON t.id = a.track_id
        WHERE ${reanalysisDue(Number.MAX_SAFE_INTEGER)}`);
      return row?.at === null || row?.at === undefined ? null : new Date(Number(row.at));
    },

    /** Extends a re-analysis lease `owner` holds; false when it no longer does. */
    async renewReanalysis(trackId: number, owner: string, until: Date): Promise<boolean> {
      const rows = await db
        .update(trackAnalysis)
        .set({ reanalysis_until: until })
        .where(and(eq(trackAnalysis.track_id, trackId), eq(trackAnalysis.reanalysis_owner, owner)))
        .returning({ id: trackAnalysis.track_id });
      return rows.length > 0;
    },

    /** Replaces the report with the new analysis while `owner` holds its lease; false when not written. */
    async saveReanalysis(trackId: number, a: AudioAnalysis, owner: string): Promise<boolean> {
      const rows = await db
        .update(trackAnalysis)
        .set({ ...reportColumns(a), analysed_at: ctx.clock.now() })
        .where(and(eq(trackAnalysis.track_id, trackId), eq(trackAnalysis.reanalysis_owner, owner)))
        .returning({ id: trackAnalysis.track_id });
      return rows.length > 0;
    },

    /**
     * A re-analysis that did not give a report: the old report stays as it was, the reason is kept.
     * `retryAt` null: given up at this version (the file is gone, the decoder refuses it); else the
     * attempt may be made again from then (a storage or database fault), up to the attempts' limit.
     */
    async failReanalysis(trackId: number, owner: string, error: string, retryAt: Date | null): Promise<void> {
      await db
        .update(trackAnalysis)
        .set({
          reanalysis_owner: null,
          reanalysis_until: retryAt,
          reanalysis_error: error.slice(0, 500),
          ...(retryAt ? {} : { reanalysis_attempts: REANALYSIS_MAX_ATTEMPTS }),
        })
        .where(and(eq(trackAnalysis.track_id, trackId), eq(trackAnalysis.reanalysis_owner, owner)));
    },

    /**
     * Gives up `owner`'s re-analysis leases (shutting down; or one track, given way to an upload):
     * the attempt is not counted, and any instance may take the track at once.
     */
    async releaseReanalysis(owner: string, trackId?: number): Promise<number> {
      return await releaseReanalysisIn(ctx, owner, trackId);
    },

    /** Completed tracks with a stored file and no report yet, oldest first. */
    async unanalysedIds(): Promise<number[]> {
      const rows = await db
        .select({ id: tracks.id })
        .from(tracks)
        .leftJoin(trackAnalysis, analysisJoin)
        .where(and(eq(tracks.status, "completed"), isNotNull(tracks.storage_key), isNull(trackAnalysis.track_id)))
        .orderBy(asc(tracks.id));
      return rows.map((r) => r.id);
    },

    /** The stored file of a completed track that still has no report (null when that has changed). */
    async fileToAnalyse(trackId: number): Promise<string | null> {
      const [row] = await db
        .select({ key: tracks.storage_key })
        .from(tracks)
        .leftJoin(trackAnalysis, analysisJoin)
        .where(and(eq(tracks.id, trackId), eq(tracks.status, "completed"), isNull(trackAnalysis.track_id)))
        .limit(1);
      return row?.key ?? null;
    },

    /**
     * What the listening call needs of a track visible to the scope: its stored file, and the peaks
     * and length when analysed (else the length processing counted, and no peaks). 404 outside the
     * scope, like a missing id, and 404 naming the track when it has no file.
     */
    async listenSource(
      scope: Scope,
      trackId: number,
      fileMissing: (filename: string) => string,
    ): Promise<ListenSource> {
      return await listenSourceIn(ctx, scope, trackId, fileMissing);
    },
  };
}

export type TrackAnalysisService = ReturnType<typeof createTrackAnalysisService>;

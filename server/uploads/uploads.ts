import { type SQL, sql } from "drizzle-orm";
import type { Direction } from "../../domain/directions.ts";
import { formatDirections } from "../../domain/staff-directions.ts";
import type { AiUse } from "../../domain/ai-use.ts";
import { tracks, uploadSessions } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import type { KeptListWrites } from "../tracks/kept-lists.ts";
import type { createStatusKeys, StatusRow } from "../processing/status-keys.ts";
import { insertUploadRows } from "../tracks/upload-rows.ts";

/**
 * An upload's rows (docs/decisions/0020, 0196): the hourly quota, and the insert of a stored
 * upload's files, queued for processing, with the batch's status keys.
 */

/** The hour MAX_UPLOADS_PER_HOUR counts over, sliding (docs/decisions/0196). */
export const UPLOAD_WINDOW_MS = 3_600_000;

/**
 * When each upload of `userId` counted by MAX_UPLOADS_PER_HOUR began, after `since` (ms): its tracks
 * by upload date, and its resumable uploads started and not yet a track or cancelled (issue 26: a
 * started upload counts, docs/decisions/0251). One `at` column.
 */
function countedUploadsSql(userId: number, since: number): SQL {
  return sql`SELECT upload_date AS at FROM ${tracks} WHERE user_id = ${userId} AND upload_date > ${since}
    UNION ALL
    SELECT created_at AS at FROM ${uploadSessions}
    WHERE user_id = ${userId} AND state IN ('open', 'completing') AND created_at > ${since}`;
}

/** How many uploads of `userId` MAX_UPLOADS_PER_HOUR counts now (`countedUploadsSql`), as SQL. */
export function countedUploadsNowSql(userId: number, now: number): SQL {
  return sql`(SELECT count(*) FROM (${countedUploadsSql(userId, now - UPLOAD_WINDOW_MS)}))`;
}

export function createUploadRows(
  ctx: Pick<AppDeps, "db" | "clock">,
  status: ReturnType<typeof createStatusKeys>,
  { afterWrite }: Pick<KeptListWrites, "afterWrite">,
) {
  const { db } = ctx;

  /** Inserts an upload's rows (within `hourlyLimit` files over the last hour when given; null when refused). */
  async function insertUploads(
    userId: number,
    files: ReadonlyArray<{ key: string; filename: string; size: number }>,
    directions: readonly Direction[],
    aiUse: AiUse | null,
    hourlyLimit?: number,
    startedAt?: Date,
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
      ai_use: aiUse ?? null,
    }));
    const within = hourlyLimit === undefined
      ? undefined
      : { limit: hourlyLimit, countedNow: countedUploadsNowSql(userId, now.getTime()) };
    const rows = await afterWrite(
      [userId],
      () => insertUploadRows(db, { userId, files, values, now, aiUse: aiUse ?? null, within }),
    );
    if (rows === null) return null;
    rows.sort((a, b) => a.id - b.id);
    await status.startBatch(userId, rows, startedAt);
    return rows;
  }

  return {
    /**
     * The files `userId` uploaded over the last hour (MAX_UPLOADS_PER_HOUR, docs/decisions/0196),
     * and, when `more` files would take them past `limit`, the seconds until enough of them have
     * left the hour (0 when they fit).
     */
    async uploadQuota(userId: number, limit: number, more: number): Promise<{ used: number; retryAfterS: number }> {
      const now = ctx.clock.now().getTime();
      const counted = countedUploadsSql(userId, now - UPLOAD_WINDOW_MS);
      const [{ used }] = await db.all<{ used: number }>(sql`SELECT count(*) AS used FROM (${counted})`);
      const leaving = Number(used) + more - limit;
      if (leaving <= 0) return { used: Number(used), retryAfterS: 0 };
      // More than the limit in one request never fits: a full hour.
      if (leaving > used) return { used: Number(used), retryAfterS: UPLOAD_WINDOW_MS / 1000 };
      const [oldest] = await db.all<{ at: number }>(
        sql`SELECT at FROM (${counted}) ORDER BY at LIMIT 1 OFFSET ${leaving - 1}`,
      );
      const freeAt = Number(oldest?.at ?? now) + UPLOAD_WINDOW_MS;
      return { used: Number(used), retryAfterS: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    },

    /**
     * Adds the rows of an upload (the files are stored already), queued for processing; `aiUse` is
     * the batch's answer to the AI question, kept on every row (null: not answered). `startedAt`, a
     * resumable upload's start, may continue the user's batch instead of starting one
     * (processing/batch-rule.ts).
     */
    async addUploads(
      userId: number,
      files: ReadonlyArray<{ key: string; filename: string; size: number }>,
      directions: readonly Direction[],
      aiUse: AiUse | null = null,
      startedAt?: Date,
    ): Promise<StatusRow[]> {
      return (await insertUploads(userId, files, directions, aiUse, undefined, startedAt))!;
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
      aiUse: AiUse | null = null,
    ): Promise<StatusRow[] | null> {
      return await insertUploads(userId, files, directions, aiUse, hourlyLimit);
    },
  };
}

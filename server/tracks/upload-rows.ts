import { inArray, type SQL, sql } from "drizzle-orm";
import { type NewTrack, tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { STATUS_COLUMNS, type StatusRow } from "../processing/status-keys.ts";

/** The rows of one stored upload, as uploads/uploads.ts makes them. */
export interface UploadRows {
  userId: number;
  files: ReadonlyArray<{ key: string; filename: string; size: number }>;
  values: NewTrack[];
  now: Date;
  aiUse: string | null;
  /** When given: the files only while the user's count of the last hour (this SQL), these added, stays within it. */
  within?: { limit: number; countedNow: SQL };
}

/**
 * Inserts an upload's track rows (docs/decisions/0020, 0196); null when `within` refuses them.
 * Within a limit it is one INSERT … SELECT over the files as a JSON array, guarded by the count of
 * the last hour, so two requests at once (on two instances too) cannot both pass it.
 */
export async function insertUploadRows(db: Db, upload: UploadRows): Promise<StatusRow[] | null> {
  const { userId, files, values, now, aiUse, within } = upload;
  if (within === undefined) return await db.insert(tracks).values(values).returning(STATUS_COLUMNS);
  // INSERT … SELECT over the files as a JSON array, guarded by the count of the last hour.
  const list = JSON.stringify(files.map((f) => [f.filename, f.key, f.size]));
  const added = await db.all<{ id: number }>(sql`
    INSERT INTO ${tracks} (user_id, filename, directions, upload_date, storage_key, size, status, ai_use)
    SELECT ${userId}, json_extract(f.value, '$[0]'), ${values[0]?.directions ?? ""}, ${now.getTime()},
           json_extract(f.value, '$[1]'), json_extract(f.value, '$[2]'), 'processing', ${aiUse}
    FROM json_each(${list}) AS f
    WHERE ${within.countedNow} + ${files.length} <= ${within.limit}
    ORDER BY f.key
    RETURNING id`);
  if (added.length === 0 && files.length > 0) return null;
  const ids = added.map((r) => Number(r.id));
  return ids.length ? await db.select(STATUS_COLUMNS).from(tracks).where(inArray(tracks.id, ids)) : [];
}

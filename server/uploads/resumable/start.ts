import { eq, type SQL, sql } from "drizzle-orm";
import type { Direction } from "../../../domain/directions.ts";
import { formatDirections } from "../../../domain/staff-directions.ts";
import { type UploadSession, uploadSessions } from "../../../db/schema.ts";
import { newTrackKey } from "../upload-routes.ts";
import { countedUploadsNowSql, UPLOAD_WINDOW_MS } from "../uploads.ts";
import type { MaterialKind } from "../../../domain/release-material.ts";
import { type ResumableDeps, UPLOAD_SESSION_TTL_MS, type UploadView, view } from "./session.ts";

/** Starting an upload (issue 26) within an artist's bounds (issue 32, docs/decisions/0296). */

/** S3 allows at most 10,000 parts. */
const MAX_PARTS = 10_000;

/** An artist's bounds on starting uploads (docs/decisions/0296): MAX_UPLOADS_PER_HOUR, MAX_OPEN_UPLOADS. */
export interface StartLimits {
  hourly: number;
  open: number;
}

export interface StartRefusal {
  over: "hour" | "open";
  retryAfterS: number;
}

/** When each upload `userId` started over the hour before `now` (ms) began, whatever became of it: `at`. */
function startedSql(userId: number, now: number): SQL {
  return sql`SELECT created_at AS at FROM ${uploadSessions}
    WHERE user_id = ${userId} AND created_at > ${now - UPLOAD_WINDOW_MS}`;
}

/** When each unfinished upload of `userId` (open or being completed, not expired at `now`) expires: `until`. */
function unfinishedSql(userId: number, now: number): SQL {
  return sql`SELECT expires_at AS until FROM ${uploadSessions}
    WHERE user_id = ${userId} AND state IN ('open', 'completing') AND expires_at > ${now}`;
}

export interface StartInput {
  filename: string;
  size: number;
  lastModified: number | null;
  directions: Direction[];
  aiUse: "no" | "partly" | "yes" | null;
  /** A release's file (issue 34) instead of a track: its completion writes the release's material. */
  material?: { kind: MaterialKind; releaseId: number };
}

/** 192 random bits, base64url: the only handle of an upload, so it must not be guessable. */
function newUploadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

/** The part size for a file: UPLOAD_PART_MB, larger only when the file would need more than 10,000 parts. */
function partSizeFor(d: ResumableDeps, size: number): number {
  const base = d.ctx.config.uploadPartBytes;
  if (Math.ceil(size / base) <= MAX_PARTS) return base;
  const mib = 1024 * 1024;
  return Math.ceil(size / MAX_PARTS / mib) * mib;
}

/** `start` of the service (its comment says what it does). */
export async function startUpload(
  d: ResumableDeps,
  userId: number,
  input: StartInput,
  limits?: StartLimits,
): Promise<UploadView | null> {
  const at = d.now();
  const partSize = partSizeFor(d, input.size);
  const values = {
    id: newUploadId(),
    user_id: userId,
    filename: input.filename,
    size: input.size,
    last_modified: input.lastModified,
    directions: formatDirections(input.directions),
    ai_use: input.aiUse,
    mode: d.s3 ? "s3" as const : "local" as const,
    part_size: partSize,
    part_count: Math.ceil(input.size / partSize),
    s3_upload_id: null,
    storage_key: newTrackKey(),
    created_at: at,
    expires_at: new Date(at.getTime() + UPLOAD_SESSION_TTL_MS),
    state: "open" as const,
    material_kind: input.material?.kind ?? null,
    release_id: input.material?.releaseId ?? null,
  };
  if (limits === undefined) await d.db.insert(uploadSessions).values(values);
  else {
    const added = await d.db.all<{ id: string }>(sql`
        INSERT INTO ${uploadSessions} (id, user_id, filename, size, last_modified, directions, ai_use, mode,
          part_size, part_count, storage_key, created_at, expires_at, state, material_kind, release_id)
        SELECT ${values.id}, ${userId}, ${values.filename}, ${values.size}, ${values.last_modified},
          ${values.directions}, ${values.ai_use}, ${values.mode}, ${values.part_size}, ${values.part_count},
          ${values.storage_key}, ${at.getTime()}, ${values.expires_at.getTime()}, 'open', ${values.material_kind},
          ${values.release_id}
        WHERE ${countedUploadsNowSql(userId, at.getTime())} + 1 <= ${limits.hourly}
          AND (SELECT count(*) FROM (${startedSql(userId, at.getTime())})) + 1 <= ${limits.hourly}
          AND (SELECT count(*) FROM (${unfinishedSql(userId, at.getTime())})) + 1 <= ${limits.open}
        RETURNING id`);
    if (added.length === 0) return null;
  }
  let row: UploadSession = { ...values, claimed_until: null, track_id: null };
  if (d.s3) {
    try {
      const uploadId = await d.s3.multipart.create(values.storage_key);
      await d.db.update(uploadSessions).set({ s3_upload_id: uploadId }).where(eq(uploadSessions.id, values.id));
      row = { ...row, s3_upload_id: uploadId };
    } catch (err) {
      await d.db.delete(uploadSessions).where(eq(uploadSessions.id, values.id));
      throw err;
    }
  }
  return await view(d, row, []);
}

/** `startRefusal` of the service (its comment says what it does). */
export async function startRefusalOf(
  d: ResumableDeps,
  userId: number,
  limits: StartLimits,
): Promise<StartRefusal | null> {
  const at = d.now().getTime();
  const secondsTo = (t: number) => Math.max(1, Math.ceil((t - at) / 1000));
  const started = await d.db.all<{ at: number }>(sql`SELECT at FROM (${startedSql(userId, at)}) ORDER BY at`);
  if (started.length + 1 > limits.hourly) {
    const freeing = started[started.length - limits.hourly];
    return { over: "hour", retryAfterS: secondsTo(Number(freeing.at) + UPLOAD_WINDOW_MS) };
  }
  const open = await d.db.all<{ until: number }>(
    sql`SELECT until FROM (${unfinishedSql(userId, at)}) ORDER BY until`,
  );
  if (open.length + 1 > limits.open) {
    return { over: "open", retryAfterS: secondsTo(Number(open[open.length - limits.open].until)) };
  }
  return null;
}

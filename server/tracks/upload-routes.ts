import { Hono } from "hono";
import type { Context } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { ApiError } from "../lib/http-error.ts";
import { receiveUpload } from "./receive-upload.ts";
import { tooManyUploadsMessage } from "./upload-rules.ts";
import { intakeGate } from "../intake/check.ts";

/**
 * A generated storage key, spread over 256 folders; the user's file name never becomes a path.
 * No extension: music-metadata picks its parser by a path's extension, and the processing job wants
 * the content to decide (a WAV renamed to .mp3 must not be read as MPEG).
 */
function newTrackKey(): string {
  const id = crypto.randomUUID();
  return `${id.slice(0, 2)}/${id}`;
}

/**
 * Streamed uploads: POST /api/upload (multipart: repeated `files`, repeated `directions`).
 * The body is not run through `validate()`: a zod validator needs the parsed form, which would hold
 * every file in memory. `receiveUpload` checks the same rules part by part instead.
 */
export function createUploadRoutes(ctx: AppContext) {
  const { maxUploadFiles, maxUploadFileBytes, maxUploadsPerHour } = ctx.config;

  /** The 429 of MAX_UPLOADS_PER_HOUR, with Retry-After (docs/decisions/0196). */
  function overLimit(c: Context<AppEnv>, quota: { used: number; retryAfterS: number }): ApiError {
    const retryAfterS = Math.max(1, quota.retryAfterS);
    c.header("Retry-After", String(retryAfterS));
    return new ApiError(
      429,
      tooManyUploadsMessage(maxUploadsPerHour, retryAfterS, Math.max(0, maxUploadsPerHour - quota.used)),
    );
  }

  return new Hono<AppEnv>().post("/upload", ctx.guards.user, async (c) => {
    const user = c.get("user");
    // Staff are not limited; an artist's files count over a sliding hour in the database, so every
    // instance sees the same count. Checked before the body is read: a full hour stores nothing.
    const limited = !user.is_admin && !user.is_moderator;
    if (limited) {
      const quota = await ctx.tracks.uploadQuota(user.id, maxUploadsPerHour, 1);
      if (quota.retryAfterS > 0) throw overLimit(c, quota);
    }
    // The intake rules (issue 25): read before the body, asked as its parts arrive. Staff are not
    // held by them, as by the hourly limit (docs/decisions/0238).
    const gate = limited ? await intakeGate(ctx.db, { userId: user.id, now: ctx.clock.now() }) : null;
    const { files, directions, discard } = await receiveUpload(c.req.raw, {
      storage: ctx.storage,
      maxFiles: maxUploadFiles,
      maxFileBytes: maxUploadFileBytes,
      idleTimeoutMs: ctx.config.uploadIdleTimeoutS * 1000,
      newKey: newTrackKey,
      checkSubmission: gate?.check,
    });

    let rows;
    try {
      rows = limited
        ? await ctx.tracks.addUploadsWithin(maxUploadsPerHour, user.id, files, directions)
        : await ctx.tracks.addUploads(user.id, files, directions);
    } catch (err) {
      await discard();
      throw err;
    }
    if (rows === null) {
      // More files than the hour has left (or another request took the rest meanwhile): none is kept.
      await discard();
      throw overLimit(c, await ctx.tracks.uploadQuota(user.id, maxUploadsPerHour, files.length));
    }
    for (const row of rows) ctx.processor.enqueue(row.id);
    ctx.logger.info("upload accepted", { userId: user.id, tracks: rows.length });
    return c.json({ success: true as const, track_ids: rows.map((r) => r.id) });
  });
}

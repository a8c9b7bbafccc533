import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { receiveUpload } from "./receive-upload.ts";

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
  const { maxUploadFiles, maxUploadFileBytes } = ctx.config;

  return new Hono<AppEnv>().post("/upload", ctx.guards.user, async (c) => {
    const user = c.get("user");
    const { files, directions, discard } = await receiveUpload(c.req.raw, {
      storage: ctx.storage,
      maxFiles: maxUploadFiles,
      maxFileBytes: maxUploadFileBytes,
      idleTimeoutMs: ctx.config.uploadIdleTimeoutS * 1000,
      newKey: newTrackKey,
    });

    let rows;
    try {
      rows = await ctx.tracks.addUploads(user.id, files, directions);
    } catch (err) {
      await discard();
      throw err;
    }
    for (const row of rows) ctx.processor.enqueue(row.id);
    ctx.logger.info("upload accepted", { userId: user.id, tracks: rows.length });
    return c.json({ success: true as const, track_ids: rows.map((r) => r.id) });
  });
}

import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { ApiError } from "../lib/http-error.ts";
import { receiveUpload } from "./receive-upload.ts";
import { tooManyUploadsMessage } from "./upload-rules.ts";
import { intakeGate } from "../intake/check.ts";
import type { Direction } from "../../domain/directions.ts";
import { checkVersion, linkVersion, parseVersionOf, planVersion, versionDirections } from "./versions.ts";

/**
 * A generated storage key, spread over 256 folders; the user's file name never becomes a path.
 * No extension: music-metadata picks its parser by a path's extension, and the processing job wants
 * the content to decide (a WAV renamed to .mp3 must not be read as MPEG).
 */
export function newTrackKey(): string {
  const id = crypto.randomUUID();
  return `${id.slice(0, 2)}/${id}`;
}

/** The 429 of MAX_UPLOADS_PER_HOUR, with Retry-After (docs/decisions/0196); also the resumable start's. */
export function overHourlyLimit(
  c: Context<AppEnv>,
  maxUploadsPerHour: number,
  quota: { used: number; retryAfterS: number },
): ApiError {
  const retryAfterS = Math.max(1, quota.retryAfterS);
  c.header("Retry-After", String(retryAfterS));
  return new ApiError(
    429,
    tooManyUploadsMessage(maxUploadsPerHour, retryAfterS, Math.max(0, maxUploadsPerHour - quota.used)),
  );
}

/**
 * Streamed uploads: POST /api/upload (multipart: repeated `files`, repeated `directions`, and the
 * AI question's `ai_use`, kept on every track of the batch).
 * The body is not run through `validate()`: a zod validator needs the parsed form, which would hold
 * every file in memory. `receiveUpload` checks the same rules part by part instead.
 */
export function createUploadRoutes(ctx: AppContext) {
  const { maxUploadFiles, maxUploadFileBytes, maxUploadsPerHour } = ctx.config;

  const overLimit = (c: Context<AppEnv>, quota: { used: number; retryAfterS: number }) =>
    overHourlyLimit(c, maxUploadsPerHour, quota);

  return new Hono<AppEnv>().post("/upload", ctx.guards.user, async (c) => {
    const user = c.get("user");
    // Staff are not limited; an artist's files count over a sliding hour in the database, so every
    // instance sees the same count. Checked before the body is read: a full hour stores nothing.
    const limited = !user.is_admin && !user.is_moderator;
    if (limited) {
      const quota = await ctx.uploads.uploadQuota(user.id, maxUploadsPerHour, 1);
      if (quota.retryAfterS > 0) throw overLimit(c, quota);
    }
    // The intake rules (issue 25): read before the body, asked as its parts arrive. Staff are not
    // held by them, as by the hourly limit (docs/decisions/0238).
    const gate = limited ? await intakeGate(ctx.db, { userId: user.id, now: ctx.clock.now() }) : null;
    // A new version of the artist's own track (issue 37): `?version_of=<id>`, known before the body.
    const versionOf = parseVersionOf(c.req.query("version_of"));
    const plan = versionOf === undefined ? null : await planVersion(ctx.db, user.id, versionOf);
    let cooldownPassed = false;
    const checkSubmission = plan
      ? (named: readonly Direction[], n: number) => {
        cooldownPassed = checkVersion(gate?.check, plan, versionDirections(plan, named), n);
      }
      : gate?.check;
    const { files, directions, aiUse, discard } = await receiveUpload(c.req.raw, {
      storage: ctx.storage,
      maxFiles: maxUploadFiles,
      maxFileBytes: maxUploadFileBytes,
      idleTimeoutMs: ctx.config.uploadIdleTimeoutS * 1000,
      newKey: newTrackKey,
      checkSubmission,
      defaultDirections: plan?.open,
    }).catch((err) => {
      // A cap or a cooldown says when to come back, as the hourly limit does.
      const retry = err instanceof ApiError && err.status === 429 ? err.extra?.retry_after_s : undefined;
      if (typeof retry === "number") c.header("Retry-After", String(retry));
      throw err;
    });

    let rows;
    try {
      rows = limited
        ? await ctx.uploads.addUploadsWithin(maxUploadsPerHour, user.id, files, directions, aiUse)
        : await ctx.uploads.addUploads(user.id, files, directions, aiUse);
    } catch (err) {
      await discard();
      throw err;
    }
    if (rows === null) {
      // More files than the hour has left (or another request took the rest meanwhile): none is kept.
      await discard();
      throw overLimit(c, await ctx.uploads.uploadQuota(user.id, maxUploadsPerHour, files.length));
    }
    if (plan) {
      await linkVersion(ctx.db, { trackId: rows[0].id, plan, cooldownPassed, directions, at: ctx.clock.now() });
    }
    for (const row of rows) ctx.processor.enqueue(row.id);
    ctx.logger.info("upload accepted", { userId: user.id, tracks: rows.length });
    return c.json({ success: true as const, track_ids: rows.map((r) => r.id) });
  });
}

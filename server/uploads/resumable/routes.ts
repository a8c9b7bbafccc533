import { type Context, Hono } from "hono";
import { checkIntake, intakeGate } from "../../intake/check.ts";
import { checkVersion, parseVersionOf, planVersion, rememberUploadVersion, versionDirections } from "../versions.ts";
import { z } from "zod";
import type { Direction } from "../../../domain/directions.ts";
import type { AppEnv } from "../../deps.ts";
import type { AppContext } from "../../wiring.ts";
import { ApiError, badRequest, notFound, tooLarge } from "../../lib/http-error.ts";
import { validate } from "../../http/validate.ts";
import {
  addDirections,
  checkFilePart,
  emptyFaults,
  faultRecords,
  faultsMessage,
  NO_DIRECTIONS_MESSAGE,
  NO_FILES_MESSAGE,
  normaliseFilename,
} from "../upload-rules.ts";
import { fileTooLargeMessage, isFileTooLarge } from "../../../domain/upload-limits.ts";
import { overHourlyLimit } from "../upload-routes.ts";
import {
  createResumableUploads,
  EMPTY_FILE_MESSAGE,
  type StartLimits,
  tooManyOpenUploadsMessage,
  UPLOAD_NOT_FOUND,
} from "./service.ts";
import { aiUseInput } from "../../tracks/schemas.ts";
import { MATERIAL_KINDS } from "../../../domain/release-material.ts";
import { MATERIAL_KIND_MESSAGE, RELEASE_ID_MESSAGE, startMaterialUpload } from "./material-start.ts";

/**
 * The resumable upload protocol (issue 26; the contract in docs/decisions/0250):
 *   POST   /api/upload/resumable                  start: the file checked as POST /api/upload checks it
 *   GET    /api/upload/resumable                  the artist's own unfinished uploads (issue 31)
 *   GET    /api/upload/resumable/:id              parts done, fresh part addresses (S3)
 *   PUT    /api/upload/resumable/:id/parts/:n     one part's bytes (local disk only)
 *   POST   /api/upload/resumable/:id/complete     the track, queued for processing (or a release's
 *                                                 file with `kind` and `release_id`, queued for its check)
 *   DELETE /api/upload/resumable/:id              cancel, parts removed
 * The part route's raw body is let past the 1 MiB JSON limit by app.ts (`isResumablePartPath`).
 */

const startSchema = z.object({
  filename: z.string({ error: NO_FILES_MESSAGE }).max(4096, NO_FILES_MESSAGE),
  size: z.number({ error: "Некорректное значение поля size" }).int("Некорректное значение поля size").min(
    0,
    "Некорректное значение поля size",
  ),
  last_modified: z.number().int().min(0).max(8.64e15).nullish(),
  // The same format as POST /api/upload's `directions` field: "a,b" (repeated fields as a list).
  directions: z.union([z.string().max(4096), z.array(z.string().max(4096)).max(64)], {
    error: NO_DIRECTIONS_MESSAGE,
  }).optional(),
  // The AI question's answer, read as POST /api/upload reads its `ai_use` field (one text, one rule).
  ai_use: aiUseInput.optional(),
  // A release's file instead of a track (issue 34): its kind and the artist's own release.
  kind: z.enum(MATERIAL_KINDS, { error: MATERIAL_KIND_MESSAGE }).optional(),
  release_id: z.number({ error: RELEASE_ID_MESSAGE }).int(RELEASE_ID_MESSAGE).min(1, RELEASE_ID_MESSAGE).max(
    2 ** 53 - 1,
    RELEASE_ID_MESSAGE,
  ).optional(),
  // A new version of the caller's own track (issue 37; uploads/versions.ts).
  version_of: z.union([z.number(), z.string().max(20), z.null()]).optional(),
});

/** Upload ids are 32 base64url characters; anything else cannot exist. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{32}$/;

function uploadId(raw: string): string {
  if (!UPLOAD_ID.test(raw)) throw notFound(UPLOAD_NOT_FOUND);
  return raw;
}

/**
 * A part number as the path gives it: plain decimal without leading zeros (`1`…`10000`); any other
 * form (`01`, `00001`, `+1`, `1e0`) is 0, refused by the service with 400 (issue 32).
 */
export function partNumber(raw: string): number {
  return /^[1-9]\d{0,4}$/.test(raw) ? Number(raw) : 0;
}

/** The part route, for app.ts's body limit: its raw body is a part, up to UPLOAD_PART_MB. */
export function isResumablePartPath(path: string): boolean {
  return /^\/api\/upload\/resumable\/[^/]+\/parts\/[^/]+\/?$/.test(path);
}

export function createResumableRoutes(ctx: AppContext) {
  const uploads = createResumableUploads(ctx);
  const { maxUploadFileBytes, maxUploadsPerHour } = ctx.config;
  const limits: StartLimits = { hourly: maxUploadsPerHour, open: ctx.config.maxOpenUploads };

  /**
   * An artist's start past a bound, refused with 429 and Retry-After (docs/decisions/0196, 0296):
   * the files of the last hour (tracks and unfinished uploads), the uploads started over the last
   * hour whatever became of them, the unfinished uploads at once.
   */
  async function refuseOverLimits(c: Context<AppEnv>, userId: number): Promise<void> {
    const quota = await ctx.uploads.uploadQuota(userId, maxUploadsPerHour, 1);
    if (quota.retryAfterS > 0) throw overHourlyLimit(c, maxUploadsPerHour, quota);
    const refusal = await uploads.startRefusal(userId, limits);
    if (refusal?.over === "hour") {
      throw overHourlyLimit(c, maxUploadsPerHour, { used: maxUploadsPerHour, retryAfterS: refusal.retryAfterS });
    }
    if (refusal?.over === "open") {
      c.header("Retry-After", String(refusal.retryAfterS));
      throw new ApiError(429, tooManyOpenUploadsMessage(limits.open, refusal.retryAfterS));
    }
  }

  return new Hono<AppEnv>()
    .post("/upload/resumable", ctx.guards.user, validate("json", startSchema), async (c) => {
      const user = c.get("user");
      const body = c.req.valid("json");
      // As POST /api/upload: staff are not limited, and a full hour is refused before anything else.
      const limited = !user.is_admin && !user.is_moderator;
      if (limited) await refuseOverLimits(c, user.id);
      if (body.kind !== undefined || body.release_id !== undefined) {
        const upload = await startMaterialUpload(ctx, uploads, user.id, body, limited ? limits : undefined);
        if (upload === null) {
          await refuseOverLimits(c, user.id);
          throw overHourlyLimit(c, maxUploadsPerHour, { used: maxUploadsPerHour, retryAfterS: 1 });
        }
        return c.json({ success: true as const, upload }, 201);
      }
      // The file by the same rules and texts as a `files` part of POST /api/upload (upload-rules.ts).
      // No type is declared here: the content is checked by the processing job, as for a part sent
      // as application/octet-stream.
      if (!body.filename) throw badRequest(NO_FILES_MESSAGE);
      const filename = normaliseFilename(body.filename);
      const problem = checkFilePart(filename, "");
      if (problem) {
        const faults = emptyFaults();
        faults[problem].push(filename);
        throw badRequest(faultsMessage(faults), { invalid_files: faultRecords(faults) });
      }
      if (isFileTooLarge(body.size, maxUploadFileBytes)) {
        throw tooLarge(fileTooLargeMessage(filename, maxUploadFileBytes));
      }
      if (body.size === 0) throw badRequest(EMPTY_FILE_MESSAGE);
      const named: Direction[] = [];
      for (const value of [body.directions ?? []].flat()) {
        const error = addDirections(named, value);
        if (error) throw badRequest(error);
      }
      // A new version (issue 37): the original's directions still open, or those of them named.
      const versionOf = parseVersionOf(body.version_of);
      const plan = versionOf === undefined ? null : await planVersion(ctx.db, user.id, versionOf);
      const directions = plan ? versionDirections(plan, named) : named;
      if (directions.length === 0) throw badRequest(NO_DIRECTIONS_MESSAGE);
      let cooldownPassed = false;

      // The intake rules (issue 25, docs/decisions/0238), as POST /api/upload checks them: a paused
      // direction 409, a cap or a cooldown 429 with Retry-After. Checked at the start only: an upload
      // the artist was let start is let finish. Staff are not held.
      if (limited || plan) {
        const refused = (err: unknown) => {
          const retry = err instanceof ApiError && err.status === 429 ? err.extra?.retry_after_s : undefined;
          if (typeof retry === "number") c.header("Retry-After", String(retry));
          throw err;
        };
        if (plan) {
          const gate = limited ? await intakeGate(ctx.db, { userId: user.id, now: ctx.clock.now() }) : null;
          try {
            cooldownPassed = checkVersion(gate?.check, plan, directions, 1);
          } catch (err) {
            refused(err);
          }
        } else {
          await checkIntake(ctx.db, { userId: user.id, directions, now: ctx.clock.now() }).catch(refused);
        }
      }

      const upload = await uploads.start(user.id, {
        filename,
        size: body.size,
        lastModified: body.last_modified ?? null,
        directions,
        aiUse: body.ai_use ?? null,
      }, limited ? limits : undefined);
      if (upload === null) {
        // Another start or upload took the last place meanwhile.
        await refuseOverLimits(c, user.id);
        throw overHourlyLimit(c, maxUploadsPerHour, { used: maxUploadsPerHour, retryAfterS: 1 });
      }
      if (plan) await rememberUploadVersion(ctx.db, upload.id, plan, cooldownPassed);
      return c.json({ success: true as const, upload }, 201);
    })
    .get("/upload/resumable", ctx.guards.user, async (c) => {
      const uploadsList = await uploads.list(c.get("user").id);
      return c.json({ success: true as const, uploads: uploadsList });
    })
    .get("/upload/resumable/:id", ctx.guards.user, async (c) => {
      const upload = await uploads.status(c.get("user").id, uploadId(c.req.param("id")));
      return c.json({ success: true as const, upload });
    })
    .put("/upload/resumable/:id/parts/:n", ctx.guards.user, async (c) => {
      const n = partNumber(c.req.param("n"));
      const length = c.req.header("content-length");
      await uploads.putPart(
        c.get("user").id,
        uploadId(c.req.param("id")),
        n,
        c.req.raw.body,
        length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
      );
      return c.json({ success: true as const, part: n });
    })
    .post("/upload/resumable/:id/complete", ctx.guards.user, async (c) => {
      const done = await uploads.complete(c.get("user").id, uploadId(c.req.param("id")));
      return c.json({ success: true as const, ...done });
    })
    .delete("/upload/resumable/:id", ctx.guards.user, async (c) => {
      await uploads.abort(c.get("user").id, uploadId(c.req.param("id")));
      return c.json({ success: true as const });
    });
}

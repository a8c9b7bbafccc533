import type { AppContext } from "../../wiring.ts";
import { badRequest, tooLarge } from "../../lib/http-error.ts";
import { fileTooLargeMessage, isFileTooLarge } from "../../../domain/upload-limits.ts";
import { type MaterialKind, materialNameProblem } from "../../../domain/release-material.ts";
import { normaliseFilename } from "../upload-rules.ts";
import { EMPTY_FILE_MESSAGE, type ResumableUploads, type StartLimits, type UploadView } from "./service.ts";

export const MATERIAL_KIND_MESSAGE = "Поле kind: master, extended или instrumental.";
export const RELEASE_ID_MESSAGE = "Поле release_id: номер релиза.";

/**
 * The start of a release's file (issue 34; docs/decisions/0361): `kind` and the artist's own
 * `release_id` in a stage that takes files, a WAV, FLAC or AIFF name (domain/release-material.ts,
 * not the MP3 name rule), up to MAX_MASTER_FILE_MB. No directions, no intake rules: it is not a
 * submission. The hourly and open-upload bounds hold as for tracks. Null when those bounds refused it.
 */
export async function startMaterialUpload(
  ctx: AppContext,
  uploads: ResumableUploads,
  userId: number,
  body: { filename: string; size: number; last_modified?: number | null; kind?: MaterialKind; release_id?: number },
  limits: StartLimits | undefined,
): Promise<UploadView | null> {
  if (body.kind === undefined) throw badRequest(MATERIAL_KIND_MESSAGE);
  if (body.release_id === undefined) throw badRequest(RELEASE_ID_MESSAGE);
  const filename = normaliseFilename(body.filename);
  const problem = materialNameProblem(filename);
  if (problem) throw badRequest(problem);
  if (isFileTooLarge(body.size, ctx.config.maxMasterFileBytes)) {
    throw tooLarge(fileTooLargeMessage(filename, ctx.config.maxMasterFileBytes));
  }
  if (body.size === 0) throw badRequest(EMPTY_FILE_MESSAGE);
  await ctx.releaseMaterials.uploadTarget(userId, body.release_id);
  return await uploads.start(userId, {
    filename,
    size: body.size,
    lastModified: body.last_modified ?? null,
    directions: [],
    aiUse: null,
    material: { kind: body.kind, releaseId: body.release_id },
  }, limits);
}

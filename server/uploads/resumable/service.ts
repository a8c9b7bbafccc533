import type { UploadSession } from "../../../db/schema.ts";
import type { AppContext } from "../../wiring.ts";
import { createLocalPartStore, type PartStore } from "../../storage/part-store.ts";
import { isS3Storage, type S3Storage } from "../../storage/s3-file-storage.ts";
import { completeUpload } from "./complete.ts";
import { listOpen, putPart, statusOf } from "./parts.ts";
import { type CompleteResult, partsOf, type ResumableDeps, setState, type UploadView } from "./session.ts";
import { type StartInput, type StartLimits, type StartRefusal, startRefusalOf, startUpload } from "./start.ts";
import { abortUpload, sweepUploads } from "./sweep.ts";

/**
 * Resumable uploads (issue 26, docs/decisions/0250–0253): a file sent in parts that survive a dropped
 * connection. With S3_BUCKET the parts go from the browser straight to an S3 multipart upload through
 * presigned addresses, and the server never sees the bytes; on local disk the server takes each part
 * on its own endpoint into the part store. Completing checks the parts, then the file becomes a track
 * exactly as one of POST /api/upload (`ctx.uploads.addUploads`, the processing queue).
 */

// The service's API, each part in the file of its job: session.ts (shared), start.ts, parts.ts,
// complete.ts (and complete-material.ts, a release's file), sweep.ts (abort, the sweep), messages.ts.
export * from "./messages.ts";
export { COMPLETING_CLAIM_MS } from "./complete.ts";
export {
  type CompleteResult,
  expectedPartSize,
  PART_URL_TTL_S,
  UPLOAD_SESSION_TTL_MS,
  type UploadView,
  wholeParts,
} from "./session.ts";
export type { StartInput, StartLimits, StartRefusal } from "./start.ts";

export function createResumableUploads(ctx: AppContext) {
  const { db } = ctx;
  const s3: S3Storage | null = isS3Storage(ctx.storage) ? ctx.storage : null;
  const parts: PartStore = createLocalPartStore(`${ctx.config.dataDir}/upload-parts`);
  const now = () => ctx.clock.now();

  const d: ResumableDeps = { ctx, db, s3, parts, now };

  return {
    mode: (s3 ? "s3" : "local") as "s3" | "local",

    /**
     * Starts an upload whose file the caller has checked. `limits` (an artist's; staff have none):
     * the row is added only while the artist's counted uploads (tracks and started uploads of the
     * last hour) stay within `hourly`, the uploads started over the last hour whatever became of them
     * too, and the unfinished ones within `open` (issue 32, docs/decisions/0296), in one statement, so
     * two starts at once on two instances cannot both pass. Null when refused (`startRefusal` says why).
     */
    async start(userId: number, input: StartInput, limits?: StartLimits): Promise<UploadView | null> {
      return await startUpload(d, userId, input, limits);
    },

    /**
     * Why a start within `limits` would be refused now, and in how many seconds it would pass:
     * "hour" when `hourly` uploads were started over the last hour (cancelled ones included), "open"
     * when `open` are unfinished (until the earliest of them expires; completing or cancelling one
     * frees its place at once). Null when a start fits.
     */
    startRefusal: (userId: number, limits: StartLimits): Promise<StartRefusal | null> =>
      startRefusalOf(d, userId, limits),

    /** The owner's upload with its finished parts and fresh addresses for the rest. */
    status: (userId: number, id: string): Promise<UploadView> => statusOf(d, userId, id),

    /** The owner's unfinished uploads, for the upload page (issue 31; `listOpen`). */
    list: (userId: number) =>
      listOpen(ctx, userId, (row: UploadSession) => partsOf(d, row), (id) => setState(d, id, "open", "aborted")),

    /** One part of a local-mode upload, streamed into the part store (replacing an earlier copy). */
    putPart: (
      userId: number,
      id: string,
      n: number,
      body: ReadableStream<Uint8Array> | null,
      declaredLength: number | null,
    ): Promise<void> => putPart(d, userId, id, n, body, declaredLength),

    /**
     * Checks the parts and turns the upload into a track queued for processing. Only one request
     * completes an upload (the `completing` claim); a refusal for missing or wrong parts leaves it
     * open to be continued, an over-size file is aborted and its parts removed.
     */
    complete: (userId: number, id: string): Promise<CompleteResult> => completeUpload(d, userId, id),

    /** Cancels the owner's upload and frees its parts. */
    abort: (userId: number, id: string): Promise<void> => abortUpload(d, userId, id),

    sweep: () => sweepUploads(d),
  };
}

export type ResumableUploads = ReturnType<typeof createResumableUploads>;

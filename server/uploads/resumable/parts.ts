import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { parseDirections } from "../../../domain/directions.ts";
import { type UploadSession, uploadSessions } from "../../../db/schema.ts";
import type { AppContext } from "../../wiring.ts";
import { badRequest, conflict, notFound, tooLarge } from "../../lib/http-error.ts";
import { idleTooLong } from "../../http/multipart.ts";
import { paceStreamed } from "../../lib/gc-pacer.ts";
import { giveWay } from "../../lib/give-way.ts";
import { TooLargeError } from "../../storage/file-storage.ts";
import { ShortPartError } from "../../storage/part-store.ts";
import type { ResumableUploadSummary } from "../../../domain/resumable-upload.ts";
import {
  badPartNumberMessage,
  COMPLETING_MESSAGE,
  partTooLargeMessage,
  S3_PARTS_ELSEWHERE,
  SHORT_PART_MESSAGE,
  UPLOAD_NOT_FOUND,
} from "./messages.ts";
import {
  expectedPartSize,
  live,
  partsOf,
  type ResumableDeps,
  setState,
  type UploadView,
  view,
  wholeParts,
} from "./session.ts";

/** An upload's parts (issue 26): its status, the owner's open uploads, a part received on local disk. */

/**
 * The owner's unfinished uploads (`open`, not expired), newest first, for the upload page to offer
 * before any file is picked (issue 31, docs/decisions/0290). One whose bucket upload is gone (`partsOf`
 * null) is marked aborted (`gone`) and left out.
 */
export async function listOpen(
  ctx: AppContext,
  userId: number,
  partsOf: (row: UploadSession) => Promise<Array<{ n: number; size: number }> | null>,
  gone: (id: string) => Promise<void>,
): Promise<ResumableUploadSummary[]> {
  const rows = await ctx.db.select().from(uploadSessions).where(and(
    eq(uploadSessions.user_id, userId),
    eq(uploadSessions.state, "open"),
    gt(uploadSessions.expires_at, ctx.clock.now()),
    // A release's files are continued from the release page, not listed on the upload page.
    isNull(uploadSessions.material_kind),
  )).orderBy(desc(uploadSessions.created_at));
  const out: ResumableUploadSummary[] = [];
  for (const row of rows) {
    const done = await partsOf(row);
    if (done === null) {
      await gone(row.id);
      continue;
    }
    const whole = wholeParts(row, done);
    out.push({
      id: row.id,
      filename: row.filename,
      size: row.size,
      last_modified: row.last_modified,
      directions: parseDirections(row.directions),
      part_size: row.part_size,
      part_count: row.part_count,
      parts_done: whole,
      bytes_done: whole.reduce((sum, n) => sum + expectedPartSize(row, n), 0),
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
    });
  }
  return out;
}

/** `status` of the service (its comment says what it does). */
export async function statusOf(d: ResumableDeps, userId: number, id: string): Promise<UploadView> {
  const row = await live(d, userId, id);
  const done = await partsOf(d, row);
  if (done === null) {
    // The bucket no longer has the upload (its lifecycle rule aborted it): nothing to resume.
    await setState(d, row.id, row.state, "aborted");
    throw notFound(UPLOAD_NOT_FOUND);
  }
  return await view(d, row, done);
}

/** `putPart` of the service (its comment says what it does). */
export async function putPart(
  d: ResumableDeps,
  userId: number,
  id: string,
  n: number,
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
): Promise<void> {
  const row = await live(d, userId, id);
  if (row.mode === "s3") throw conflict(S3_PARTS_ELSEWHERE);
  if (row.state !== "open") throw conflict(COMPLETING_MESSAGE);
  if (!Number.isSafeInteger(n) || n < 1 || n > row.part_count) {
    throw badRequest(badPartNumberMessage(row.part_count));
  }
  const expected = expectedPartSize(row, n);
  if (declaredLength !== null && declaredLength > expected) throw tooLarge(partTooLargeMessage(n, expected));
  if (!body) throw badRequest(SHORT_PART_MESSAGE);
  try {
    await d.parts.write(row.id, n, idleGuarded(body, d.ctx.config.uploadIdleTimeoutS * 1000), expected);
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge(partTooLargeMessage(n, expected));
    if (err instanceof ShortPartError) throw badRequest(SHORT_PART_MESSAGE);
    throw err;
  }
}

/**
 * A part's body, failed with 408 when the client sends nothing for `idleMs` (UPLOAD_IDLE_TIMEOUT_S,
 * as for POST /api/upload's body), pacing the collector as that body does.
 */
function idleGuarded(body: ReadableStream<Uint8Array>, idleMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      // Other requests are let in between chunks, as for POST /api/upload's body (lib/give-way.ts).
      const wait = giveWay();
      if (wait) await wait;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(idleTooLong(idleMs)), idleMs);
      });
      try {
        const r = await Promise.race([reader.read(), silence]);
        if (r.done) ctrl.close();
        else {
          // The collector paced as for POST /api/upload's body (server/lib/gc-pacer.ts).
          paceStreamed(r.value.byteLength);
          ctrl.enqueue(r.value);
        }
      } catch (err) {
        reader.cancel(err).catch(() => {});
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

import { and, eq, lte, or } from "drizzle-orm";
import { parseDirections } from "../../../domain/directions.ts";
import { completeUploadVersion } from "../versions.ts";
import { type UploadSession, uploadSessions } from "../../../db/schema.ts";
import { conflict, notFound, tooLarge } from "../../lib/http-error.ts";
import { fileTooLargeMessage, isFileTooLarge } from "../../../domain/upload-limits.ts";
import { COMPLETING_MESSAGE, partSizeMessage, partsMissingMessage, UPLOAD_NOT_FOUND } from "./messages.ts";
import { completeMaterial } from "./complete-material.ts";
import { type CompleteResult, freeParts, live, partsOf, type ResumableDeps, setState, wholeParts } from "./session.ts";

/**
 * Completing an upload (issue 26): one request at a time under a renewed claim (issue 32,
 * docs/decisions/0295), the parts checked and put together, then a track queued for processing or
 * a release's file (complete-material.ts).
 */

/**
 * A completion's claim: short, and renewed while the completion runs, as processing's lease is
 * (issue 32, docs/decisions/0295). A completion cut off mid-way (the process died) may be taken again
 * once its claim has lapsed, within COMPLETING_CLAIM_MS of the last renewal.
 */
export const COMPLETING_CLAIM_MS = 30_000;
const CLAIM_RENEW_MS = 10_000;

/** Part numbers 1…part_count not in `whole`. */
function whichMissing(s: Pick<UploadSession, "part_count">, whole: readonly number[]): number[] {
  const have = new Set(whole);
  return Array.from({ length: s.part_count }, (_, i) => i + 1).filter((n) => !have.has(n));
}

/** The largest file an upload may become: a release's file MAX_MASTER_FILE_MB, a track MAX_UPLOAD_FILE_MB. */
function maxBytesOf(d: ResumableDeps, row: Pick<UploadSession, "material_kind">): number {
  return row.material_kind ? d.ctx.config.maxMasterFileBytes : d.ctx.config.maxUploadFileBytes;
}

/**
 * Takes the upload for one completion (`completing`, claimed for COMPLETING_CLAIM_MS): open, or
 * being completed by a request whose claim has lapsed. 409 when another holds it. The claim is
 * renewed every CLAIM_RENEW_MS until `stop`; `renew` says whether it is still this request's (each
 * renewal names the expiry it set, so a lapsed claim taken over is never extended), and `release`
 * gives the upload back as open.
 */
async function claimCompletion(d: ResumableDeps, userId: number, id: string) {
  const at = d.now();
  let until = new Date(at.getTime() + COMPLETING_CLAIM_MS);
  const [row] = await d.db.update(uploadSessions)
    .set({ state: "completing", claimed_until: until })
    .where(and(
      eq(uploadSessions.id, id),
      eq(uploadSessions.user_id, userId),
      or(
        eq(uploadSessions.state, "open"),
        and(eq(uploadSessions.state, "completing"), lte(uploadSessions.claimed_until, at)),
      ),
    ))
    .returning();
  if (!row) throw conflict(COMPLETING_MESSAGE);
  const ours = () =>
    and(eq(uploadSessions.id, id), eq(uploadSessions.state, "completing"), eq(uploadSessions.claimed_until, until));
  let held = true;
  const renew = async (): Promise<boolean> => {
    if (!held) return false;
    const next = new Date(d.now().getTime() + COMPLETING_CLAIM_MS);
    const [kept] = await d.db.update(uploadSessions).set({ claimed_until: next }).where(ours())
      .returning({ id: uploadSessions.id });
    if (kept) until = next;
    else held = false;
    return held;
  };
  const timer = setInterval(() => {
    renew().catch((err) => d.ctx.logger.warn("could not renew an upload's completion claim", { id, err }));
  }, CLAIM_RENEW_MS);
  return {
    row,
    renew,
    stop: () => clearInterval(timer),
    release: async () => {
      clearInterval(timer);
      if (held) await d.db.update(uploadSessions).set({ state: "open", claimed_until: null }).where(ours());
    },
  };
}

/**
 * Checks a claimed upload's parts and puts its file together under its storage key: the file's
 * size. A refusal for missing or wrong parts leaves it to be continued; an over-size file is
 * aborted and its parts removed. In the bucket, an upload a dead completion already put together
 * (its multipart upload gone, the object there) is taken as it stands.
 */
async function assemble(d: ResumableDeps, row: UploadSession): Promise<number> {
  const done = await partsOf(d, row);
  if (done === null) {
    const object = row.mode === "s3" ? await d.ctx.storage.stat(row.storage_key) : null;
    if (object) return object.size;
    await setState(d, row.id, "completing", "aborted");
    throw notFound(UPLOAD_NOT_FOUND);
  }
  const total = done.reduce((sum, p) => sum + p.size, 0);
  // A presigned PUT cannot cap its size, so the bucket may hold more than was declared.
  const maxBytes = maxBytesOf(d, row);
  if (isFileTooLarge(total, maxBytes) || done.some((p) => p.n > row.part_count)) {
    await setState(d, row.id, "completing", "aborted");
    await freeParts(d, row).catch((err) =>
      d.ctx.logger.warn("could not remove an over-size upload's parts", { id: row.id, err })
    );
    throw tooLarge(fileTooLargeMessage(row.filename, maxBytes));
  }
  const have = new Map(done.map((p) => [p.n, p]));
  const missing = row.part_count - have.size;
  if (missing > 0) throw conflict(partsMissingMessage(missing, row.part_count));
  // Parts of the wrong size (stored short by a cut) are named for the page to send again (issue 31).
  const resend = whichMissing(row, wholeParts(row, done));
  if (resend.length > 0) throw conflict(partSizeMessage(resend[0]), { resend_parts: resend });
  if (row.mode === "s3") {
    await d.s3!.multipart.complete(row.storage_key, row.s3_upload_id!, done.map((p) => ({ n: p.n, etag: p.etag! })));
  } else {
    await d.ctx.storage.write(row.storage_key, d.parts.concat(row.id, row.part_count), { maxBytes });
  }
  return total;
}

/**
 * `complete` of the service (its comment says what it does): a track queued for processing, or a
 * release's file queued for its check (issue 34).
 */
export async function completeUpload(d: ResumableDeps, userId: number, id: string): Promise<CompleteResult> {
  const { ctx, db, parts } = d;
  // Asked again after its answer was lost on a bad connection: the same track, not a 404.
  const [done] = await db.select({
    state: uploadSessions.state,
    track_id: uploadSessions.track_id,
    material_kind: uploadSessions.material_kind,
    release_id: uploadSessions.release_id,
  })
    .from(uploadSessions).where(and(eq(uploadSessions.id, id), eq(uploadSessions.user_id, userId)));
  if (done?.state === "completed" && done.track_id !== null) return { track_id: done.track_id };
  if (done?.state === "completed" && done.material_kind && done.release_id !== null) {
    return { release_id: done.release_id, kind: done.material_kind };
  }
  await live(d, userId, id);
  const claim = await claimCompletion(d, userId, id);
  const { row } = claim;
  try {
    const stored = await assemble(d, row);
    // A claim lost meanwhile (this process stalled past it, another request took the upload over)
    // adds no track: the holder does.
    if (!(await claim.renew())) throw conflict(COMPLETING_MESSAGE);
    if (row.material_kind && row.release_id !== null) {
      return await completeMaterial(d, row, stored, claim.stop);
    }
    const [track] = await ctx.uploads.addUploads(
      row.user_id,
      [{ key: row.storage_key, filename: row.filename, size: stored }],
      parseDirections(row.directions),
      row.ai_use,
      row.created_at,
    );
    await db.update(uploadSessions).set({ state: "completed", claimed_until: null, track_id: track.id }).where(
      and(eq(uploadSessions.id, row.id), eq(uploadSessions.state, "completing")),
    );
    claim.stop();
    await completeUploadVersion(db, row, track.id, d.now()); // a version (issue 37): linked, assigned
    if (row.mode === "local") {
      await parts.remove(row.id).catch((err) => ctx.logger.warn("could not remove upload parts", { id: row.id, err }));
    }
    ctx.processor.enqueue(track.id);
    ctx.logger.info("resumable upload completed", { userId, trackId: track.id, mode: row.mode });
    return { track_id: track.id };
  } catch (err) {
    // Left open to be continued (parts missing, a store that failed); an aborted one stays so.
    await claim.release();
    throw err;
  } finally {
    claim.stop();
  }
}

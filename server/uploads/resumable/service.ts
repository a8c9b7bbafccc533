import { and, desc, eq, gt, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { type Direction, parseDirections } from "../../../domain/directions.ts";
import { formatDirections } from "../../../domain/staff-directions.ts";
import { completeUploadVersion } from "../versions.ts";
import { type UploadSession, uploadSessions } from "../../../db/schema.ts";
import type { AppContext } from "../../wiring.ts";
import { badRequest, conflict, notFound, tooLarge } from "../../lib/http-error.ts";
import { idleTooLong } from "../../http/multipart.ts";
import { paceStreamed } from "../../lib/gc-pacer.ts";
import { giveWay } from "../../lib/give-way.ts";
import { TooLargeError } from "../../storage/file-storage.ts";
import { createLocalPartStore, type PartStore, ShortPartError } from "../../storage/part-store.ts";
import { isS3Storage, type S3Storage } from "../../storage/s3-file-storage.ts";
import { fileTooLargeMessage, isFileTooLarge } from "../../../domain/upload-limits.ts";
import { newTrackKey } from "../upload-routes.ts";
import { countedUploadsNowSql, UPLOAD_WINDOW_MS } from "../uploads.ts";
import type { ResumableUploadSummary, ResumableUploadView } from "../../../domain/resumable-upload.ts";
import type { MaterialKind } from "../../../domain/release-material.ts";

/**
 * Resumable uploads (issue 26, docs/decisions/0250–0253): a file sent in parts that survive a dropped
 * connection. With S3_BUCKET the parts go from the browser straight to an S3 multipart upload through
 * presigned addresses, and the server never sees the bytes; on local disk the server takes each part
 * on its own endpoint into the part store. Completing checks the parts, then the file becomes a track
 * exactly as one of POST /api/upload (`ctx.uploads.addUploads`, the processing queue).
 */

/** How long an unfinished upload may wait; then the sweep aborts it (the bucket's lifecycle rule too). */
export const UPLOAD_SESSION_TTL_MS = 24 * 3_600_000;
/** How long a presigned part address holds (the contract asks for at least an hour). */
export const PART_URL_TTL_S = 2 * 3600;
/**
 * A completion's claim: short, and renewed while the completion runs, as processing's lease is
 * (issue 32, docs/decisions/0295). A completion cut off mid-way (the process died) may be taken again
 * once its claim has lapsed, within COMPLETING_CLAIM_MS of the last renewal.
 */
export const COMPLETING_CLAIM_MS = 30_000;
const CLAIM_RENEW_MS = 10_000;
/** Completed and aborted rows are kept this long past their expiry (they count no longer), then deleted. */
const FINISHED_KEEP_MS = 24 * 3_600_000;
/** S3 allows at most 10,000 parts. */
const MAX_PARTS = 10_000;

export const UPLOAD_NOT_FOUND = "Загрузка не найдена: она завершена, отменена или устарела. Выберите файл ещё раз.";
export const S3_PARTS_ELSEWHERE =
  "Части этой загрузки отправляются прямо в хранилище по выданным адресам, а не на сервер.";
export const COMPLETING_MESSAGE = "Загрузка уже завершается.";
export const SHORT_PART_MESSAGE = "Часть файла получена не полностью: отправьте её ещё раз.";
export const EMPTY_FILE_MESSAGE = "Файл пустой.";

export function partsMissingMessage(missing: number, count: number): string {
  return `Загружены не все части файла: не хватает ${missing} из ${count}. Продолжите загрузку.`;
}

export function partSizeMessage(n: number): string {
  return `Часть ${n} файла не того размера: отправьте её ещё раз.`;
}

export function badPartNumberMessage(count: number): string {
  return `Неверный номер части: ожидается число от 1 до ${count}.`;
}

export function partTooLargeMessage(n: number, expected: number): string {
  return `Часть ${n} больше, чем должна быть (${expected} байт).`;
}

/** An artist's bounds on starting uploads (docs/decisions/0296): MAX_UPLOADS_PER_HOUR, MAX_OPEN_UPLOADS. */
export interface StartLimits {
  hourly: number;
  open: number;
}

export interface StartRefusal {
  over: "hour" | "open";
  retryAfterS: number;
}

/** The 429 of MAX_OPEN_UPLOADS: the limit, what frees a place, and when one frees itself. */
export function tooManyOpenUploadsMessage(limit: number, retryAfterS: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
  const later = minutes < 120 ? `${minutes} мин.` : `${Math.ceil(minutes / 60)} ч.`;
  return `Слишком много незавершённых загрузок: не больше ${limit} одновременно. ` +
    `Завершите или отмените одну из них, чтобы начать новую, или попробуйте позже: через ${later}`;
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

/** The upload as the browser sees it (the contract's `Upload`). */
export type UploadView = ResumableUploadView;

export interface StartInput {
  filename: string;
  size: number;
  lastModified: number | null;
  directions: Direction[];
  aiUse: "no" | "partly" | "yes" | null;
  /** A release's file (issue 34) instead of a track: its completion writes the release's material. */
  material?: { kind: MaterialKind; releaseId: number };
}

/** What a completion became: a track, or a release's file (issue 34). */
export type CompleteResult = { track_id: number } | { release_id: number; kind: MaterialKind };

/** Part `n`'s expected size (1-based): `part_size`, the last one the rest. */
export function expectedPartSize(s: Pick<UploadSession, "size" | "part_size" | "part_count">, n: number): number {
  return n < s.part_count ? s.part_size : s.size - (s.part_count - 1) * s.part_size;
}

/**
 * The part numbers stored whole: a part of another size than it should have (the bucket kept what a
 * cut connection delivered) is not done, so the page sends it again (issue 31, docs/decisions/0292).
 */
export function wholeParts(
  s: Pick<UploadSession, "size" | "part_size" | "part_count">,
  parts: ReadonlyArray<{ n: number; size: number }>,
): number[] {
  const whole = parts.filter((p) => p.n >= 1 && p.n <= s.part_count && p.size === expectedPartSize(s, p.n));
  return [...new Set(whole.map((p) => p.n))].sort((a, b) => a - b);
}

/**
 * The owner's unfinished uploads (`open`, not expired), newest first, for the upload page to offer
 * before any file is picked (issue 31, docs/decisions/0290). One whose bucket upload is gone (`partsOf`
 * null) is marked aborted (`gone`) and left out.
 */
async function listOpen(
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

/** Part numbers 1…part_count not in `whole`. */
function whichMissing(s: Pick<UploadSession, "part_count">, whole: readonly number[]): number[] {
  const have = new Set(whole);
  return Array.from({ length: s.part_count }, (_, i) => i + 1).filter((n) => !have.has(n));
}

/** 192 random bits, base64url: the only handle of an upload, so it must not be guessable. */
function newUploadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

/** What the operations moved out of `createResumableUploads` use. */
interface ResumableDeps {
  ctx: AppContext;
  db: AppContext["db"];
  s3: S3Storage | null;
  parts: PartStore;
  now: () => Date;
}

/** The largest file an upload may become: a release's file MAX_MASTER_FILE_MB, a track MAX_UPLOAD_FILE_MB. */
function maxBytesOf(d: ResumableDeps, row: Pick<UploadSession, "material_kind">): number {
  return row.material_kind ? d.ctx.config.maxMasterFileBytes : d.ctx.config.maxUploadFileBytes;
}

/** The part size for a file: UPLOAD_PART_MB, larger only when the file would need more than 10,000 parts. */
function partSizeFor(d: ResumableDeps, size: number): number {
  const base = d.ctx.config.uploadPartBytes;
  if (Math.ceil(size / base) <= MAX_PARTS) return base;
  const mib = 1024 * 1024;
  return Math.ceil(size / MAX_PARTS / mib) * mib;
}

/** The finished parts: from the bucket (ListParts) or the part store. Null: the S3 upload is gone. */
async function partsOf(
  d: ResumableDeps,
  row: UploadSession,
): Promise<Array<{ n: number; size: number; etag?: string }> | null> {
  if (row.mode === "s3") {
    if (!d.s3 || !row.s3_upload_id) return null;
    return await d.s3.multipart.listParts(row.storage_key, row.s3_upload_id);
  }
  return await d.parts.list(row.id);
}

/** Frees an upload's parts wherever they are; idempotent (an upload already gone is fine). */
async function freeParts(d: ResumableDeps, row: UploadSession): Promise<void> {
  if (row.mode === "s3") {
    if (d.s3 && row.s3_upload_id) await d.s3.multipart.abort(row.storage_key, row.s3_upload_id);
  } else await d.parts.remove(row.id);
}

async function view(
  d: ResumableDeps,
  row: UploadSession,
  done?: Array<{ n: number; size: number }>,
): Promise<UploadView> {
  const doneSet = new Set(wholeParts(row, done ?? (await partsOf(d, row)) ?? []));
  const urls: Record<string, string> = {};
  if (row.mode === "s3" && d.s3 && row.s3_upload_id) {
    for (let n = 1; n <= row.part_count; n++) {
      if (!doneSet.has(n)) urls[n] = await d.s3.multipart.partUrl(row.storage_key, row.s3_upload_id, n, PART_URL_TTL_S);
    }
  }
  return {
    id: row.id,
    filename: row.filename,
    size: row.size,
    mode: row.mode,
    part_size: row.part_size,
    part_count: row.part_count,
    parts_done: [...doneSet].sort((a, b) => a - b),
    part_urls: urls,
    expires_at: row.expires_at.toISOString(),
  };
}

/**
 * The owner's live upload: `open` (or being completed) and not expired. Anything else, another
 * user's included, is the same 404, so an id says nothing about uploads one does not own.
 */
async function live(d: ResumableDeps, userId: number, id: string): Promise<UploadSession> {
  const [row] = await d.db.select().from(uploadSessions).where(
    and(eq(uploadSessions.id, id), eq(uploadSessions.user_id, userId)),
  );
  if (!row || (row.state !== "open" && row.state !== "completing") || row.expires_at <= d.now()) {
    throw notFound(UPLOAD_NOT_FOUND);
  }
  return row;
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

async function setState(d: ResumableDeps, id: string, from: UploadSession["state"], to: UploadSession["state"]) {
  await d.db.update(uploadSessions).set({ state: to, claimed_until: null }).where(
    and(eq(uploadSessions.id, id), eq(uploadSessions.state, from)),
  );
}

/**
 * The sweep (docs/decisions/0252): uploads past `expires_at` that nobody completed are aborted and
 * their parts removed. Each row is taken by one conditional update, so instances sweeping at once
 * never both abort it; freeing parts is idempotent, so a sweep cut off mid-way is finished by the
 * next one, which frees the parts of every finished row again before deleting it a day later.
 */
async function sweepUploads(d: ResumableDeps): Promise<{ aborted: number; deleted: number; orphans: number }> {
  const at = d.now();
  const expired = await d.db.select().from(uploadSessions).where(or(
    and(eq(uploadSessions.state, "open"), lte(uploadSessions.expires_at, at)),
    and(
      eq(uploadSessions.state, "completing"),
      lte(uploadSessions.expires_at, at),
      lte(uploadSessions.claimed_until, at),
    ),
  ));
  let aborted = 0;
  for (const row of expired) {
    const [taken] = await d.db.update(uploadSessions).set({ state: "aborted", claimed_until: null })
      .where(and(eq(uploadSessions.id, row.id), eq(uploadSessions.state, row.state)))
      .returning({ id: uploadSessions.id });
    if (!taken) continue;
    aborted++;
    await freeParts(d, row).catch((err) => d.ctx.logger.warn("could not abort an expired upload", { id: row.id, err }));
  }
  const old = await d.db.select().from(uploadSessions).where(and(
    inArray(uploadSessions.state, ["completed", "aborted"]),
    lte(uploadSessions.expires_at, new Date(at.getTime() - FINISHED_KEEP_MS)),
  ));
  let deleted = 0;
  for (const row of old) {
    if (row.state === "aborted") {
      const freed = await freeParts(d, row).then(() => true, () => false);
      if (!freed) continue;
    }
    await d.db.delete(uploadSessions).where(and(eq(uploadSessions.id, row.id), eq(uploadSessions.state, row.state)));
    deleted++;
  }
  // Part folders no live upload owns (its row deleted with its user, or removed by hand), a day
  // old: nothing can complete them. Only on local disk; the bucket's lifecycle rule covers S3.
  let orphans = 0;
  if (!d.s3) {
    for await (const folder of d.parts.uploads()) {
      if (folder.modifiedAt.getTime() > at.getTime() - UPLOAD_SESSION_TTL_MS) continue;
      const [owner] = await d.db.select({ state: uploadSessions.state }).from(uploadSessions).where(
        eq(uploadSessions.id, folder.id),
      );
      if (owner?.state === "open" || owner?.state === "completing") continue;
      await d.parts.remove(folder.id);
      orphans++;
    }
  }
  return { aborted, deleted, orphans };
}

/**
 * A release's file put together (issue 34): the release's material row written as `checking` and its
 * check queued (server/releases/materials/service.ts), instead of a track. The release is asked
 * again: one scheduled or cancelled while the file was being sent takes it no more (409, the stored
 * file removed).
 */
async function completeMaterial(
  d: ResumableDeps,
  row: UploadSession,
  size: number,
  stopClaim: () => void,
): Promise<CompleteResult> {
  const { ctx } = d;
  const kind = row.material_kind!;
  const releaseId = row.release_id!;
  try {
    await ctx.releaseMaterials.uploadTarget(row.user_id, releaseId);
  } catch (err) {
    await setState(d, row.id, "completing", "aborted");
    await ctx.storage.delete(row.storage_key).catch(() => {});
    if (row.mode === "local") await d.parts.remove(row.id).catch(() => {});
    throw err;
  }
  await ctx.releaseMaterials.received({
    releaseId,
    kind,
    userId: row.user_id,
    filename: row.filename,
    size,
    storageKey: row.storage_key,
  });
  await d.db.update(uploadSessions).set({ state: "completed", claimed_until: null }).where(
    and(eq(uploadSessions.id, row.id), eq(uploadSessions.state, "completing")),
  );
  stopClaim();
  if (row.mode === "local") {
    await d.parts.remove(row.id).catch((err) => ctx.logger.warn("could not remove upload parts", { id: row.id, err }));
  }
  ctx.logger.info("release file upload completed", { userId: row.user_id, releaseId, kind, mode: row.mode });
  return { release_id: releaseId, kind };
}

/**
 * `complete` of the service (its comment says what it does): a track queued for processing, or a
 * release's file queued for its check (issue 34).
 */
async function completeUpload(d: ResumableDeps, userId: number, id: string): Promise<CompleteResult> {
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

/** `start` of the service (its comment says what it does). */
async function startUpload(
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
    async startRefusal(userId: number, limits: StartLimits): Promise<StartRefusal | null> {
      const at = now().getTime();
      const secondsTo = (t: number) => Math.max(1, Math.ceil((t - at) / 1000));
      const started = await db.all<{ at: number }>(sql`SELECT at FROM (${startedSql(userId, at)}) ORDER BY at`);
      if (started.length + 1 > limits.hourly) {
        const freeing = started[started.length - limits.hourly];
        return { over: "hour", retryAfterS: secondsTo(Number(freeing.at) + UPLOAD_WINDOW_MS) };
      }
      const open = await db.all<{ until: number }>(
        sql`SELECT until FROM (${unfinishedSql(userId, at)}) ORDER BY until`,
      );
      if (open.length + 1 > limits.open) {
        return { over: "open", retryAfterS: secondsTo(Number(open[open.length - limits.open].until)) };
      }
      return null;
    },

    /** The owner's upload with its finished parts and fresh addresses for the rest. */
    async status(userId: number, id: string): Promise<UploadView> {
      const row = await live(d, userId, id);
      const done = await partsOf(d, row);
      if (done === null) {
        // The bucket no longer has the upload (its lifecycle rule aborted it): nothing to resume.
        await setState(d, row.id, row.state, "aborted");
        throw notFound(UPLOAD_NOT_FOUND);
      }
      return await view(d, row, done);
    },

    /** The owner's unfinished uploads, for the upload page (issue 31; `listOpen`). */
    list: (userId: number) =>
      listOpen(ctx, userId, (row: UploadSession) => partsOf(d, row), (id) => setState(d, id, "open", "aborted")),

    /** One part of a local-mode upload, streamed into the part store (replacing an earlier copy). */
    async putPart(
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
        await parts.write(row.id, n, idleGuarded(body, ctx.config.uploadIdleTimeoutS * 1000), expected);
      } catch (err) {
        if (err instanceof TooLargeError) throw tooLarge(partTooLargeMessage(n, expected));
        if (err instanceof ShortPartError) throw badRequest(SHORT_PART_MESSAGE);
        throw err;
      }
    },

    /**
     * Checks the parts and turns the upload into a track queued for processing. Only one request
     * completes an upload (the `completing` claim); a refusal for missing or wrong parts leaves it
     * open to be continued, an over-size file is aborted and its parts removed.
     */
    complete: (userId: number, id: string): Promise<CompleteResult> => completeUpload(d, userId, id),

    /** Cancels the owner's upload and frees its parts. */
    async abort(userId: number, id: string): Promise<void> {
      const row = await live(d, userId, id);
      const [taken] = await db.update(uploadSessions).set({ state: "aborted", claimed_until: null })
        .where(and(eq(uploadSessions.id, row.id), eq(uploadSessions.state, "open"))).returning({
          id: uploadSessions.id,
        });
      if (!taken) throw conflict(COMPLETING_MESSAGE);
      await freeParts(d, row);
    },

    sweep: () => sweepUploads(d),
  };
}

export type ResumableUploads = ReturnType<typeof createResumableUploads>;

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

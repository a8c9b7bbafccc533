import { and, eq } from "drizzle-orm";
import { type UploadSession, uploadSessions } from "../../../db/schema.ts";
import type { AppContext } from "../../wiring.ts";
import { notFound } from "../../lib/http-error.ts";
import type { PartStore } from "../../storage/part-store.ts";
import type { S3Storage } from "../../storage/s3-file-storage.ts";
import type { ResumableUploadView } from "../../../domain/resumable-upload.ts";
import type { MaterialKind } from "../../../domain/release-material.ts";
import { UPLOAD_NOT_FOUND } from "./messages.ts";

/**
 * What every job of the resumable uploads shares (issue 26; service.ts assembles them): an upload's
 * row as the browser sees it, its parts wherever they are, the owner's live upload, its state moves.
 */

/** How long an unfinished upload may wait; then the sweep aborts it (the bucket's lifecycle rule too). */
export const UPLOAD_SESSION_TTL_MS = 24 * 3_600_000;
/** How long a presigned part address holds (the contract asks for at least an hour). */
export const PART_URL_TTL_S = 2 * 3600;

/** The upload as the browser sees it (the contract's `Upload`). */
export type UploadView = ResumableUploadView;

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

/** What the operations moved out of `createResumableUploads` use. */
export interface ResumableDeps {
  ctx: AppContext;
  db: AppContext["db"];
  s3: S3Storage | null;
  parts: PartStore;
  now: () => Date;
}

/** The finished parts: from the bucket (ListParts) or the part store. Null: the S3 upload is gone. */
export async function partsOf(
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
export async function freeParts(d: ResumableDeps, row: UploadSession): Promise<void> {
  if (row.mode === "s3") {
    if (d.s3 && row.s3_upload_id) await d.s3.multipart.abort(row.storage_key, row.s3_upload_id);
  } else await d.parts.remove(row.id);
}

export async function view(
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
export async function live(d: ResumableDeps, userId: number, id: string): Promise<UploadSession> {
  const [row] = await d.db.select().from(uploadSessions).where(
    and(eq(uploadSessions.id, id), eq(uploadSessions.user_id, userId)),
  );
  if (!row || (row.state !== "open" && row.state !== "completing") || row.expires_at <= d.now()) {
    throw notFound(UPLOAD_NOT_FOUND);
  }
  return row;
}

export async function setState(d: ResumableDeps, id: string, from: UploadSession["state"], to: UploadSession["state"]) {
  await d.db.update(uploadSessions).set({ state: to, claimed_until: null }).where(
    and(eq(uploadSessions.id, id), eq(uploadSessions.state, from)),
  );
}

import { and, eq, inArray, lte, or } from "drizzle-orm";
import { uploadSessions } from "../../../db/schema.ts";
import { conflict } from "../../lib/http-error.ts";
import { COMPLETING_MESSAGE } from "./messages.ts";
import { freeParts, live, type ResumableDeps, UPLOAD_SESSION_TTL_MS } from "./session.ts";

/** The ends of an upload that is not completed: cancelled by its owner, or expired and swept. */

/** Completed and aborted rows are kept this long past their expiry (they count no longer), then deleted. */
const FINISHED_KEEP_MS = 24 * 3_600_000;

/** `abort` of the service (its comment says what it does). */
export async function abortUpload(d: ResumableDeps, userId: number, id: string): Promise<void> {
  const row = await live(d, userId, id);
  const [taken] = await d.db.update(uploadSessions).set({ state: "aborted", claimed_until: null })
    .where(and(eq(uploadSessions.id, row.id), eq(uploadSessions.state, "open"))).returning({
      id: uploadSessions.id,
    });
  if (!taken) throw conflict(COMPLETING_MESSAGE);
  await freeParts(d, row);
}

/**
 * The sweep (docs/decisions/0252): uploads past `expires_at` that nobody completed are aborted and
 * their parts removed. Each row is taken by one conditional update, so instances sweeping at once
 * never both abort it; freeing parts is idempotent, so a sweep cut off mid-way is finished by the
 * next one, which frees the parts of every finished row again before deleting it a day later.
 */
export async function sweepUploads(d: ResumableDeps): Promise<{ aborted: number; deleted: number; orphans: number }> {
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

import { and, eq } from "drizzle-orm";
import { type UploadSession, uploadSessions } from "../../../db/schema.ts";
import { type CompleteResult, type ResumableDeps, setState } from "./session.ts";

/**
 * A release's file put together (issue 34): the release's material row written as `checking` and its
 * check queued (server/releases/materials/service.ts), instead of a track. The release is asked
 * again: one scheduled or cancelled while the file was being sent takes it no more (409, the stored
 * file removed).
 */
export async function completeMaterial(
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

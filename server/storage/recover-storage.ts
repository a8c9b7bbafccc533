import { isNotNull } from "drizzle-orm";
import { releaseMaterials, sliderTiles, tracks, users } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { UPLOAD_MAX_DURATION_MS } from "../http/multipart.ts";
import type { FileStorage } from "./file-storage.ts";

/**
 * Leftovers of a process that died mid-request: a write that never finished (`.part-…`), or a track
 * file stored while its upload was cut off before the rows were inserted. Both are swept at start-up
 * and then hourly. Only entries older than `minAgeMs` go, so an upload in flight in another process
 * sharing the directory (a second server, a CLI) is never touched: the multipart reader cuts off
 * any body still arriving after UPLOAD_MAX_DURATION_MS (30 min), half this age (decision 0115).
 */
export const RECOVERY_MIN_AGE_MS = 2 * UPLOAD_MAX_DURATION_MS;

export interface RecoveryReport {
  partials: number;
  orphans: number;
}

async function sweep(storage: FileStorage, isOrphan: (key: string) => boolean, cutoff: number, report: RecoveryReport) {
  for await (const entry of storage.list()) {
    if (entry.modifiedAt.getTime() > cutoff) continue;
    if (entry.partial) {
      await storage.remove(entry.key);
      report.partials++;
    } else if (isOrphan(entry.key)) {
      await storage.remove(entry.key);
      report.orphans++;
    }
  }
}

export async function recoverStorage(deps: AppDeps, minAgeMs = RECOVERY_MIN_AGE_MS): Promise<RecoveryReport> {
  const cutoff = deps.clock.now().getTime() - minAgeMs;
  const report: RecoveryReport = { partials: 0, orphans: 0 };
  const trackKeys = await deps.db.select({ key: tracks.storage_key }).from(tracks).where(isNotNull(tracks.storage_key));
  const referenced = new Set(trackKeys.map((r) => r.key!));
  // A release's files (issue 34) live beside the tracks.
  const materialKeys = await deps.db.select({ key: releaseMaterials.storage_key }).from(releaseMaterials);
  for (const r of materialKeys) referenced.add(r.key);
  await sweep(deps.storage, (key) => !referenced.has(key), cutoff, report);

  const avatars = await deps.db.select({ avatar: users.avatar }).from(users).where(isNotNull(users.avatar));
  const images = await deps.db.select({ name: sliderTiles.image_filename }).from(sliderTiles).where(
    isNotNull(sliderTiles.image_filename),
  );
  const publicKeys = new Set<string>([
    ...avatars.map((r) => r.avatar!.replace(/^\/static\/storage\//, "")),
    ...images.flatMap((r) => [r.name!, `slider/${r.name!}`]),
  ]);
  // Public storage also holds files the product does not own (committed seed copies, hand-placed
  // files), so only its own folders are checked for orphans.
  const ownFolders = /^(avatars|slider)\//;
  await sweep(deps.publicStorage, (key) => ownFolders.test(key) && !publicKeys.has(key), cutoff, report);
  return report;
}

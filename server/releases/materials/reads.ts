/**
 * The release materials' states as the release object carries them (issue 34), and the stored files
 * the release desk's ZIP reads.
 */
import { and, eq, inArray } from "drizzle-orm";
import { type RELEASE_MATERIAL_KINDS, type RELEASE_MATERIAL_STATES, releaseMaterials } from "../../../db/schema.ts";
import type { Db } from "../../../db/client.ts";
import type { MaterialReport } from "./judge.ts";

export interface MaterialState {
  kind: (typeof RELEASE_MATERIAL_KINDS)[number];
  state: (typeof RELEASE_MATERIAL_STATES)[number];
  /** Russian, for the artist, when refused. */
  reason: string | null;
  filename: string;
  size: number;
  /** The check's figures (server/releases/materials/judge.ts `MaterialReport`): for staff only. */
  report: MaterialReport | null;
  updated_at: Date;
}

const KIND_ORDER = { master: 0, extended: 1, instrumental: 2 } as const;

/** Each release's materials, by release id (a release with none is absent), master first. */
export async function materialsByRelease(db: Db, releaseIds: number[]): Promise<Map<number, MaterialState[]>> {
  const out = new Map<number, MaterialState[]>();
  if (releaseIds.length === 0) return out;
  const rows = await db.select().from(releaseMaterials).where(inArray(releaseMaterials.release_id, releaseIds));
  rows.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  for (const r of rows) {
    const list = out.get(r.release_id) ?? [];
    list.push({
      kind: r.kind,
      state: r.state,
      reason: r.reason,
      filename: r.filename,
      size: r.size,
      report: (r.report ?? null) as MaterialReport | null,
      updated_at: r.updated_at,
    });
    out.set(r.release_id, list);
  }
  return out;
}

/** A release's accepted files with their storage keys (for its ZIP), master first. */
export async function acceptedFiles(
  db: Db,
  releaseId: number,
): Promise<Array<{ kind: MaterialState["kind"]; filename: string; size: number; storage_key: string }>> {
  const rows = await db.select({
    kind: releaseMaterials.kind,
    filename: releaseMaterials.filename,
    size: releaseMaterials.size,
    storage_key: releaseMaterials.storage_key,
  }).from(releaseMaterials).where(
    and(eq(releaseMaterials.release_id, releaseId), eq(releaseMaterials.state, "accepted")),
  );
  return rows.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}

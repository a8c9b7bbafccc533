/**
 * The release materials' states as the release object carries them (issue 34). Placeholder until
 * the materials checks land: no material is known yet.
 */
import type { RELEASE_MATERIAL_KINDS, RELEASE_MATERIAL_STATES } from "../../../db/schema.ts";
import type { Db } from "../../../db/client.ts";

export interface MaterialState {
  kind: (typeof RELEASE_MATERIAL_KINDS)[number];
  state: (typeof RELEASE_MATERIAL_STATES)[number];
  /** Russian, for the artist, when refused. */
  reason: string | null;
  filename: string;
  size: number;
  /** The check's figures: for staff only. */
  report: unknown;
  updated_at: Date;
}

/** Each release's materials, by release id (a release with none is absent). */
export function materialsByRelease(_db: Db, _releaseIds: number[]): Promise<Map<number, MaterialState[]>> {
  return Promise.resolve(new Map());
}

import { and, desc, eq, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { releases, type User } from "../../db/schema.ts";
import { RELEASE_TEXTS, releaseRef } from "../../domain/releases.ts";
import type { LabelCopy } from "../../domain/release-schemas.ts";
import type { Clock } from "../deps.ts";
import { conflict, notFound } from "../lib/http-error.ts";
import { readRules } from "../intake/rules.ts";
import { materialsByRelease } from "./materials/reads.ts";
import { historyStatement } from "./pair-effects.ts";
import {
  type ArtistRelease,
  askedFiles,
  materialItems,
  materialsComplete,
  ownedBy,
  type ReleaseRow,
  releaseRowById,
  releaseRows,
  releaseViews,
} from "./views.ts";

/**
 * The artist's side of the release desk (issue 34): their own releases (once the decision's hold is
 * over, as their history shows it: decision 0223), the label copy (also the staff's to edit), and
 * the move to materials_received when everything required is in.
 */

export interface ArtistDeskDeps {
  db: Db;
  clock: Clock;
  holdMs: number;
}

function ownWhere(deps: ArtistDeskDeps, userId: number) {
  return and(
    ownedBy(userId),
    lte(releases.accepted_at, new Date(deps.clock.now().getTime() - deps.holdMs)),
  );
}

export async function artistList(deps: ArtistDeskDeps, userId: number): Promise<ArtistRelease[]> {
  const rows = await releaseRows(deps.db, ownWhere(deps, userId)).orderBy(
    desc(releases.accepted_at),
    desc(releases.id),
  );
  return await releaseViews(deps.db, rows, await readRules(deps.db), deps.clock.now(), false);
}

/** The artist's own release (404 for anyone else's, and within the hold). */
export async function artistRow(deps: ArtistDeskDeps, userId: number, id: number): Promise<ReleaseRow> {
  const [row] = await releaseRows(deps.db, and(eq(releases.id, id), ownWhere(deps, userId))).limit(1);
  if (!row) throw notFound(RELEASE_TEXTS.notFound);
  return row;
}

export async function artistOne(deps: ArtistDeskDeps, userId: number, id: number): Promise<ArtistRelease> {
  const row = await artistRow(deps, userId, id);
  const [view] = await releaseViews(deps.db, [row], await readRules(deps.db), deps.clock.now(), false);
  return view;
}

/**
 * Saves the whole label copy (checked by `labelCopySchema`): refused once the release is out or
 * cancelled, and for an ISRC another release has (409 naming it). Recorded in the history; the
 * release may then be complete.
 */
export async function saveLabelCopy(
  deps: ArtistDeskDeps,
  row: ReleaseRow,
  copy: LabelCopy,
  by: Pick<User, "id">,
): Promise<void> {
  const { db } = deps;
  const r = row.r;
  if (r.stage === "cancelled") throw conflict(RELEASE_TEXTS.cancelledCopy);
  if (r.stage === "released") throw conflict(RELEASE_TEXTS.releasedCopy);
  if (copy.isrc) {
    const [other] = await db.select({ id: releases.id, catalogue_number: releases.catalogue_number })
      .from(releases).where(and(eq(releases.isrc, copy.isrc), ne(releases.id, r.id))).limit(1);
    if (other) throw conflict(RELEASE_TEXTS.isrcTaken(copy.isrc, releaseRef(other)), { release_id: other.id });
  }
  const now = deps.clock.now();
  try {
    await db.batch([
      db.update(releases).set({
        label_copy: copy,
        isrc: copy.isrc,
        title: copy.title,
        version: copy.version,
        revision: sql`${releases.revision} + 1`,
        updated_at: now,
      }).where(eq(releases.id, r.id)),
      historyStatement(db, {
        releaseId: r.id,
        by: by.id,
        action: "label_copy",
        before: r.label_copy ?? null,
        after: copy,
        at: now,
      }),
    ]);
  } catch (err) {
    if (String((err as Error).cause ?? err).includes("UNIQUE")) {
      throw conflict(RELEASE_TEXTS.isrcTaken(copy.isrc ?? "", "другого релиза"));
    }
    throw err;
  }
  await afterMaterialsChanged(deps, r.id);
}

/**
 * `ctx.releases.afterMaterialsChanged(id)`: when everything required is in (the accepted master,
 * the extras the label asks for, the label copy, the samples answered and cleared), a release
 * waiting for materials moves to materials_received, `materials_complete_at` set. True when it moved.
 */
export async function afterMaterialsChanged(deps: Pick<ArtistDeskDeps, "db" | "clock">, id: number): Promise<boolean> {
  const { db } = deps;
  const row = await releaseRowById(db, id);
  if (!row || row.r.stage !== "materials_requested") return false;
  const rules = await readRules(db);
  const files = (await materialsByRelease(db, [id])).get(id) ?? [];
  const items = materialItems(row.r, files, askedFiles(rules, row.r.direction), false);
  if (!materialsComplete(items)) return false;
  const now = deps.clock.now();
  const moved = await db.update(releases).set({
    stage: "materials_received",
    materials_complete_at: now,
    revision: row.r.revision + 1,
    updated_at: now,
  }).where(and(eq(releases.id, id), eq(releases.revision, row.r.revision)));
  // Someone changed it meanwhile: read it again.
  if (moved.rowsAffected === 0) return await afterMaterialsChanged(deps, id);
  await historyStatement(db, {
    releaseId: id,
    by: null,
    action: "materials_complete",
    before: { stage: "materials_requested" },
    after: { stage: "materials_received" },
    at: now,
  });
  return true;
}

import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client.ts";
import { releaseHistory, releases } from "../../db/schema.ts";
import { isLabelDirection, type ReleaseStage } from "../../domain/releases.ts";
import type { PairChange } from "../review/decisions.ts";
import type { PairsChanged, ReviewEvents, ReviewEventsFactory } from "../review/events.ts";

/**
 * The release desk's answer to review's events (issue 34, docs/decisions/0350): accepting a track
 * for a label direction creates its release in the decision's own batch (once: a second accept
 * finds it; a cancelled one is reopened), an undo within the hold removes it again (or puts back
 * the cancelled stage it reopened), and a later move away from «Принят» cancels it (a release
 * already out is left alone). Nothing is told to the artist here: the request waits for the
 * decision's hold (the sweep sends it, docs/decisions/0352).
 */

export function historyStatement(
  db: Db,
  e: { releaseId: number; by: number | null; action: string; before: unknown; after: unknown; at: Date },
) {
  return db.insert(releaseHistory).values({
    release_id: e.releaseId,
    user_id: e.by,
    action: e.action,
    before: e.before ?? null,
    after: e.after ?? null,
    created_at: e.at,
  });
}

type Existing = { id: number; stage: ReleaseStage; revision: number };

async function existing(db: Db, trackId: number, direction: string): Promise<Existing | undefined> {
  const [row] = await db.select({ id: releases.id, stage: releases.stage, revision: releases.revision })
    .from(releases).where(and(eq(releases.track_id, trackId), eq(releases.direction, direction))).limit(1);
  return row;
}

/** The stage a release had before its last cancel (from its history), else materials_requested. */
async function stageBeforeCancel(db: Db, id: number): Promise<ReleaseStage | null> {
  const [h] = await db.select({ before: releaseHistory.before }).from(releaseHistory)
    .where(and(eq(releaseHistory.release_id, id), eq(releaseHistory.action, "cancelled")))
    .orderBy(sql`${releaseHistory.id} desc`).limit(1);
  if (!h) return null;
  const stage = (h.before as { stage?: ReleaseStage } | null)?.stage;
  return stage ?? "materials_requested";
}

function moveStatements(db: Db, r: Existing, to: ReleaseStage, action: string, c: PairChange) {
  return [
    db.update(releases).set({ stage: to, revision: sql`${releases.revision} + 1`, updated_at: c.at })
      .where(eq(releases.id, r.id)),
    historyStatement(db, {
      releaseId: r.id,
      by: c.by,
      action,
      before: { stage: r.stage },
      after: { stage: to },
      at: c.at,
    }),
  ];
}

function createStatements(db: Db, c: PairChange): BatchItem<"sqlite">[] {
  const insert = db.insert(releases).values({
    track_id: c.trackId,
    direction: c.direction,
    accepted_at: c.at,
    created_at: c.at,
    updated_at: c.at,
  }).onConflictDoNothing();
  // The history row names the release the insert made (its id is not known before the batch runs).
  const created = db.run(sql`insert into ${releaseHistory} (release_id, user_id, action, before, after, created_at)
    select ${releases.id}, ${c.by}, 'created', null, ${
    JSON.stringify({ stage: "materials_requested" })
  }, ${c.at.getTime()}
    from ${releases} where ${releases.track_id} = ${c.trackId} and ${releases.direction} = ${c.direction}`);
  return [insert, created];
}

/** The statements one pair change makes for its release (none outside the label directions). */
export async function releaseStatements(db: Db, c: PairChange, undo: boolean): Promise<BatchItem<"sqlite">[]> {
  if (!isLabelDirection(c.direction)) return [];
  const was = c.before.status === "accepted";
  const is = c.after.status === "accepted";
  if (was === is) return [];
  const r = await existing(db, c.trackId, c.direction);
  if (is) {
    if (!r) return createStatements(db, c);
    if (r.stage !== "cancelled") return [];
    // Undoing the decline that cancelled it puts back the stage it had; a new accept reopens it.
    const back = undo ? (await stageBeforeCancel(db, r.id)) ?? "materials_requested" : "materials_requested";
    return moveStatements(db, r, back, undo ? "uncancelled" : "reopened", c);
  }
  if (!r) return [];
  if (undo) {
    // The accept being undone made this release, or reopened a cancelled one.
    const reopened = await stageBeforeCancel(db, r.id);
    if (reopened === null) return [db.delete(releases).where(eq(releases.id, r.id))];
    return moveStatements(db, r, "cancelled", "cancelled", c);
  }
  if (r.stage === "released" || r.stage === "cancelled") return [];
  return moveStatements(db, r, "cancelled", "cancelled", c);
}

/**
 * Review's events with the release desk's statements joined to each change's batch, around the
 * notifications' own (`reviewEffects`). `created` runs after a batch that may have made releases.
 */
export function withReleases(
  inner: ReviewEventsFactory,
  db: Db,
  created: () => void,
): ReviewEventsFactory {
  return (parts) => {
    const base: ReviewEvents = inner(parts);
    return {
      ...base,
      async pairsChanged(event: PairsChanged) {
        const told = await base.pairsChanged(event);
        const mine: BatchItem<"sqlite">[] = [];
        for (const c of event.changes) mine.push(...(await releaseStatements(db, c, Boolean(event.undo))));
        return { statements: [...told.statements, ...mine], messages: told.messages };
      },
      committed() {
        base.committed();
        created();
      },
    };
  };
}

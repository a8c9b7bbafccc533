import { and, count, eq, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client.ts";
import { releases, type User } from "../../db/schema.ts";
import { inScope, isVisible, scopeDirections, scopeOf } from "../../domain/scope.ts";
import { LABEL_DIRECTIONS, RELEASE_TEXTS, releaseRef, type ReleaseStage } from "../../domain/releases.ts";
import { mayMoveStage } from "../../domain/release-desk.ts";
import type { LabelCopy, ReleasePatch } from "../../domain/release-schemas.ts";
import type { Clock } from "../deps.ts";
import { badRequest, conflict, forbidden, notFound } from "../lib/http-error.ts";
import { readRules } from "../intake/rules.ts";
import type { TelegramOutbox } from "../notifications/outbox.ts";
import { historyStatement } from "./pair-effects.ts";
import { releasedText, releaseMessageKey, releaseUrl, scheduledText } from "./messages.ts";
import {
  filterSql,
  historyOf,
  listOrder,
  type ReleaseFilter,
  type ReleaseRow,
  releaseRowById,
  releaseRows,
  releaseViews,
  type StaffRelease,
  titleOf,
  trackDirections,
} from "./views.ts";

/**
 * The staff's release calls (issue 34): the list, one release with its history, a change with the
 * revision read (like a decision's: a stale one is 409 with the release as it is now), the
 * calendar. Within the caller's categories: a release whose track they may not see is 404, one they
 * see but of a label outside their categories 403 (domain/scope.ts, the track sight rule).
 */

export interface DeskDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  outbox: Pick<TelegramOutbox, "artistTextStatements">;
}

export const PAGE_SIZE = 50;

/** The label directions a staff member works on. */
export function staffLabels(user: User): string[] {
  const scope = scopeOf(user);
  return scope === "*"
    ? [...LABEL_DIRECTIONS]
    : scopeDirections(scope).filter((d) => (LABEL_DIRECTIONS as readonly string[]).includes(d));
}

/** The release by id for this staff member: 404 outside their sight, 403 outside their categories. */
export async function staffRow(db: Db, user: User, id: number): Promise<ReleaseRow> {
  const row = await releaseRowById(db, id);
  const scope = scopeOf(user);
  if (!row || !isVisible(trackDirections(row), scope)) throw notFound(RELEASE_TEXTS.notFound);
  if (!inScope(row.r.direction as never, scope)) throw forbidden(RELEASE_TEXTS.outsideCategories);
  return row;
}

export async function staffView(deps: DeskDeps, row: ReleaseRow): Promise<StaffRelease> {
  const [view] = await releaseViews(deps.db, [row], await readRules(deps.db), deps.clock.now(), true);
  return view;
}

export async function staffList(
  deps: DeskDeps,
  user: User,
  q: Omit<ReleaseFilter, "directions"> & { direction?: string; page: number; oldest?: boolean },
) {
  const mine = staffLabels(user);
  if (q.direction && !mine.includes(q.direction)) throw forbidden(RELEASE_TEXTS.outsideCategories);
  const where = filterSql({ ...q, directions: (q.direction ? [q.direction] : mine) as ReleaseFilter["directions"] });
  const [{ n }] = await deps.db.select({ n: count() }).from(releases).where(where);
  const pages = Math.max(1, Math.ceil(n / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const rows = await releaseRows(deps.db, where).orderBy(...listOrder(Boolean(q.oldest)))
    .limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE);
  const list = await releaseViews(deps.db, rows, await readRules(deps.db), deps.clock.now(), true);
  return { releases: list, total: n, page, pages, page_size: PAGE_SIZE };
}

export async function staffOne(deps: DeskDeps, user: User, id: number) {
  const row = await staffRow(deps.db, user, id);
  return { release: await staffView(deps, row), history: await historyOf(deps.db, id) };
}

/** Refuses a catalogue number another release of the label has, naming it. */
async function checkCatalogue(db: Db, direction: string, id: number, value: string) {
  const [other] = await db.select({ id: releases.id, catalogue_number: releases.catalogue_number }).from(releases)
    .where(and(eq(releases.direction, direction), eq(releases.catalogue_number, value), ne(releases.id, id)))
    .limit(1);
  if (other) throw conflict(RELEASE_TEXTS.catalogueTaken(value, releaseRef(other)), { release_id: other.id });
}

/** The fields a patch changes, before and after (only those that differ). */
function changedFields(row: ReleaseRow["r"], patch: ReleasePatch) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const key of ["stage", "catalogue_number", "release_date", "title", "version", "note"] as const) {
    if (patch[key] === undefined || patch[key] === row[key]) continue;
    before[key] = row[key];
    after[key] = patch[key];
  }
  return { before, after };
}

/** The artist's message a patch makes: scheduled (or its date or number changed), or released by hand. */
function patchMessages(deps: DeskDeps, row: ReleaseRow, next: ReleaseRow["r"]): BatchItem<"sqlite">[] {
  if (row.user_id === null) return [];
  const url = releaseUrl(deps.publicUrl, next.id);
  const title = titleOf({ r: next, filename: row.filename });
  if (next.stage === "scheduled") {
    const moved = row.r.stage !== "scheduled" || row.r.release_date !== next.release_date ||
      row.r.catalogue_number !== next.catalogue_number;
    if (!moved) return [];
    const text = scheduledText({ title, date: next.release_date!, catalogue: next.catalogue_number!, url });
    return [...deps.outbox.artistTextStatements({
      key: releaseMessageKey.scheduled(next.id, next.revision),
      userId: row.user_id,
      text,
    })];
  }
  if (next.stage === "released" && row.r.stage !== "released") {
    const text = releasedText({ title, direction: next.direction, catalogue: next.catalogue_number, url });
    return [
      ...deps.outbox.artistTextStatements({ key: releaseMessageKey.released(next.id), userId: row.user_id, text }),
    ];
  }
  return [];
}

export async function patchRelease(deps: DeskDeps, user: User, id: number, patch: ReleasePatch) {
  const { db } = deps;
  const row = await staffRow(db, user, id);
  const r = row.r;
  if (patch.revision !== r.revision) {
    throw conflict(RELEASE_TEXTS.changed, { release: await staffView(deps, row) });
  }
  const stage: ReleaseStage = patch.stage ?? r.stage;
  if (!mayMoveStage(r.stage, stage)) throw badRequest(RELEASE_TEXTS.badMove(r.stage, stage));
  const now = deps.clock.now();
  const next = {
    ...r,
    ...Object.fromEntries(Object.entries(patch).filter(([k, v]) => v !== undefined && k !== "revision")),
    stage,
    revision: r.revision + 1,
    updated_at: now,
  } as ReleaseRow["r"];
  if (stage === "scheduled" && (!next.catalogue_number || !next.release_date)) {
    throw badRequest(RELEASE_TEXTS.needsNumberAndDate);
  }
  if (next.catalogue_number && next.catalogue_number !== r.catalogue_number) {
    await checkCatalogue(db, r.direction, r.id, next.catalogue_number);
  }
  const { before, after } = changedFields(r, patch);
  if (Object.keys(after).length === 0) return await staffOne(deps, user, id);
  if (stage === "materials_received" && !next.materials_complete_at) next.materials_complete_at = now;
  if (stage === "released" && r.stage !== "released") next.released_at = now;
  // The label copy's title and version follow the staff's.
  const copy = r.label_copy as LabelCopy | null;
  const label_copy = copy && (patch.title !== undefined || patch.version !== undefined)
    ? { ...copy, title: next.title ?? copy.title, version: next.version }
    : copy;
  const update = db.update(releases).set({
    stage: next.stage,
    catalogue_number: next.catalogue_number,
    release_date: next.release_date,
    title: next.title,
    version: next.version,
    note: next.note,
    label_copy,
    materials_complete_at: next.materials_complete_at,
    released_at: next.released_at,
    revision: next.revision,
    updated_at: now,
  }).where(and(eq(releases.id, id), eq(releases.revision, r.revision)));
  try {
    const [done] = await db.batch([
      update,
      historyStatement(db, { releaseId: id, by: user.id, action: "edit", before, after, at: now }),
      ...patchMessages(deps, row, next),
    ]);
    if (done.rowsAffected === 0) throw conflict(RELEASE_TEXTS.changed);
  } catch (err) {
    // Two requests giving the same number at once: the unique index keeps one.
    if (String(err).includes("releases_direction_catalogue_idx") || String((err as Error).cause).includes("UNIQUE")) {
      throw conflict(RELEASE_TEXTS.catalogueTaken(next.catalogue_number ?? "", "другого релиза"));
    }
    throw err;
  }
  return await staffOne(deps, user, id);
}

/** GET …/releases/calendar: the scheduled and released ones by day, within the caller's labels. */
export async function calendar(deps: DeskDeps, user: User, q: { direction?: string; from: string; to: string }) {
  const mine = staffLabels(user);
  if (q.direction && !mine.includes(q.direction)) throw forbidden(RELEASE_TEXTS.outsideCategories);
  const where = filterSql({
    directions: (q.direction ? [q.direction] : mine) as ReleaseFilter["directions"],
    from: q.from,
    to: q.to,
    dated: true,
  });
  const rows = await releaseRows(deps.db, where).orderBy(sql`${releases.release_date}`, releases.id);
  const list = await releaseViews(deps.db, rows, await readRules(deps.db), deps.clock.now(), true);
  const days = new Map<string, StaffRelease[]>();
  for (const rel of list) days.set(rel.release_date!, [...(days.get(rel.release_date!) ?? []), rel]);
  return { from: q.from, to: q.to, days: [...days].map(([date, releases]) => ({ date, releases })) };
}

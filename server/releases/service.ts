import type { Db } from "../../db/client.ts";
import type { User } from "../../db/schema.ts";
import type { LabelCopy, ReleasePatch } from "../../domain/release-schemas.ts";
import type { AppDeps } from "../deps.ts";
import type { Notifications } from "../notifications/notifications.ts";
import type { ReviewEventsFactory } from "../review/events.ts";
import { calendar, type DeskDeps, patchRelease, staffList, staffOne, staffRow } from "./desk.ts";
import { csvResponse, csvRow, filesZip, labelCopyCsv, masterSeconds } from "./exports.ts";
import { releaseFigures } from "./figures.ts";
import { afterMaterialsChanged, artistList, artistOne, artistRow, saveLabelCopy } from "./label-copy.ts";
import { withReleases } from "./pair-effects.ts";
import { createReleaseSweep } from "./sweep.ts";
import { filterSql, type ReleaseFilter, releaseRows } from "./views.ts";
import { staffLabels } from "./desk.ts";
import { forbidden } from "../lib/http-error.ts";
import { RELEASE_TEXTS } from "../../domain/releases.ts";
import { releases } from "../../db/schema.ts";
import { asc } from "drizzle-orm";

/**
 * `ctx.releases` (issue 34): the release desk's one front. Its tables (`releases`,
 * `release_history`, `release_materials`) are written only here and in materials/.
 */
export type ReleasesService = ReturnType<typeof createReleases>;

export interface StaffListQuery {
  direction?: string;
  stage?: ReleaseFilter["stage"];
  from?: string;
  to?: string;
  page: number;
  sort?: "newest" | "oldest";
}

export function createReleases(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "config" | "storage"> & {
    notifications: Pick<Notifications, "outbox" | "sender">;
  },
) {
  const db: Db = deps.db;
  const holdMs = (deps.config.decisionNotifyHoldS ?? 0) * 1000;
  const desk: DeskDeps = { db, clock: deps.clock, publicUrl: deps.config.publicUrl, outbox: deps.notifications.outbox };
  const artistDeps = { db, clock: deps.clock, holdMs };
  const sweep = createReleaseSweep({
    ...deps,
    outbox: deps.notifications.outbox,
    kick: () => deps.notifications.sender.kick(),
  });

  async function exportRows(user: User, q: { direction?: string; from?: string; to?: string }) {
    const mine = staffLabels(user);
    if (q.direction && !mine.includes(q.direction)) throw forbidden(RELEASE_TEXTS.outsideCategories);
    const directions = (q.direction ? [q.direction] : mine) as ReleaseFilter["directions"];
    const rows = await releaseRows(db, filterSql({ directions, from: q.from, to: q.to, live: true }))
      .orderBy(asc(releases.release_date), asc(releases.catalogue_number), asc(releases.id));
    return await Promise.all(rows.map(async (r) => csvRow(r, await masterSeconds(db, r.r.id))));
  }

  return {
    /** Review's events with the releases' statements joined (docs/decisions/0350). */
    reviewEvents: (inner: ReviewEventsFactory) => withReleases(inner, db, () => sweep.soon(holdMs)),
    sweep,
    list: (user: User, q: StaffListQuery) => staffList(desk, user, { ...q, oldest: q.sort === "oldest" }),
    one: (user: User, id: number) => staffOne(desk, user, id),
    patch: (user: User, id: number, patch: ReleasePatch) => patchRelease(desk, user, id, patch),
    calendar: (user: User, q: { direction?: string; from: string; to: string }) => calendar(desk, user, q),
    async staffLabelCopy(user: User, id: number, copy: LabelCopy) {
      await saveLabelCopy(artistDeps, await staffRow(db, user, id), copy, user);
      return await staffOne(desk, user, id);
    },
    async oneCsv(user: User, id: number) {
      const row = await staffRow(db, user, id);
      const name = `${row.r.catalogue_number ?? `release-${row.r.id}`}-label-copy.csv`;
      return csvResponse(labelCopyCsv([csvRow(row, await masterSeconds(db, id))]), name);
    },
    async exportCsv(user: User, q: { direction?: string; from?: string; to?: string }) {
      const stamp = deps.clock.now().toISOString().slice(0, 10);
      return csvResponse(labelCopyCsv(await exportRows(user, q)), `releases-${q.direction ?? "all"}-${stamp}.csv`);
    },
    async filesZip(user: User, id: number) {
      return await filesZip(db, deps.storage, await staffRow(db, user, id), deps.clock.now());
    },
    artistList: (userId: number) => artistList(artistDeps, userId),
    artistOne: (userId: number, id: number) => artistOne(artistDeps, userId, id),
    async artistLabelCopy(userId: number, id: number, copy: LabelCopy) {
      await saveLabelCopy(artistDeps, await artistRow(artistDeps, userId, id), copy, { id: userId });
      return await artistOne(artistDeps, userId, id);
    },
    /** PUT /api/releases/{id}/label-copy: the owner's, or a staff member's within their categories. */
    async anyLabelCopy(user: User, id: number, copy: LabelCopy) {
      const own = await artistRow(artistDeps, user.id, id).catch(() => null);
      if (own || !(user.is_admin || user.is_moderator)) {
        await saveLabelCopy(artistDeps, own ?? await artistRow(artistDeps, user.id, id), copy, user);
        return await artistOne(artistDeps, user.id, id);
      }
      await saveLabelCopy(artistDeps, await staffRow(db, user, id), copy, user);
      return (await staffOne(desk, user, id)).release;
    },
    /** Called by materials/ whenever a file's state changes: moves a complete release on. */
    afterMaterialsChanged: (releaseId: number) => afterMaterialsChanged(artistDeps, releaseId),
    figures: () => releaseFigures(db, deps.clock.now()),
  };
}

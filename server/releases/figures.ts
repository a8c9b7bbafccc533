import { and, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { releases } from "../../db/schema.ts";
import { LABEL_DIRECTIONS, type LabelDirection } from "../../domain/releases.ts";
import { labelDay } from "../../domain/release-desk.ts";

/**
 * The admin dashboard's release figures per label (issue 34): releases waiting for materials now,
 * median days from the accept to materials complete and to the release (over every release that got
 * there), and releases whose day falls in the current month (Moscow; scheduled or out).
 */
export interface ReleaseFigures {
  direction: LabelDirection;
  waiting_for_materials: number;
  median_days_to_materials: number | null;
  median_days_to_release: number | null;
  releases_this_month: number;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const m = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return Math.round(m * 10) / 10;
}

const days = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 86_400_000;

export async function releaseFigures(db: Db, now: Date): Promise<ReleaseFigures[]> {
  const rows = await db.select({
    direction: releases.direction,
    stage: releases.stage,
    accepted_at: releases.accepted_at,
    materials_complete_at: releases.materials_complete_at,
    released_at: releases.released_at,
    release_date: releases.release_date,
  }).from(releases).where(and(inArray(releases.direction, [...LABEL_DIRECTIONS]), isNotNull(releases.accepted_at)))
    .orderBy(sql`${releases.id}`);
  const month = labelDay(now).slice(0, 7);
  return LABEL_DIRECTIONS.map((direction) => {
    const mine = rows.filter((r) => r.direction === direction);
    return {
      direction,
      waiting_for_materials: mine.filter((r) => r.stage === "materials_requested").length,
      median_days_to_materials: median(
        mine.filter((r) => r.materials_complete_at).map((r) => days(r.accepted_at, r.materials_complete_at!)),
      ),
      median_days_to_release: median(
        mine.filter((r) => r.stage === "released" && r.released_at).map((r) => days(r.accepted_at, r.released_at!)),
      ),
      releases_this_month: mine.filter((r) =>
        (r.stage === "scheduled" || r.stage === "released") && r.release_date?.startsWith(month)
      ).length,
    };
  });
}

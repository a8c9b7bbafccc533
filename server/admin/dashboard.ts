import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { ADMIN_DIRECTION_LABELS, type Direction, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { tracks, users } from "../../db/schema.ts";
import type { AppContext, AppEnv } from "../deps.ts";
import { validate } from "../lib/validate.ts";
import { tzOffsetQuery } from "../tracks/service.ts";
import { reviewCounts } from "../tracks/decisions.ts";
import type { ReviewStatus } from "../../domain/review.ts";

/**
 * GET /api/admin/dashboard?period=day|week|month|year — the statistics of spec 2 §3, each figure an
 * SQL aggregate (a handful of queries whatever the number of tracks).
 */

export const PERIODS = ["day", "week", "month", "year"] as const;
export type Period = (typeof PERIODS)[number];

const MONTHS_RU = ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DashboardStats {
  total_users: number;
  total_tracks: number;
  track_downloads: { downloaded: number; not_downloaded: number };
  top_user: { username: string; track_count: number } | null;
  user_platforms: { vk: number; telegram: number; combined: number };
  track_timeline: { labels: string[]; data: number[]; period: Period };
  directions: { labels: string[]; data: number[] };
  /**
   * Review states per direction (issue 13), in the canonical direction order: each direction's
   * tracks by the state of that direction; failed uploads are not under review and not counted.
   */
  review: Array<{ direction: Direction; label: string } & Record<ReviewStatus, number>>;
}

const pad = (n: number) => String(n).padStart(2, "0");
const monthKey = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;

/**
 * Buckets of the period ending with the current one, in the viewer's local time (`tzOffset`
 * minutes east of UTC): day = 24 hours, week = 7 days, month = 30 days, year = 12 months.
 */
export function timelineBuckets(period: Period, now: Date, tzOffset: number) {
  const off = tzOffset * 60_000;
  const local = new Date(now.getTime() + off); // UTC fields of `local` are the viewer's wall clock
  if (period === "year") {
    const y = local.getUTCFullYear();
    const m = local.getUTCMonth();
    const keys: string[] = [];
    const labels: string[] = [];
    for (let i = 11; i >= 0; i--) {
      const d = new Date(Date.UTC(y, m - i, 1));
      keys.push(monthKey(d));
      labels.push(`${MONTHS_RU[d.getUTCMonth()]} ${d.getUTCFullYear()}`);
    }
    const start = Date.UTC(y, m - 11, 1) - off;
    const end = Date.UTC(y, m + 1, 1) - off;
    return { keys, labels, start, end };
  }
  const step = period === "day" ? HOUR : DAY;
  const count = period === "day" ? 24 : period === "week" ? 7 : 30;
  const current = Math.floor(local.getTime() / step); // bucket number of "now" in local time
  const keys: string[] = [];
  const labels: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const n = current - i;
    const d = new Date(n * step);
    keys.push(String(n));
    labels.push(period === "day" ? `${pad(d.getUTCHours())}:00` : `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}`);
  }
  return { keys, labels, start: (current - count + 1) * step - off, end: (current + 1) * step - off };
}

export async function computeDashboard(db: Db, period: Period, now: Date, tzOffset = 0): Promise<DashboardStats> {
  // One pass over tracks: counts per distinct direction set (a few dozen sets at most) give the
  // totals and, split in JS, the per-direction counts. Cheaper than testing six substrings per row.
  const sets = await db
    .select({
      directions: tracks.directions,
      count: sql<number>`count(*)`,
      downloaded: sql<number>`coalesce(sum(${tracks.downloaded}), 0)`,
    })
    .from(tracks)
    .groupBy(tracks.directions);
  let total = 0;
  let downloaded = 0;
  const perDirection = new Map<Direction, number>(DIRECTIONS.map((d) => [d, 0]));
  for (const s of sets) {
    const n = Number(s.count);
    total += n;
    downloaded += Number(s.downloaded);
    for (const d of parseDirections(s.directions)) perDirection.set(d, perDirection.get(d)! + n);
  }

  const [platforms] = await db
    .select({
      total: sql<number>`count(*)`,
      vk: sql<number>`coalesce(sum(${users.vk_id} IS NOT NULL AND ${users.telegram_id} IS NULL), 0)`,
      telegram: sql<number>`coalesce(sum(${users.telegram_id} IS NOT NULL AND ${users.vk_id} IS NULL), 0)`,
      combined: sql<number>`coalesce(sum(${users.vk_id} IS NOT NULL AND ${users.telegram_id} IS NOT NULL), 0)`,
    })
    .from(users);

  const top = await db.all<{ username: string; track_count: number }>(sql`
    SELECT u.username AS username, t.c AS track_count
    FROM (SELECT ${tracks.user_id} AS uid, count(*) AS c FROM ${tracks}
          WHERE ${tracks.user_id} IS NOT NULL GROUP BY ${tracks.user_id}
          ORDER BY c DESC, ${tracks.user_id} ASC LIMIT 1) t
    JOIN ${users} u ON u.id = t.uid`);

  const b = timelineBuckets(period, now, tzOffset);
  const offMs = tzOffset * 60_000;
  // Hours and days are whole multiples in epoch milliseconds (plus the offset), so integer division
  // buckets them; months are uneven and go through strftime.
  // Local hours or days are whole multiples in epoch milliseconds once shifted by the offset, so
  // integer division buckets them. Months are uneven: they are grouped by day in SQL (at most 366
  // rows) and the days summed into months here, which is cheaper than strftime on every row.
  // The constants are our own integers, inlined so SQLite does integer (not real) division.
  const shifted = sql`(${tracks.upload_date} + ${sql.raw(String(Math.trunc(offMs)))})`;
  const unit = period === "day" ? HOUR : DAY;
  const rows = await db.all<{ k: number; c: number }>(sql`
    SELECT ${shifted} / ${sql.raw(String(unit))} AS k, count(*) AS c FROM ${tracks}
    WHERE ${tracks.upload_date} >= ${b.start} AND ${tracks.upload_date} < ${b.end}
    GROUP BY k`);
  const byKey = new Map<string, number>();
  for (const r of rows) {
    const n = Number(r.k);
    const key = period === "year" ? monthKey(new Date(n * DAY)) : String(n);
    byKey.set(key, (byKey.get(key) ?? 0) + Number(r.c));
  }

  const review = await reviewCounts(db);

  return {
    total_users: Number(platforms.total),
    total_tracks: total,
    track_downloads: { downloaded, not_downloaded: total - downloaded },
    top_user: top[0] ? { username: top[0].username, track_count: Number(top[0].track_count) } : null,
    user_platforms: {
      vk: Number(platforms.vk),
      telegram: Number(platforms.telegram),
      combined: Number(platforms.combined),
    },
    track_timeline: { labels: b.labels, data: b.keys.map((k) => byKey.get(k) ?? 0), period },
    directions: {
      labels: DIRECTIONS.map((d) => ADMIN_DIRECTION_LABELS[d]),
      data: DIRECTIONS.map((d) => perDirection.get(d)!),
    },
    review: DIRECTIONS.map((d) => ({ direction: d, label: ADMIN_DIRECTION_LABELS[d], ...review.get(d)! })),
  };
}

const querySchema = z.object({
  period: z
    .enum([...PERIODS, ""], { message: "Период: day, week, month или year" })
    .optional()
    .transform((v) => (v ? v : "month") as Period),
  tz_offset: tzOffsetQuery,
});

export function createAdminDashboardRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get("/", validate("query", querySchema), async (c) => {
    const q = c.req.valid("query");
    return c.json({ success: true, stats: await computeDashboard(ctx.db, q.period, ctx.clock.now(), q.tz_offset) });
  });
}

import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { type Direction, DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../domain/staff-directions.ts";
import { trackCounts, tracks, users, userTrackCounts } from "../../db/schema.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { validate } from "../http/validate.ts";
import { tzOffsetQuery } from "../tracks/service.ts";
import { isReviewStatus, type ReviewStatus } from "../../domain/review.ts";

/**
 * GET /api/admin/dashboard?period=day|week|month|year — the statistics of spec 2 §3: the counts
 * from the running totals that triggers keep beside `tracks` (decision 0190), the timeline from
 * range counts over the upload-date index (four queries whatever the number of tracks).
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
 * `edges` are the buckets' bounds in epoch milliseconds: bucket i holds [edges[i], edges[i + 1]).
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
    const edges = Array.from({ length: 13 }, (_, i) => Date.UTC(y, m - 11 + i, 1) - off);
    return { keys, labels, start: edges[0], end: edges[12], edges };
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
  const edges = Array.from({ length: count + 1 }, (_, i) => (current - count + 1 + i) * step - off);
  return { keys, labels, start: edges[0], end: edges[count], edges };
}

/** The response figures' window: the period the timeline shows (decision 0235). */
export function figuresWindow(period: Period, now: Date, tzOffset: number) {
  const b = timelineBuckets(period, now, tzOffset);
  return { name: period, from: new Date(b.start), to: new Date(b.end) };
}

export async function computeDashboard(db: Db, period: Period, now: Date, tzOffset = 0): Promise<DashboardStats> {
  // The running counts kept by triggers on `tracks` (decision 0190): one row per direction set,
  // review copy, downloaded and failed flag — a few hundred rows at most, whatever the number of
  // tracks. Totals, downloads, per-direction counts and review states are split from them here.
  const groups = await db.select().from(trackCounts);
  let total = 0;
  let downloaded = 0;
  const perDirection = new Map<Direction, number>(DIRECTIONS.map((d) => [d, 0]));
  const review = new Map<Direction, Record<ReviewStatus, number>>(
    DIRECTIONS.map((d) => [d, { new: 0, listened: 0, shortlisted: 0, accepted: 0, declined: 0 }]),
  );
  for (const g of groups) {
    const n = Number(g.n);
    if (n <= 0) continue;
    total += n;
    downloaded += Number(g.downloaded) * n;
    const directions = parseDirections(g.directions);
    for (const d of directions) perDirection.set(d, perDirection.get(d)! + n);
    // Failed uploads are not under review (decision 0155).
    if (Number(g.failed)) continue;
    const states = new Map(g.review.split(",").map((entry) => entry.split(":") as [string, string]));
    for (const d of directions) {
      const state = states.get(d);
      review.get(d)![isReviewStatus(state) ? state : "new"] += n;
    }
  }

  const [platforms] = await db
    .select({
      total: sql<number>`count(*)`,
      vk: sql<number>`coalesce(sum(${users.vk_id} IS NOT NULL AND ${users.telegram_id} IS NULL), 0)`,
      telegram: sql<number>`coalesce(sum(${users.telegram_id} IS NOT NULL AND ${users.vk_id} IS NULL), 0)`,
      combined: sql<number>`coalesce(sum(${users.vk_id} IS NOT NULL AND ${users.telegram_id} IS NOT NULL), 0)`,
    })
    .from(users);

  // The most tracks, the smallest user id among equals: two seeks in (n, user_id).
  const top = await db.all<{ username: string; track_count: number }>(sql`
    SELECT u.username AS username, c.n AS track_count
    FROM ${userTrackCounts} c JOIN ${users} u ON u.id = c.user_id
    WHERE c.n = (SELECT max(n) FROM ${userTrackCounts})
    ORDER BY c.user_id ASC LIMIT 1`);

  // One count per bucket over the upload_date index, each a range between two of the bucket edges
  // (local hours, days or months shifted to UTC milliseconds): no grouping, no arithmetic per row.
  const b = timelineBuckets(period, now, tzOffset);
  const counts = sql.join(
    b.keys.map((_, i) =>
      sql`(SELECT count(*) FROM ${tracks} WHERE ${tracks.upload_date} >= ${b.edges[i]} AND ${tracks.upload_date} < ${
        b.edges[i + 1]
      }) AS ${sql.raw(`c${i}`)}`
    ),
    sql`, `,
  );
  const [row] = await db.all<Record<string, number>>(sql`SELECT ${counts}`);
  const timeline = b.keys.map((_, i) => Number(row[`c${i}`]));

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
    track_timeline: { labels: b.labels, data: timeline, period },
    directions: {
      labels: DIRECTIONS.map((d) => ADMIN_DIRECTION_LABELS[d]),
      data: DIRECTIONS.map((d) => perDirection.get(d)!),
    },
    review: DIRECTIONS.map((d) => ({ direction: d, label: ADMIN_DIRECTION_LABELS[d], ...review.get(d)! })),
  };
}

export const dashboardQuerySchema = z.object({
  period: z
    .enum([...PERIODS, ""], { message: "Период: day, week, month или year" })
    .optional()
    .transform((v) => (v ? v : "month") as Period),
  tz_offset: tzOffsetQuery,
});

export function createAdminDashboardRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get("/", validate("query", dashboardQuerySchema), async (c) => {
      const q = c.req.valid("query");
      const stats = await computeDashboard(ctx.db, q.period, ctx.clock.now(), q.tz_offset);
      // The review desk's work per direction (issue 23): every direction for an administrator. Also
      // inside `stats`, beside the other figures.
      const review_queue = await ctx.review.reviewQueue("*");
      return c.json({ success: true, stats: { ...stats, review_queue }, review_queue });
    })
    // How fast the staff answer (issue 24, decision 0235): the tracks uploaded in the period, every
    // direction and every staff member. A call of its own, fetched beside the dashboard (0237).
    .get("/response-figures", validate("query", dashboardQuerySchema), async (c) => {
      const q = c.req.valid("query");
      const window = figuresWindow(q.period, ctx.clock.now(), q.tz_offset);
      const response_figures = await ctx.review.responseFigures("*", window, "all");
      return c.json({ success: true, response_figures });
    })
    // The labels' release desk per label (issue 34): waiting for materials, median days, this month.
    .get("/releases", async (c) => c.json({ success: true as const, release_figures: await ctx.releases.figures() }));
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIRECTIONS } from "../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../domain/staff-directions.ts";
import { createTrack, createUser } from "../testing/factories.ts";
import { naughtyStrings, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { timelineBuckets } from "./dashboard.ts";

// Wednesday 2025-06-11 14:20 UTC.
const NOW = Date.UTC(2025, 5, 11, 14, 20, 0);
const clock = { now: () => new Date(NOW) };
const H = 3_600_000;
const D = 24 * H;

let f: StaffFixture;

type Stats = {
  total_users: number;
  total_tracks: number;
  track_downloads: { downloaded: number; not_downloaded: number };
  top_user: { username: string; track_count: number } | null;
  user_platforms: { vk: number; telegram: number; combined: number };
  track_timeline: { labels: string[]; data: number[]; period: string };
  directions: { labels: string[]; data: number[] };
};

const stats = async (query = "") => {
  const r = await f.call("GET", `/api/admin/dashboard${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.success).toBe(true);
  return r.body.stats as Stats;
};

beforeAll(async () => {
  f = await staffFixture({ clock });
});
afterAll(() => f.close());

describe("GET /api/admin/dashboard", () => {
  it("answers zeros and no top user on an empty site (users: the fixture's three)", async () => {
    const s = await stats();
    expect(s).toMatchObject({
      total_users: 3,
      total_tracks: 0,
      track_downloads: { downloaded: 0, not_downloaded: 0 },
      top_user: null,
      user_platforms: { vk: 0, telegram: 0, combined: 0 },
    });
    expect(s.track_timeline.period).toBe("month");
    expect(s.track_timeline.data).toHaveLength(30);
    expect(s.track_timeline.data.every((n) => n === 0)).toBe(true);
    expect(s.directions.labels).toEqual(DIRECTIONS.map((d) => ADMIN_DIRECTION_LABELS[d]));
    expect(s.directions.data).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("counts users, platforms, tracks, downloads, the top user and directions", async () => {
    const db = f.t.ctx.db;
    const vk = await createUser(db, { username: "vk_only", vk_id: "1" });
    const tg = await createUser(db, { username: "tg_only", telegram_id: "2" });
    await createUser(db, { username: "both", vk_id: "3", telegram_id: "4" });
    const at = (ms: number) => new Date(NOW - ms);
    await createTrack(db, {
      user_id: vk.id,
      directions: "label_neuropunk,podcast_neuropunk",
      upload_date: at(10 * 60_000),
      downloaded: true,
    });
    await createTrack(db, { user_id: vk.id, directions: "label_neuropunk", upload_date: at(2 * H) });
    await createTrack(db, { user_id: vk.id, directions: "show_neurogon", upload_date: at(3 * D) });
    await createTrack(db, {
      user_id: tg.id,
      directions: "label_koster,podcast_koster",
      upload_date: at(20 * D),
      downloaded: true,
    });
    await createTrack(db, {
      user_id: null,
      guest_username: "g",
      directions: "radio_k_profit",
      upload_date: at(200 * D),
    });

    const s = await stats("?period=month");
    expect(s).toMatchObject({
      total_users: 6,
      total_tracks: 5,
      track_downloads: { downloaded: 2, not_downloaded: 3 },
      top_user: { username: "vk_only", track_count: 3 },
      user_platforms: { vk: 1, telegram: 1, combined: 1 },
    });
    const byCode = Object.fromEntries(DIRECTIONS.map((d, i) => [d, s.directions.data[i]]));
    expect(byCode).toEqual({
      label_neuropunk: 2,
      podcast_neuropunk: 1,
      label_koster: 1,
      podcast_koster: 1,
      show_neurogon: 1,
      radio_k_profit: 1,
    });
    // Month: 30 daily buckets ending today (11.06); two today, one 3 days ago, one 20 days ago.
    const t = s.track_timeline;
    expect(t.labels[29]).toBe("11.06");
    expect(t.labels[0]).toBe("13.05");
    expect(t.data[29]).toBe(2);
    expect(t.data[26]).toBe(1);
    expect(t.data[9]).toBe(1);
    expect(t.data.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it("buckets by hour for a day, by day for a week, by month for a year", async () => {
    const day = (await stats("?period=day")).track_timeline;
    expect(day.period).toBe("day");
    expect(day.labels).toHaveLength(24);
    expect(day.labels[23]).toBe("14:00");
    expect(day.labels[0]).toBe("15:00");
    expect(day.data[23]).toBe(1); // 14:10
    expect(day.data[21]).toBe(1); // 12:20
    expect(day.data.reduce((a, b) => a + b, 0)).toBe(2);

    const week = (await stats("?period=week")).track_timeline;
    expect(week.labels).toEqual(["05.06", "06.06", "07.06", "08.06", "09.06", "10.06", "11.06"]);
    expect(week.data).toEqual([0, 0, 0, 1, 0, 0, 2]);

    const year = (await stats("?period=year")).track_timeline;
    expect(year.labels).toHaveLength(12);
    expect(year.labels[11]).toBe("июн 2025");
    expect(year.labels[0]).toBe("июл 2024");
    expect(year.data[11]).toBe(3); // June
    expect(year.data[10]).toBe(1); // 22 May
    expect(year.data[4]).toBe(1); // 200 days before: 23 Nov 2024
  });

  it("follows the viewer's time zone", async () => {
    // In Vladivostok (UTC+10) it is already 00:20 on the 12th: the track of ten minutes ago is
    // from the 12th there, the one of two hours ago from the 11th.
    const s = (await stats("?period=week&tz_offset=600")).track_timeline;
    expect(s.labels[6]).toBe("12.06");
    expect(s.data[6]).toBe(1);
    expect(s.data[5]).toBe(1);
  });

  it("refuses an unknown period or offset and survives naughty values", async () => {
    for (const q of ["?period=decade", "?period=DAY", "?tz_offset=9999", "?tz_offset=abc"]) {
      const r = await f.call("GET", `/api/admin/dashboard${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.success).toBe(false);
    }
    for (const s of naughtyStrings) {
      const v = encodeURIComponent(s);
      const r = await f.call("GET", `/api/admin/dashboard?period=${v}&tz_offset=${v}`);
      expect(r.status, JSON.stringify(s)).toBeLessThan(500);
    }
  });
});

describe("timelineBuckets", () => {
  it("ends each period with the current bucket and covers exactly its length", () => {
    const now = new Date(NOW);
    for (const [period, n, span] of [["day", 24, 24 * H], ["week", 7, 7 * D], ["month", 30, 30 * D]] as const) {
      const b = timelineBuckets(period, now, 0);
      expect(b.keys).toHaveLength(n);
      expect(b.end - b.start).toBe(span);
      expect(b.start <= NOW && NOW < b.end).toBe(true);
    }
    const y = timelineBuckets("year", now, 0);
    expect(y.start).toBe(Date.UTC(2024, 6, 1));
    expect(y.end).toBe(Date.UTC(2025, 6, 1));
  });
});

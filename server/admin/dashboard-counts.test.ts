/**
 * The dashboard's running counts (decision 0190): `track_counts` and `user_track_counts` are kept by
 * triggers on `tracks`, so after every kind of write they equal a fresh aggregation of `tracks`, and
 * the dashboard answers the figures that aggregation gives. The timeline's range counts put every
 * track in the same bucket as grouping by local hour, day or month did, in any time zone.
 */
import { eq, inArray } from "drizzle-orm";
import { migrate } from "drizzle-orm/libsql/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, migrateDb, openDb } from "../../db/client.ts";
import { tracks } from "../../db/schema.ts";
import { DIRECTIONS, parseDirections } from "../../domain/directions.ts";
import { isReviewStatus } from "../../domain/review.ts";
import { createTrack, createUser, decisionRevision } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { computeDashboard, PERIODS, timelineBuckets } from "./dashboard.ts";

const rows = async (db: Db, q: string) =>
  (await db.$client.execute(q)).rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]))
  );

/** The counts as kept by the triggers, and as a fresh aggregation of `tracks` gives them. */
async function expectCountsKept(db: Db, step: string) {
  const kept = await rows(db, "SELECT directions, review, downloaded, failed, n FROM track_counts ORDER BY 1, 2, 3, 4");
  const fresh = await rows(
    db,
    `SELECT directions, review, downloaded, status = 'failed' AS failed, count(*) AS n FROM tracks
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );
  expect(kept, `track_counts after: ${step}`).toEqual(fresh);
  const keptUsers = await rows(db, "SELECT user_id, n FROM user_track_counts ORDER BY user_id");
  const freshUsers = await rows(
    db,
    "SELECT user_id, count(*) AS n FROM tracks WHERE user_id IS NOT NULL GROUP BY user_id ORDER BY user_id",
  );
  expect(keptUsers, `user_track_counts after: ${step}`).toEqual(freshUsers);
}

/** The dashboard's figures computed track by track, the way the spec words them. */
async function expectedFigures(db: Db) {
  const all = await db.select().from(tracks);
  const directions = Object.fromEntries(DIRECTIONS.map((d) => [d, 0]));
  const review = Object.fromEntries(
    DIRECTIONS.map((
      d,
    ) => [d, { new: 0, listened: 0, shortlisted: 0, accepted: 0, declined: 0 } as Record<string, number>]),
  );
  const perUser = new Map<number, number>();
  for (const t of all) {
    const states = new Map(t.review.split(",").map((e) => e.split(":") as [string, string]));
    for (const d of parseDirections(t.directions)) {
      directions[d]++;
      if (t.status !== "failed") {
        const s = states.get(d);
        review[d][isReviewStatus(s) ? s : "new"]++;
      }
    }
    if (t.user_id !== null) perUser.set(t.user_id, (perUser.get(t.user_id) ?? 0) + 1);
  }
  const best = [...perUser].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  const topName = best ? (await rows(db, `SELECT username FROM users WHERE id = ${best[0]}`))[0].username : null;
  return {
    total_tracks: all.length,
    track_downloads: {
      downloaded: all.filter((t) => t.downloaded).length,
      not_downloaded: all.filter((t) => !t.downloaded).length,
    },
    top_user: best ? { username: topName, track_count: best[1] } : null,
    directions: DIRECTIONS.map((d) => directions[d]),
    review: DIRECTIONS.map((d) => review[d]),
  };
}

async function expectDashboardRight(db: Db, step: string) {
  await expectCountsKept(db, step);
  const s = await computeDashboard(db, "month", new Date());
  const want = await expectedFigures(db);
  expect(
    {
      total_tracks: s.total_tracks,
      track_downloads: s.track_downloads,
      top_user: s.top_user,
      directions: s.directions.data,
      review: s.review.map(({ new: n, listened, shortlisted, accepted, declined }) => ({
        new: n,
        listened,
        shortlisted,
        accepted,
        declined,
      })),
    },
    `dashboard after: ${step}`,
  ).toEqual(want);
}

describe("dashboard running counts kept by the triggers on tracks", () => {
  let f: StaffFixture;
  beforeAll(async () => {
    // The moderator reviews label_koster only, so their delete of a two-direction track is partial.
    f = await staffFixture({ moderatorCategories: "label_koster" });
  });
  afterAll(() => f.close());

  it("stay equal to the tracks through inserts, decisions, edits, failures, user and track deletes", async () => {
    const db = f.t.ctx.db;
    await expectDashboardRight(db, "nothing yet");

    const ann = await createUser(db, { username: "ann" });
    const bob = await createUser(db, { username: "bob" });
    const a1 = await createTrack(db, { user_id: ann.id, directions: "label_koster,podcast_koster", downloaded: true });
    const a2 = await createTrack(db, { user_id: ann.id, directions: "label_koster" });
    const b1 = await createTrack(db, { user_id: bob.id, directions: "label_neuropunk,podcast_neuropunk" });
    const g1 = await createTrack(db, {
      user_id: null,
      guest_username: "guest",
      directions: "label_koster,show_neurogon",
    });
    await createTrack(db, { user_id: bob.id, directions: "label_koster", status: "failed", error: "Дубликат" });
    await createTrack(db, { user_id: bob.id, directions: "podcast_koster", status: "processing" });
    await expectDashboardRight(db, "single inserts");

    // Several rows in one statement, as the bench and imports write them.
    await db.$client.execute({
      sql: `INSERT INTO tracks (filename, user_id, directions, upload_date, downloaded, status) VALUES
        ('x1.mp3', ?, 'radio_k_profit', ?, 1, 'completed'), ('x2.mp3', ?, 'radio_k_profit', ?, 0, 'completed'),
        ('x3.mp3', NULL, 'label_koster', ?, 0, 'failed')`,
      args: [bob.id, Date.now(), bob.id, Date.now(), Date.now()],
    });
    await expectDashboardRight(db, "a multi-row insert");
    // Bob now has 5 tracks, Ann 2.
    expect((await computeDashboard(db, "day", new Date())).top_user).toEqual({ username: "bob", track_count: 5 });

    const put = async (id: number, direction: string, status: string) =>
      expect(
        (await f.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, {
          json: { status, revision: await decisionRevision(db, id, direction) },
        })).status,
      ).toBe(200);
    await put(a1.id, "label_koster", "accepted");
    await put(a1.id, "podcast_koster", "declined");
    await put(g1.id, "show_neurogon", "shortlisted");
    await put(b1.id, "label_neuropunk", "listened");
    await expectDashboardRight(db, "decisions");
    await put(b1.id, "label_neuropunk", "new");
    await expectDashboardRight(db, "a decision put back to new");

    // The admin's edit: directions (the decision of the removed one leaves the counts), downloaded,
    // another owner, then no owner.
    const edit = async (id: number, json: Record<string, unknown>) =>
      expect((await f.call("PUT", `/api/admin/tracks/${id}`, { json })).status).toBe(200);
    await edit(a1.id, { filename: a1.filename, directions: "label_koster", downloaded: false });
    await expectDashboardRight(db, "the admin's edit of directions and downloaded");
    await edit(a2.id, { filename: a2.filename, user_id: bob.id, directions: "label_koster" });
    await expectDashboardRight(db, "a track given to another user");
    await edit(b1.id, {
      filename: b1.filename,
      user_id: null,
      guest_username: "Гость",
      directions: "label_neuropunk,podcast_neuropunk",
    });
    await expectDashboardRight(db, "a track made a guest's");

    // The moderator's edit of the downloaded flag.
    const mod = await f.call("PUT", `/api/moderator/tracks/${a2.id}`, {
      headers: f.as.moderator,
      json: { downloaded: true },
    });
    expect(mod.status, JSON.stringify(mod.body)).toBe(200);
    await expectDashboardRight(db, "the moderator's edit");

    // Processing outcomes and writes of columns the counts do not read.
    await db.update(tracks).set({ status: "failed", error: "Не MP3" }).where(eq(tracks.id, g1.id));
    await expectDashboardRight(db, "a track failed");
    await db.update(tracks).set({ status: "completed", error: null }).where(eq(tracks.id, g1.id));
    await db.update(tracks).set({ lease_until: new Date(), lease_owner: "x", filename: "renamed.mp3" }).where(
      eq(tracks.id, a1.id),
    );
    await expectDashboardRight(db, "a failed track completed again, and a lease written");

    // A deleted user's tracks stay as guest tracks (their user_id set null by the foreign key).
    expect((await f.call("DELETE", `/api/admin/users/${bob.id}`)).status).toBe(200);
    await expectDashboardRight(db, "a user deleted");
    expect((await computeDashboard(db, "day", new Date())).top_user).toEqual({ username: "ann", track_count: 1 });

    // Deletes: the admin's, the moderator's partial one (only their direction goes), a bulk one.
    expect((await f.call("DELETE", `/api/admin/tracks/${a2.id}`)).status).toBe(200);
    await expectDashboardRight(db, "the admin's delete");
    const partial = await f.call("DELETE", `/api/moderator/tracks/${g1.id}`, { headers: f.as.moderator });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect((await db.select().from(tracks).where(eq(tracks.id, g1.id)))[0].directions).toBe("show_neurogon");
    await expectDashboardRight(db, "the moderator's partial delete");
    const rest = (await db.select({ id: tracks.id }).from(tracks)).map((t) => t.id).filter((id) => id !== a1.id);
    await db.delete(tracks).where(inArray(tracks.id, rest));
    await expectDashboardRight(db, "a bulk delete");
    await db.delete(tracks);
    await expectDashboardRight(db, "every track deleted");
    expect(await rows(db, "SELECT count(*) AS n FROM track_counts")).toEqual([{ n: 0 }]);
    expect(await rows(db, "SELECT count(*) AS n FROM user_track_counts")).toEqual([{ n: 0 }]);
  });

  it("are triggers that exist after all migrations (a rebuild of tracks would drop them)", async () => {
    const names = (await rows(
      f.t.ctx.db,
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'tracks' ORDER BY name",
    ))
      .map((r) => r.name);
    expect(names).toEqual([
      "track_pair_facts_track_insert",
      "track_pair_facts_track_update",
      "tracks_counts_delete",
      "tracks_counts_insert",
      "tracks_counts_update",
      "tracks_user_counts_update",
    ]);
  });
});

describe("migration 0009", () => {
  it("fills the counts from the tracks already there", async () => {
    const dir = await Deno.makeTempDir({ prefix: "np-counts-" });
    const db = await openDb({ url: `file:${dir}/app.db` });
    try {
      // The migrations before the counts, from a copy of the folder whose journal stops at 0007.
      const source = new URL("../../db/migrations/", import.meta.url).pathname;
      await Deno.mkdir(`${dir}/migrations/meta`, { recursive: true });
      for (const e of Deno.readDirSync(source)) {
        if (e.isFile) await Deno.copyFile(`${source}${e.name}`, `${dir}/migrations/${e.name}`);
      }
      const journal = JSON.parse(await Deno.readTextFile(`${source}meta/_journal.json`));
      journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 7);
      await Deno.writeTextFile(`${dir}/migrations/meta/_journal.json`, JSON.stringify(journal));
      await migrate(db, { migrationsFolder: `${dir}/migrations` });
      expect(await rows(db, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'track_counts'")).toEqual([{ n: 0 }]);

      await db.$client.execute("INSERT INTO users (username) VALUES ('u1'), ('u2')");
      await db.$client.execute(
        `INSERT INTO tracks (filename, user_id, directions, upload_date, downloaded, status, review) VALUES
        ('a', 1, 'label_koster', 1, 1, 'completed', 'label_koster:accepted'), ('b', 1, 'label_koster', 2, 0, 'completed', ''),
        ('c', 2, 'label_koster', 3, 0, 'failed', ''), ('d', NULL, 'show_neurogon', 4, 0, 'processing', ''),
        ('e', 1, 'label_koster', 5, 0, 'completed', '')`,
      );

      await migrateDb(db);
      await expectCountsKept(db, "the migration");
      expect(await rows(db, "SELECT user_id, n FROM user_track_counts ORDER BY user_id")).toEqual([
        { user_id: 1, n: 3 },
        { user_id: 2, n: 1 },
      ]);
      // And the triggers work from there on.
      await db.$client.execute("DELETE FROM tracks WHERE filename = 'e'");
      await expectCountsKept(db, "a delete after the migration");
    } finally {
      db.$client.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  });
});

describe("timeline range counts", () => {
  let f: StaffFixture;
  beforeAll(async () => {
    f = await staffFixture();
  });
  afterAll(() => f.close());

  it("put each track in the bucket of its local hour, day or month, for any offset", async () => {
    const db = f.t.ctx.db;
    // Tuesday 2025-03-04 00:07 UTC: the year reaches back over a leap day's month.
    const now = new Date(Date.UTC(2025, 2, 4, 0, 7));
    const offsets = [0, 180, -300, 330, 345, 600, -570, 7, -1, 840, -720];
    // Tracks on and beside every bucket edge of every period and offset, plus some spread over a year.
    const dates = new Set<number>();
    for (const period of PERIODS) {
      for (const off of offsets) {
        for (const e of timelineBuckets(period, now, off).edges) for (const d of [-1, 0, 1]) dates.add(e + d);
      }
    }
    for (let i = 0; i < 300; i++) dates.add(now.getTime() - Math.floor(((i * 7919) % 1000) / 1000 * 400 * 86_400_000));
    const list = [...dates];
    for (let i = 0; i < list.length; i += 200) {
      await db.insert(tracks).values(
        list.slice(i, i + 200).map((d, j) => ({
          filename: `t${i + j}.mp3`,
          upload_date: new Date(d),
          status: "completed" as const,
        })),
      );
    }

    for (const period of PERIODS) {
      for (const off of offsets) {
        const b = timelineBuckets(period, now, off);
        // The grouping the dashboard used before (decision 0190): local time divided into hours or
        // days, days summed into their months for a year.
        const want = new Map(b.keys.map((k) => [k, 0]));
        const unit = period === "day" ? 3_600_000 : 86_400_000;
        for (const d of list) {
          if (d < b.start || d >= b.end) continue;
          const n = Math.floor((d + off * 60_000) / unit);
          const day = new Date(n * 86_400_000);
          const key = period === "year"
            ? `${day.getUTCFullYear()}-${String(day.getUTCMonth() + 1).padStart(2, "0")}`
            : String(n);
          want.set(key, want.get(key)! + 1);
        }
        const got = (await computeDashboard(db, period, now, off)).track_timeline.data;
        expect(got, `${period} at ${off}`).toEqual(b.keys.map((k) => want.get(k)));
        expect(got.reduce((a, c) => a + c, 0), `${period} at ${off}`).toBeGreaterThan(0);
      }
    }
  });
});

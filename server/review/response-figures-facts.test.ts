/**
 * The response figures' facts (decision 0237): `track_pair_facts` is kept by triggers from the
 * decision and listen history, so after every kind of write (a listening receipt, a decision, its
 * undo, a re-decision, a change of directions, a failed upload) it must equal a recomputation from
 * the history (the view `track_pair_facts_source`, the definitions of 0235), and the figures read
 * from it must follow. Migration 0022 fills it from the tracks and history already there.
 */
import { eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/libsql/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDb, openDb } from "../../db/client.ts";
import { trackAnalysis, tracks } from "../../db/schema.ts";
import { createUser } from "../testing/factories.ts";
import { responseFigures } from "./response-figures.ts";
import { AUDIO, type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
let nowMs = Date.UTC(2026, 5, 1, 12, 0, 0);
const clock = { now: () => new Date(nowMs) };
const wait = (s: number) => (nowMs += s * 1000);

beforeAll(async () => {
  f = await staffFixture({ clock, moderatorCategories: "label_koster" });
});
afterAll(() => f.close());

type Fact = {
  track_id: number;
  direction: string;
  upload_date: number;
  listen_ms: number | null;
  listen_by: number | null;
  decide_ms: number | null;
  decide_by: number | null;
};
const ORDER = sql.raw("ORDER BY track_id, direction");
const facts = () => f.t.ctx.db.all<Fact>(sql`SELECT * FROM track_pair_facts ${ORDER}`);
const recomputed = () => f.t.ctx.db.all<Fact>(sql`SELECT * FROM track_pair_facts_source ${ORDER}`);
async function expectInStep() {
  const kept = await facts();
  expect(kept.length).toBeGreaterThan(0);
  expect(kept).toEqual(await recomputed());
  return kept;
}

const panelOf = (headers: Headers) => (headers === f.as.admin ? "admin" : "moderator");
async function decide(id: number, status: string, headers: Headers = f.as.admin) {
  const panel = panelOf(headers);
  const t = await f.call("GET", `/api/${panel}/tracks/${id}`, { headers });
  const decisions = (t.body.track as { decisions: { direction: string; revision: number }[] }).decisions;
  const revisions = Object.fromEntries(decisions.map((d) => [d.direction, d.revision]));
  const r = await f.call("PUT", `/api/${panel}/tracks/${id}/decision`, { headers, json: { status, revisions } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
async function listen(id: number, seconds: number) {
  const opened = await f.call("GET", `/api/moderator/tracks/${id}/listen`, { headers: f.as.moderator });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  for (let done = 0; done < seconds; done += 5) {
    wait(5);
    const r = await f.call("POST", `/api/moderator/tracks/${id}/listened`, {
      headers: f.as.moderator,
      json: { seconds: 5 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}
const figures = async () => {
  const from = new Date(nowMs - 10 * 86_400_000);
  const to = new Date(nowMs + 86_400_000);
  return await f.t.ctx.review.responseFigures("*", { name: "test", from, to }, "all");
};
/** Both ways of finding the percentiles (a short period sorts, a long one walks an index) agree. */
async function expectBothWays() {
  const from = new Date(nowMs - 10 * 86_400_000);
  const to = new Date(nowMs + 86_400_000);
  const [sorted, walked] = await Promise.all(
    (["sort", "walk"] as const).map((how) =>
      responseFigures(f.t.ctx.db, "*", { name: "test", from, to }, new Date(nowMs), "all", how)
    ),
  );
  expect(walked).toEqual(sorted);
  return sorted;
}
const byDirection = async (d: string) => (await figures()).by_direction.find((x) => x.direction === d)!;

describe("track_pair_facts follows the history", () => {
  it("a listening receipt, a decision, its undo, a re-decision, a direction removed, a failed upload", async () => {
    const artist = await createUser(f.t.ctx.db, {});
    const tr = await f.trackWithFile(AUDIO.mono, {
      directions: "label_koster,podcast_koster",
      user_id: artist.id,
      status: "completed",
      // An hour before the listen below ends (short waits: the sessions are the clock's).
      upload_date: new Date(nowMs - 3_600_000 + 20_000),
    });
    await f.t.ctx.db.insert(trackAnalysis).values({ track_id: tr.id, duration_s: 310, analysed_at: new Date(nowMs) });
    const mine = async () => (await expectInStep()).filter((x) => x.track_id === tr.id);

    // Received, nothing yet.
    expect((await mine()).map((x) => [x.direction, x.listen_ms, x.decide_ms])).toEqual([
      ["label_koster", null, null],
      ["podcast_koster", null, null],
    ]);
    expect(await byDirection("label_koster")).toMatchObject({ received: 1, heard: 0, decided: 0 });

    // The moderator hears 20 s of label_koster: heard after 20 s, by them.
    await listen(tr.id, 20);
    let rows = await mine();
    expect(rows[0]).toMatchObject({ direction: "label_koster", listen_ms: 3_600_000, listen_by: f.moderator.id });
    expect(rows[1]).toMatchObject({ direction: "podcast_koster", listen_ms: null });
    expect((await byDirection("label_koster")).to_listen).toEqual({ median_s: 3600, p90_s: 3600 });

    // The admin accepts the whole track a minute later: decided (and podcast_koster heard) by them.
    wait(60);
    await decide(tr.id, "accepted");
    rows = await mine();
    expect(rows[0]).toMatchObject({ listen_by: f.moderator.id, decide_ms: 3_660_000, decide_by: f.admin.id });
    expect(rows[1]).toMatchObject({ listen_ms: 3_660_000, listen_by: f.admin.id, decide_by: f.admin.id });
    expect(await byDirection("label_koster")).toMatchObject({ decided: 1, to_decision: { median_s: 3660 } });
    await expectBothWays();

    // Undone within the hold: the decision never counts, the listen stays.
    wait(10);
    const u = await f.call("POST", `/api/admin/tracks/${tr.id}/decision/undo`, { json: {} });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    rows = await mine();
    expect(rows[0]).toMatchObject({ listen_ms: 3_600_000, decide_ms: null, decide_by: null });
    expect(rows[1]).toMatchObject({ listen_ms: null, listen_by: null, decide_ms: null });
    expect(await byDirection("label_koster")).toMatchObject({ heard: 1, decided: 0, to_decision: { median_s: null } });

    // Decided again by the moderator (their direction only), later.
    wait(60);
    await decide(tr.id, "declined", f.as.moderator);
    rows = await mine();
    expect(rows[0]).toMatchObject({ decide_ms: 3_730_000, decide_by: f.moderator.id });
    expect(rows[1]).toMatchObject({ decide_ms: null });
    const staff = (await expectBothWays()).by_staff.find((s) => s.user.id === f.moderator.id)!;
    expect(staff).toMatchObject({ heard: 1, decided: 1, within_promise: { kept: 1, due: 1, share: 1 } });

    // A direction removed takes its pair out; a failed upload takes them all.
    await f.t.ctx.db.update(tracks).set({ directions: "label_koster" }).where(eq(tracks.id, tr.id));
    expect((await mine()).map((x) => x.direction)).toEqual(["label_koster"]);
    await f.t.ctx.db.update(tracks).set({ status: "failed" }).where(eq(tracks.id, tr.id));
    expect((await facts()).filter((x) => x.track_id === tr.id)).toEqual([]);
    expect(await byDirection("label_koster")).toMatchObject({ received: 0 });
    await f.t.ctx.db.update(tracks).set({ status: "completed" }).where(eq(tracks.id, tr.id));
    expect((await mine())[0]).toMatchObject({ listen_by: f.moderator.id, decide_by: f.moderator.id });
  });
});

describe("migration 0022", () => {
  it("fills the facts from the tracks and history already there, and the triggers go on from there", async () => {
    const dir = await Deno.makeTempDir({ prefix: "np-facts-" });
    const db = await openDb({ url: `file:${dir}/app.db` });
    const all = (q: string) => db.$client.execute(q).then((r) => r.rows.map((row) => ({ ...row })));
    try {
      // The migrations before the facts, from a copy of the folder whose journal stops before them.
      const source = new URL("../../db/migrations/", import.meta.url).pathname;
      await Deno.mkdir(`${dir}/migrations/meta`, { recursive: true });
      for (const e of Deno.readDirSync(source)) {
        if (e.isFile) await Deno.copyFile(`${source}${e.name}`, `${dir}/migrations/${e.name}`);
      }
      const journal = JSON.parse(await Deno.readTextFile(`${source}meta/_journal.json`));
      const first = journal.entries.findIndex((e: { tag: string }) => e.tag.includes("track_pair_facts"));
      expect(first).toBeGreaterThan(0);
      journal.entries = journal.entries.slice(0, first);
      await Deno.writeTextFile(`${dir}/migrations/meta/_journal.json`, JSON.stringify(journal));
      await migrate(db, { migrationsFolder: `${dir}/migrations` });
      expect(await all("SELECT count(*) AS n FROM sqlite_master WHERE name = 'track_pair_facts'")).toEqual([{ n: 0 }]);

      await db.$client.execute("INSERT INTO users (username) VALUES ('a'), ('b')");
      await db.$client.execute(
        `INSERT INTO tracks (id, filename, directions, upload_date, status) VALUES
        (1, 'a', 'label_koster,podcast_koster', 1000, 'completed'), (2, 'b', 'show_neurogon', 2000, 'completed'),
        (3, 'c', 'label_koster', 3000, 'failed')`,
      );
      await db.$client.execute(
        `INSERT INTO track_decision_history (track_id, direction, revision, from_status, to_status, decided_by, decided_at, call_id, undoes) VALUES
        (1, 'label_koster', 1, 'new', 'listened', 1, 61000, NULL, NULL),
        (1, 'label_koster', 2, 'listened', 'accepted', 2, 121000, 'c1', NULL),
        (1, 'label_koster', 3, 'accepted', 'listened', 2, 122000, NULL, 'c1'),
        (1, 'label_koster', 4, 'listened', 'shortlisted', 2, 181000, 'c2', NULL),
        (1, 'label_koster', 5, 'shortlisted', 'declined', 1, 241000, 'c3', NULL),
        (1, 'podcast_koster', 1, 'new', 'accepted', 2, 301000, 'c4', NULL),
        (2, 'show_neurogon', 1, 'new', 'accepted', 1, 5000, 'c5', NULL),
        (2, 'show_neurogon', 2, 'accepted', 'new', 1, 6000, NULL, 'c5'),
        (3, 'label_koster', 1, 'new', 'accepted', 1, 9000, 'c6', NULL)`,
      );

      await migrateDb(db);
      const facts = () => all("SELECT * FROM track_pair_facts ORDER BY track_id, direction");
      const F = (track_id: number, direction: string, upload_date: number, rest: (number | null)[]) => ({
        track_id,
        direction,
        upload_date,
        listen_ms: rest[0],
        listen_by: rest[1],
        decide_ms: rest[2],
        decide_by: rest[3],
      });
      // The undone acceptance never counts, the shortlist is no decision, the failed upload is out.
      expect(await facts()).toEqual([
        F(1, "label_koster", 1000, [60000, 1, 240000, 1]),
        F(1, "podcast_koster", 1000, [300000, 2, 300000, 2]),
        F(2, "show_neurogon", 2000, [null, null, null, null]),
      ]);
      expect(await facts()).toEqual(await all("SELECT * FROM track_pair_facts_source ORDER BY track_id, direction"));

      // The triggers from there on: a listen of track 2 counts.
      await db.$client.execute(
        `INSERT INTO track_decision_history (track_id, direction, revision, from_status, to_status, decided_by, decided_at)
        VALUES (2, 'show_neurogon', 3, 'new', 'listened', 2, 9000)`,
      );
      expect((await facts())[2]).toEqual(F(2, "show_neurogon", 2000, [7000, 2, null, null]));
    } finally {
      db.$client.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  });
});

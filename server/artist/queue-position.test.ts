import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackDecisionHistory, trackDecisions, trackListens, type User } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { expectedBy, NO_QUEUE } from "./queue-position.ts";

/**
 * Issue 36: each undecided pair's place in its direction's queue, the queue's length, the date the
 * direction's pace reaches it, and how many staff have heard it — checked against a queue built here.
 */

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const DAY = 86_400_000;
const D = "podcast_koster";
const E = "show_neurogon";
const ago = (days: number) => new Date(NOW - days * DAY);

interface Pair {
  direction: string;
  status: string;
  queue_position: number | null;
  queue_length: number | null;
  expected_by: string | null;
  heard_by: number | null;
}

let t: TestApp;
let artist: User;
let headers: Record<string, string>;
const ids: Record<string, number> = {};

/** A decided pair written as a decision writes it: the pair and its history entry (the pace's facts). */
async function decided(trackId: number, direction: string, status: "accepted" | "declined", at: Date) {
  await t.ctx.db.insert(trackDecisions).values({ track_id: trackId, direction, status, decided_at: at, revision: 1 });
  await t.ctx.db.insert(trackDecisionHistory).values({
    track_id: trackId,
    direction,
    revision: 1,
    from_status: "new",
    to_status: status,
    decided_at: at,
  });
}

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => new Date(NOW) } });
  artist = await createUser(t.ctx.db);
  headers = (await signIn(t.ctx, artist)).headers;
  const other = await createUser(t.ctx.db);
  const staff = await Promise.all([1, 2, 3].map(() => createUser(t.ctx.db, { is_admin: true })));
  const track = async (name: string, values: Parameters<typeof createTrack>[1]) => {
    ids[name] = (await createTrack(t.ctx.db, { user_id: other.id, directions: D, ...values })).id;
  };
  // The pace: 60 pairs of D decided over the last 30 days (2 a day); 5 older ones do not count.
  for (let i = 0; i < 65; i++) {
    const old = i >= 60;
    const row = await createTrack(t.ctx.db, { user_id: other.id, directions: D, upload_date: ago(old ? 50 : 31) });
    await decided(row.id, D, i % 2 ? "accepted" : "declined", ago(old ? 31 : (i % 29) + 0.5));
  }
  // The queue of D, in the moderators' order: overdue first (past the 14 days, new or listened),
  // then the oldest first.
  await track("o1", { upload_date: ago(25) }); // overdue
  await track("a1", { upload_date: ago(20), user_id: artist.id, directions: `${D},${E}` }); // overdue
  await track("o2", { upload_date: ago(16) }); // shortlisted: never overdue, so after the overdue ones
  await t.ctx.db.insert(trackDecisions).values({
    track_id: ids.o2,
    direction: D,
    status: "shortlisted",
    decided_at: ago(15),
    revision: 1,
  });
  await track("o3", { upload_date: ago(10) });
  // Declined 10 s ago: within the notification hold the artist still sees it waiting (0223), so it
  // keeps its place (and its history entry is not written: the pace stays at 60).
  await track("a3", { upload_date: ago(3), user_id: artist.id });
  await t.ctx.db.insert(trackDecisions).values({
    track_id: ids.a3,
    direction: D,
    status: "declined",
    decided_at: new Date(NOW - 10_000),
    revision: 1,
  });
  await track("a2", { upload_date: ago(2), user_id: artist.id, duration: 12_000 });
  await track("o4", { upload_date: ago(1) });
  // Not in the queue: decided, failed, another direction.
  await track("o5", { upload_date: ago(5) });
  await decided(ids.o5, D, "accepted", ago(40));
  await track("o6", { upload_date: ago(4), status: "failed" });
  await track("o7", { upload_date: ago(6), directions: "label_koster" });
  await track("a4", { upload_date: ago(8), user_id: artist.id, directions: "label_koster" });
  await decided(ids.a4, "label_koster", "accepted", ago(1));

  // Heard past the threshold: 20 s of a track of unknown length; 11.5 s of a 12 s one.
  const listen = (trackId: number, who: User, heard_s: number) =>
    t.ctx.db.insert(trackListens).values({ track_id: trackId, user_id: who.id, heard_s, last_at: ago(1) });
  await listen(ids.a1, staff[0], 25);
  await listen(ids.a1, staff[1], 10);
  await listen(ids.a1, staff[2], 20);
  await listen(ids.a2, staff[0], 11.6);
  await listen(ids.a2, staff[1], 11);
});
afterAll(() => t.close());

const day = (days: number) => new Date(NOW + days * DAY).toISOString();

function pairsOf(body: { tracks: Array<{ id: number; decisions: Pair[] }> }) {
  return new Map(body.tracks.flatMap((tr) => tr.decisions.map((d) => [`${tr.id}:${d.direction}`, d] as const)));
}

describe("the queue figures", () => {
  it("expectedBy: the first day the pace has made that many decisions; null without a pace", () => {
    const now = new Date(NOW);
    expect(expectedBy(2, 60, now)).toBe(day(1));
    expect(expectedBy(5, 60, now)).toBe(day(3));
    expect(expectedBy(1, 1, now)).toBe(day(30));
    expect(expectedBy(3, 0, now)).toBeNull();
  });

  for (const path of ["/api/tracks", "/api/tracks/history"]) {
    it(`${path}: position, length, date and listeners of each undecided pair`, async () => {
      const res = await t.app.request(path, { headers });
      expect(res.status).toBe(200);
      const pairs = pairsOf(await res.json());
      // Queue of D: o1, a1 (overdue), o2, o3, a3, a2, o4 — 7 pairs; 2 decisions a day.
      expect(pairs.get(`${ids.a1}:${D}`)).toMatchObject({
        status: "in_review",
        queue_position: 2,
        queue_length: 7,
        expected_by: day(1),
        heard_by: 2,
      });
      expect(pairs.get(`${ids.a3}:${D}`)).toMatchObject({
        status: "in_review",
        queue_position: 5,
        queue_length: 7,
        expected_by: day(3),
        heard_by: 0,
      });
      expect(pairs.get(`${ids.a2}:${D}`)).toMatchObject({
        queue_position: 6,
        queue_length: 7,
        expected_by: day(3),
        heard_by: 1,
      });
      // E: alone in its queue, and nothing decided there in 30 days: no date.
      expect(pairs.get(`${ids.a1}:${E}`)).toMatchObject({
        queue_position: 1,
        queue_length: 1,
        expected_by: null,
        heard_by: 2,
      });
      // A decided pair carries none.
      expect(pairs.get(`${ids.a4}:label_koster`)).toMatchObject({ status: "accepted", ...NO_QUEUE });
      // Nobody else's track, and no staff name.
      const text = JSON.stringify([...pairs.values()]);
      expect(text).not.toContain("decided_by");
    });
  }
});

describe("the artist's kept list follows the queue", () => {
  it("another artist's decision moves the place at once on this instance", async () => {
    const app = await createTestApp({ env: { DECISION_NOTIFY_HOLD_S: "0" }, clock: { now: () => new Date(NOW) } });
    try {
      const me = await createUser(app.ctx.db);
      const someone = await createUser(app.ctx.db);
      const admin = (await signIn(app.ctx, await createUser(app.ctx.db, { is_admin: true }))).headers;
      const first = await createTrack(app.ctx.db, { user_id: someone.id, directions: D, upload_date: ago(3) });
      const mine = await createTrack(app.ctx.db, { user_id: me.id, directions: D, upload_date: ago(2) });
      const mh = (await signIn(app.ctx, me)).headers;
      const place = async () => ((await (await app.app.request("/api/tracks", { headers: mh })).json()).tracks[0]
        .decisions[0] as Pair);
      expect(await place()).toMatchObject({ queue_position: 2, queue_length: 2 });
      const res = await app.app.request(`/api/admin/tracks/${first.id}/decisions/${D}`, {
        method: "PUT",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify({ status: "accepted", message: "Берём", revision: 0 }),
      });
      expect(res.status).toBe(200);
      // The clock has not moved: the kept list was read again because the queue changed.
      expect(await place()).toMatchObject({ queue_position: 1, queue_length: 1, expected_by: day(30) });
      expect(mine.id).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

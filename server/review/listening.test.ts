/**
 * Issue 20, item 4: listening receipts. Opening a track's listening link (and streaming it) marks
 * nothing; the player's reports of played time do, once a staff member has heard 20 seconds (all of
 * a shorter track). Only a track the member opened counts (issue 32); a report is capped by the
 * wall-clock time since the member's previous report or opening, never further back than the idle
 * window, and the total by the track's length. The artist sees «Прослушан» only then; staff see each
 * colleague's listening in the track detail.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { telegramOutbox, trackAnalysis, trackDecisionHistory, trackListens } from "../../db/schema.ts";
import { LISTENING_TEXTS } from "../../domain/listening.ts";
import { LISTEN_IDLE_WINDOW_S, LISTEN_REPORT_TOLERANCE_S } from "./listening.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { AUDIO, type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
let nowMs = Date.UTC(2025, 5, 1, 12, 0, 0);
const clock = { now: () => new Date(nowMs) };
const wait = (s: number) => (nowMs += s * 1000);
/** Long idle time: the clock moves on, and the staff sign in again (access tokens last 15 min). */
async function idle(s: number) {
  wait(s);
  f.as.moderator = (await signIn(f.t.ctx, f.moderator)).headers;
  f.as.admin = (await signIn(f.t.ctx, f.admin)).headers;
}
/** The artist of the latest track (one each: the artist's list is kept ready per artist). */
let artistHeaders: Headers;

beforeAll(async () => {
  // The artist's view at once: the hold's lag (decision 0223) is server/review/track-decision.test.ts's.
  f = await staffFixture({ clock, moderatorCategories: "label_koster", env: { DECISION_NOTIFY_HOLD_S: "0" } });
});
afterAll(() => f.close());

/** A track of the artist with a stored file and a known length (5:10 unless told). */
async function track(directions = "label_koster", durationS = 310) {
  const artist = await createUser(f.t.ctx.db, { first_name: "Арт", last_name: "Истов" });
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
  const tr = await f.trackWithFile(AUDIO.mono, { directions, user_id: artist.id });
  await f.t.ctx.db.insert(trackAnalysis).values({
    track_id: tr.id,
    duration_s: durationS,
    analysed_at: new Date(nowMs),
  });
  return tr;
}

const open = (id: number, headers: Headers = f.as.moderator, panel = "moderator") =>
  f.call("GET", `/api/${panel}/tracks/${id}/listen`, { headers });
const report = (id: number, seconds: unknown, headers: Headers = f.as.moderator, panel = "moderator") =>
  f.call("POST", `/api/${panel}/tracks/${id}/listened`, { headers, json: { seconds } });
/** Plays `total` seconds in reports of `step`, the clock moving as the music does. */
async function play(id: number, total: number, step = 5, headers: Headers = f.as.moderator, panel = "moderator") {
  let last;
  for (let done = 0; done < total; done += step) {
    const s = Math.min(step, total - done);
    wait(s);
    last = await report(id, s, headers, panel);
    expect(last.status, JSON.stringify(last.body)).toBe(200);
  }
  return last!;
}

const staffStates = async (id: number) =>
  ((await f.call("GET", `/api/admin/tracks/${id}`)).body.track as {
    decisions: { direction: string; status: string }[];
  })
    .decisions.map((d) => [d.direction, d.status]);
const artistStates = async (id: number) => {
  const r = await f.call("GET", "/api/tracks", { headers: artistHeaders });
  const mine = (r.body.tracks as { id: number; decisions: { direction: string; status: string }[] }[]).find((t) =>
    t.id === id
  )!;
  return mine.decisions.map((d) => [d.direction, d.status]);
};

describe("listening receipts", () => {
  it("opening the link and streaming it marks nothing; a 0.3 s play marks nothing", async () => {
    const tr = await track();
    const r = await open(tr.id);
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty("decisions");
    const stream = await f.t.app.request(r.body.stream_url as string, { headers: { Range: "bytes=0-999" } });
    expect(stream.status).toBe(206);
    await stream.body?.cancel();
    wait(0.3);
    const skip = await report(tr.id, 0.3);
    expect(skip.status).toBe(200);
    expect(skip.body).toMatchObject({ success: true, heard: false, heard_s: 0.3, duration_s: 310 });
    expect(await staffStates(tr.id)).toEqual([["label_koster", "new"]]);
    expect(await artistStates(tr.id)).toEqual([["label_koster", "in_review"]]);
    expect(await f.t.ctx.db.select().from(trackDecisionHistory).where(eq(trackDecisionHistory.track_id, tr.id)))
      .toEqual([]);
  });

  it("20 s of reports make the pair «Прослушан» for staff and the artist, by the listener, with no message", async () => {
    const tr = await track();
    await open(tr.id);
    const before = await play(tr.id, 15);
    expect(before.body).toMatchObject({ heard: false, heard_s: 15 });
    expect(await artistStates(tr.id)).toEqual([["label_koster", "in_review"]]);
    const after = await play(tr.id, 5);
    expect(after.body).toMatchObject({ heard: true, heard_s: 20 });
    expect((after.body.decisions as { status: string }[]).map((d) => d.status)).toEqual(["listened"]);
    expect(await staffStates(tr.id)).toEqual([["label_koster", "listened"]]);
    expect(await artistStates(tr.id)).toEqual([["label_koster", "listened"]]);
    const history = await f.t.ctx.db.select().from(trackDecisionHistory).where(
      eq(trackDecisionHistory.track_id, tr.id),
    );
    expect(history.map((h) => [h.from_status, h.to_status, h.decided_by])).toEqual([[
      "new",
      "listened",
      f.moderator.id,
    ]]);
    expect((await f.t.ctx.db.select().from(telegramOutbox)).filter((o) => o.key.startsWith(`decision:${tr.id}:`)))
      .toEqual([]);
  });

  it("a short track is heard when played through", async () => {
    const tr = await track("label_koster", 8.05);
    await open(tr.id);
    const part = await play(tr.id, 6, 3);
    expect(part.body).toMatchObject({ heard: false });
    const whole = await play(tr.id, 2, 2);
    expect(whole.body).toMatchObject({ heard: true, heard_s: 8 });
    expect(await artistStates(tr.id)).toEqual([["label_koster", "listened"]]);
  });

  it("caps a single report by the time since opening, and the total by the length", async () => {
    const tr = await track("label_koster", 30);
    await open(tr.id);
    wait(1);
    const jump = await report(tr.id, 300);
    expect(jump.status).toBe(200);
    // One second since the opening, plus the two seconds of tolerance.
    expect(jump.body).toMatchObject({ heard: false, heard_s: 3 });
    expect(await artistStates(tr.id)).toEqual([["label_koster", "in_review"]]);
    // Reports arriving faster than the music could play are capped the same way.
    for (let i = 0; i < 5; i++) {
      wait(0.1);
      await report(tr.id, 10);
    }
    const r = await report(tr.id, 0);
    // The tolerance was spent by the first report: each of these earns only the 0.1 s that passed.
    expect(r.body.heard_s as number).toBeCloseTo(3.5, 5);
    expect(r.body.heard).toBe(false);
    // A long pause is not banked: the report after it is worth at most the idle window (plus the
    // tolerance), whatever it claims.
    await idle(600);
    const long = await report(tr.id, 100);
    expect(long.body.heard_s as number).toBeCloseTo(3.5 + LISTEN_IDLE_WINDOW_S + LISTEN_REPORT_TOLERANCE_S, 5);
    // Honest playing goes on to the end; the total stops at the length.
    const rest = await play(tr.id, 30, 5);
    expect(rest.body).toMatchObject({ heard: true, heard_s: 30 });
  });

  it("spends the tolerance once: reports sent back to back earn nothing beyond it", async () => {
    const tr = await track("label_koster", 300);
    // The earlier tests' last reports may have spent this moment's tolerance.
    wait(LISTEN_REPORT_TOLERANCE_S);
    await open(tr.id);
    for (let i = 0; i < 10; i++) await report(tr.id, 2);
    const r = await report(tr.id, 0);
    expect(r.body).toMatchObject({ heard: false, heard_s: 2 });
    expect(await artistStates(tr.id)).toEqual([["label_koster", "in_review"]]);
  });

  it("keeps one clock per listener: several tracks opened at once share the time that passed", async () => {
    const a = await track("label_koster", 300);
    const b = await track("label_koster", 300);
    await open(a.id);
    await open(b.id);
    const first = await play(a.id, 20);
    const second = await report(b.id, 20);
    expect(first.body).toMatchObject({ heard: true });
    expect(second.body).toMatchObject({ heard: false });
    expect(second.body.heard_s as number).toBeLessThanOrEqual(2);
    expect(await artistStates(b.id)).toEqual([["label_koster", "in_review"]]);
    // Opening a track again does not turn the clock back.
    await open(b.id);
    const again = await report(b.id, 20);
    expect(again.body.heard_s as number).toBeLessThanOrEqual(2);
  });

  it("a receipt for a track the member never opened changes nothing, however long they were idle", async () => {
    const opened = await track("label_koster", 40);
    await open(opened.id);
    await play(opened.id, 10);
    await idle(30 * 60);
    const never = await track("label_koster", 40);
    const r = await report(never.id, 1000);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ heard_s: 0, heard: false });
    // Another member's opening is not theirs either.
    await open(never.id, f.as.admin, "admin");
    wait(30);
    expect((await report(never.id, 30)).body).toMatchObject({ heard_s: 0, heard: false });
    for (let i = 0; i < 5; i++) await report(never.id, 20);
    expect(await staffStates(never.id)).toEqual([["label_koster", "new"]]);
    expect(await artistStates(never.id)).toEqual([["label_koster", "in_review"]]);
    const rows = await f.t.ctx.db.select().from(trackListens).where(
      and(eq(trackListens.track_id, never.id), eq(trackListens.user_id, f.moderator.id)),
    );
    expect(rows).toEqual([]);
    expect(await f.t.ctx.db.select().from(trackDecisionHistory).where(eq(trackDecisionHistory.track_id, never.id)))
      .toEqual([]);
  });

  it("20 minutes idle, then 20 s of reports on a just-opened track credit at most the time since opening", async () => {
    const earlier = await track("label_koster", 300);
    await open(earlier.id);
    await play(earlier.id, 10);
    await idle(20 * 60);
    const fresh = await track("label_koster", 300);
    await open(fresh.id);
    const openedAt = nowMs;
    // 20 s claimed in four reports over four seconds.
    let last;
    for (let i = 0; i < 4; i++) {
      wait(1);
      last = await report(fresh.id, 5);
    }
    const since = (nowMs - openedAt) / 1000;
    expect(last!.body.heard_s as number).toBeLessThanOrEqual(since + LISTEN_REPORT_TOLERANCE_S);
    expect(last!.body).toMatchObject({ heard: false });
    // The track opened before the idle time banks none of it either.
    const old = await report(earlier.id, 1000);
    expect(old.body.heard_s as number).toBeLessThanOrEqual(10 + 2 * LISTEN_REPORT_TOLERANCE_S);
    expect(await artistStates(fresh.id)).toEqual([["label_koster", "in_review"]]);
    expect(await staffStates(earlier.id)).toEqual([["label_koster", "new"]]);
  });

  it("a track opened long ago and left idle earns at most the idle window at once, not its wait", async () => {
    const tr = await track("label_koster", 300);
    await open(tr.id);
    await idle(20 * 60);
    for (let i = 0; i < 4; i++) await report(tr.id, 5);
    const r = await report(tr.id, 0);
    expect(r.body.heard_s as number).toBeCloseTo(LISTEN_IDLE_WINDOW_S + LISTEN_REPORT_TOLERANCE_S, 5);
    expect(r.body).toMatchObject({ heard: false });
  });

  it("marks only the directions within the listener's categories; the administrator's covers all", async () => {
    const tr = await track("label_koster,podcast_koster,show_neurogon");
    await open(tr.id);
    await play(tr.id, 20);
    expect(await staffStates(tr.id)).toEqual([["label_koster", "listened"], ["podcast_koster", "new"], [
      "show_neurogon",
      "new",
    ]]);
    await open(tr.id, f.as.admin, "admin");
    await play(tr.id, 20, 10, f.as.admin, "admin");
    expect(await staffStates(tr.id)).toEqual([
      ["label_koster", "listened"],
      ["podcast_koster", "listened"],
      ["show_neurogon", "listened"],
    ]);
  });

  it("shows staff each colleague's listening in the track detail", async () => {
    const tr = await track();
    await open(tr.id);
    await play(tr.id, 80, 10);
    await open(tr.id, f.as.admin, "admin");
    await play(tr.id, 5, 5, f.as.admin, "admin");
    const detail = (await f.call("GET", `/api/moderator/tracks/${tr.id}`, { headers: f.as.moderator })).body.track as {
      listens: { user: { id: number; name: string }; heard_s: number }[];
      analysis: { duration_s: number };
    };
    expect(detail.listens.map((l) => [l.user.id, l.heard_s])).toEqual([[f.moderator.id, 80], [f.admin.id, 5]]);
    expect(detail.analysis.duration_s).toBe(310);
  });

  it("refuses a moderator outside the track's categories (404), the artist (403) and bad input (400)", async () => {
    const foreign = await track("label_neuropunk");
    const r = await report(foreign.id, 5);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: expect.any(String) });
    expect((await report(foreign.id, 5, artistHeaders)).status).toBe(403);
    expect((await report(foreign.id, 5, f.as.anonymous)).status).toBe(401);
    expect((await report(foreign.id, 5, f.as.moderator, "admin")).status).toBe(403);
    expect((await report(999_999, 5)).status).toBe(404);
    const mine = await track();
    for (const bad of [-1, "20", null, 1e9, undefined]) {
      const b = await report(mine.id, bad);
      expect(b.status, String(bad)).toBe(400);
      expect(b.body).toEqual({
        success: false,
        error: bad === undefined ? LISTENING_TEXTS.badSeconds : expect.any(String),
      });
    }
    const noBody = await f.call("POST", `/api/moderator/tracks/${mine.id}/listened`, {
      headers: f.as.moderator,
      body: "{",
    });
    expect(noBody.status).toBe(400);
    // Nothing was recorded for the refused calls.
    expect((await f.call("GET", `/api/admin/tracks/${foreign.id}`)).body.track).toMatchObject({ listens: [] });
  });
});

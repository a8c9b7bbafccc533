/**
 * The dashboards' response figures (issue 24, decision 0235) over a hand-made history whose answers
 * are worked out by hand: received, heard, decided, nearest-rank median and 90th percentile of the
 * time to the first listen and to the decision, the share decided within 14 days; undone decisions
 * never count; shortlisting is not a decision; the moderator sees their directions and themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackDecisionHistory } from "../../db/schema.ts";
import type { ReviewStatus } from "../../domain/review.ts";
import { createTrack, createUser } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import type { Scope } from "../../domain/scope.ts";
import { figuresWindow } from "../admin/dashboard.ts";
import { type ResponseFigures, responseFigures } from "./response-figures.ts";

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.now();

let f: StaffFixture;
let colleague: { id: number };
beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster" });
  colleague = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "show_neurogon" });
  await seed();
});
afterAll(() => f.close());

type Entry = {
  track: number;
  direction: string;
  at: number;
  by: number;
  to: ReviewStatus;
  call?: string;
  undoes?: string;
};

const revisions = new Map<string, number>();
async function history(entries: Entry[]) {
  for (const e of entries) {
    const key = `${e.track}:${e.direction}`;
    const revision = (revisions.get(key) ?? 0) + 1;
    revisions.set(key, revision);
    await f.t.ctx.db.insert(trackDecisionHistory).values({
      track_id: e.track,
      direction: e.direction,
      revision,
      from_status: "new",
      to_status: e.to,
      decided_by: e.by,
      decided_at: new Date(e.at),
      call_id: e.call ?? null,
      undoes: e.undoes ?? null,
    });
  }
}

async function seed() {
  const db = f.t.ctx.db;
  const A = f.moderator.id; // label_koster
  const B = f.admin.id;
  const old = NOW - 20 * D;
  const track = async (directions: string, up: number, status: "completed" | "failed" = "completed") =>
    (await createTrack(db, { directions, upload_date: new Date(up), status })).id;
  const t1 = await track("label_koster", old);
  const t2 = await track("label_koster", old);
  const t3 = await track("label_koster", old);
  const t4 = await track("label_koster", old);
  const t5 = await track("label_koster", NOW - 2 * D);
  const t6 = await track("podcast_koster", old);
  const failed = await track("label_koster", old, "failed");
  const before = await track("label_koster", NOW - 40 * D);
  await history([
    { track: t1, direction: "label_koster", at: old + 1 * H, by: A, to: "listened" },
    { track: t1, direction: "label_koster", at: old + 2 * D, by: B, to: "accepted", call: "c1" },
    { track: t2, direction: "label_koster", at: old + 3 * H, by: A, to: "listened" },
    { track: t2, direction: "label_koster", at: old + 16 * D, by: A, to: "declined", call: "c2" },
    // Decided straight away: heard and decided at once, by B.
    { track: t3, direction: "label_koster", at: old + 5 * H, by: B, to: "declined", call: "c3" },
    // Accepted, undone within the hold, then shortlisted: heard, never decided.
    { track: t4, direction: "label_koster", at: old + 10 * H, by: B, to: "listened" },
    { track: t4, direction: "label_koster", at: old + 1 * D, by: A, to: "accepted", call: "c4" },
    { track: t4, direction: "label_koster", at: old + 1 * D + 60_000, by: A, to: "listened", undoes: "c4" },
    { track: t4, direction: "label_koster", at: old + 2 * D, by: A, to: "shortlisted", call: "c5" },
    // Recent and undecided: its promise is not due yet.
    { track: t5, direction: "label_koster", at: NOW - 2 * D + 2 * H, by: A, to: "listened" },
    // Outside the figures: a failed upload, a track from before the period.
    { track: failed, direction: "label_koster", at: old + H, by: A, to: "accepted", call: "c6" },
    { track: before, direction: "label_koster", at: NOW - 40 * D + H, by: A, to: "accepted", call: "c7" },
  ]);
  // show_neurogon: ten tracks heard after 1..10 hours by the colleague (median 5 h, p90 9 h).
  for (let i = 1; i <= 10; i++) {
    const id = await track("show_neurogon", old);
    await history([{ track: id, direction: "show_neurogon", at: old + i * H, by: colleague.id, to: "listened" }]);
  }
  void t6;
}

const s = (ms: number) => Math.round(ms / 1000);

describe("response figures", () => {
  it("the admin's dashboard: per direction and per staff member, over the period's uploads", async () => {
    const r = await f.call("GET", "/api/admin/dashboard/response-figures?period=month");
    expect(r.status).toBe(200);
    const figures = r.body.response_figures as ResponseFigures;
    expect(figures.period.name).toBe("month");
    expect(figures.promise_days).toBe(14);
    const dir = Object.fromEntries(figures.by_direction.map((d) => [d.direction, d]));
    expect(dir.label_koster).toEqual({
      direction: "label_koster",
      received: 5,
      heard: 5,
      decided: 3,
      // Listens after 1, 2, 3, 5, 10 h: rank ⌈2.5⌉ = 3 and ⌈4.5⌉ = 5.
      to_listen: { median_s: s(3 * H), p90_s: s(10 * H) },
      // Decisions after 5 h, 2 d, 16 d (the undone acceptance of t4 does not count).
      to_decision: { median_s: s(2 * D), p90_s: s(16 * D) },
      // Kept: t1, t3. Due: those, t2 (late) and t4 (undecided after 20 days); t5 is not due yet.
      within_promise: { kept: 2, due: 4, share: 0.5 },
      // The feedback's figures (issue 37): no reasons named, no ratings here.
      reasons: { declines: 0, with_reasons: 0, share: null, top: [] },
      ratings: { count: 0, average: null },
    });
    expect(dir.show_neurogon).toMatchObject({
      received: 10,
      heard: 10,
      decided: 0,
      to_listen: { median_s: s(5 * H), p90_s: s(9 * H) },
      to_decision: { median_s: null, p90_s: null },
      within_promise: { kept: 0, due: 10, share: 0 },
    });
    expect(dir.podcast_koster).toMatchObject({ received: 1, heard: 0, decided: 0, within_promise: { due: 1 } });
    expect(dir.label_neuropunk).toMatchObject({ received: 0, to_listen: { median_s: null } });

    const staff = Object.fromEntries(figures.by_staff.map((p) => [p.user.id, p]));
    expect(staff[f.moderator.id]).toMatchObject({
      received: 5,
      heard: 3, // t1, t2, t5 first heard by A
      decided: 1, // t2
      to_listen: { median_s: s(2 * H), p90_s: s(3 * H) },
      to_decision: { median_s: s(16 * D), p90_s: s(16 * D) },
      within_promise: { kept: 0, due: 1, share: 0 },
    });
    expect(staff[f.admin.id]).toMatchObject({
      received: 16, // an administrator covers every direction: 5 + 1 + 10
      heard: 2, // t3, t4
      decided: 2, // t1, t3
      to_listen: { median_s: s(5 * H), p90_s: s(10 * H) },
      to_decision: { median_s: s(5 * H), p90_s: s(2 * D) },
      within_promise: { kept: 2, due: 2, share: 1 },
    });
    expect(staff[colleague.id]).toMatchObject({ received: 10, heard: 10, decided: 0 });
  });

  it("a shorter period leaves the older uploads out", async () => {
    const r = await f.call("GET", "/api/admin/dashboard/response-figures?period=week");
    const figures = r.body.response_figures as ResponseFigures;
    const koster = figures.by_direction.find((d) => d.direction === "label_koster")!;
    expect(koster).toMatchObject({ received: 1, heard: 1, decided: 0, within_promise: { due: 0, share: null } });
  });

  it("the moderator's dashboard: their directions and their own row only", async () => {
    const r = await f.call("GET", "/api/moderator/dashboard/response-figures?period=month", {
      headers: f.as.moderator,
    });
    expect(r.status).toBe(200);
    const figures = r.body.response_figures as ResponseFigures;
    expect(figures.by_direction.map((d) => d.direction)).toEqual(["label_koster"]);
    expect(figures.by_direction[0]).toMatchObject({ received: 5, heard: 5, decided: 3 });
    expect(figures.by_staff.map((p) => p.user.id)).toEqual([f.moderator.id]);
    expect(figures.by_staff[0]).toMatchObject({ received: 5, heard: 3, decided: 1 });
  });

  it("a bad period is a 400 with a Russian message on both figures calls", async () => {
    for (
      const [path, headers] of [["/api/admin/dashboard/response-figures", f.as.admin], [
        "/api/moderator/dashboard/response-figures",
        f.as.moderator,
      ]]
    ) {
      const r = await f.call("GET", `${path}?period=decade`, { headers: headers as Record<string, string> });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: "Период: day, week, month или year" });
    }
  });

  it("the percentiles found by sorting a period's pairs equal those found by walking the index (0237)", async () => {
    for (const period of ["week", "month", "year"] as const) {
      const window = figuresWindow(period, new Date(), 0);
      for (const [scope, staff] of [["*", "all"], [["label_koster"], f.moderator.id]] as [Scope, "all" | number][]) {
        const [sorted, walked] = await Promise.all(
          (["sort", "walk"] as const).map((how) => responseFigures(f.t.ctx.db, scope, window, new Date(), staff, how)),
        );
        expect(walked).toEqual(sorted);
      }
    }
  });
});

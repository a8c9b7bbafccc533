/**
 * The dashboards' work per direction (issue 23): `review_queue` in the admin's dashboard answer
 * (every direction) and the moderator's (their categories only): new, shortlisted, and overdue,
 * i.e. awaiting a decision (new or listened) for more than OVERDUE_AFTER_DAYS; failed uploads are
 * never counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIRECTIONS } from "../../domain/directions.ts";
import { OVERDUE_AFTER_DAYS } from "../../domain/review.ts";
import { createTrack, decisionRevision } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster,show_neurogon" });
});
afterAll(() => f.close());

type Entry = { direction: string; new: number; shortlisted: number; overdue: number; auto_declined: number };
const DAY = 86_400_000;

describe("review_queue on the dashboards", () => {
  it("counts new, shortlisted and overdue per direction; the moderator sees their categories only", async () => {
    const db = f.t.ctx.db;
    const old = new Date(Date.now() - (OVERDUE_AFTER_DAYS + 1) * DAY);
    const justInside = new Date(Date.now() - (OVERDUE_AFTER_DAYS - 1) * DAY);
    const a = await createTrack(db, { directions: "label_koster,podcast_koster", upload_date: old });
    const b = await createTrack(db, { directions: "label_koster", upload_date: old });
    const c = await createTrack(db, { directions: "label_koster,show_neurogon", upload_date: old });
    await createTrack(db, { directions: "label_koster", upload_date: justInside });
    await createTrack(db, { directions: "label_koster", upload_date: old, status: "failed", error: "Дубликат" });
    const put = async (id: number, direction: string, status: string) => {
      const r = await f.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, {
        json: { status, revision: await decisionRevision(db, id, direction) },
      });
      expect(r.status).toBe(200);
    };
    await put(a.id, "label_koster", "accepted");
    await put(b.id, "label_koster", "shortlisted");
    await put(c.id, "show_neurogon", "listened");

    const admin = await f.call("GET", "/api/admin/dashboard");
    expect(admin.status).toBe(200);
    const queue = admin.body.review_queue as Entry[];
    expect((admin.body.stats as { review_queue: Entry[] }).review_queue).toEqual(queue);
    // The response figures are a call of their own (decision 0237), never part of this answer.
    expect(admin.body).not.toHaveProperty("response_figures");
    expect(admin.body.stats).not.toHaveProperty("response_figures");
    expect(queue.map((e) => e.direction)).toEqual([...DIRECTIONS]);
    const byDirection = Object.fromEntries(queue.map((e) => [e.direction, e]));
    // label_koster: c and the recent one are new; b shortlisted; only c is overdue (a decided, b parked).
    expect(byDirection.label_koster).toEqual({
      direction: "label_koster",
      new: 2,
      shortlisted: 1,
      overdue: 1,
      auto_declined: 0,
    });
    expect(byDirection.podcast_koster).toEqual({
      direction: "podcast_koster",
      new: 1,
      shortlisted: 0,
      overdue: 1,
      auto_declined: 0,
    });
    // Listened is still awaiting a decision: overdue, but not new.
    expect(byDirection.show_neurogon).toEqual({
      direction: "show_neurogon",
      new: 0,
      shortlisted: 0,
      overdue: 1,
      auto_declined: 0,
    });

    const mod = await f.call("GET", "/api/moderator/dashboard", { headers: f.as.moderator });
    expect(mod.status).toBe(200);
    expect(mod.body).toEqual({
      success: true,
      review_queue: [byDirection.label_koster, byDirection.show_neurogon],
    });
    expect((await f.call("GET", "/api/moderator/dashboard", { headers: f.as.plain })).status).toBe(403);
    expect((await f.call("GET", "/api/moderator/dashboard", { headers: f.as.anonymous })).status).toBe(401);
    const figures = "/api/moderator/dashboard/response-figures";
    expect((await f.call("GET", figures, { headers: f.as.plain })).status).toBe(403);
    expect((await f.call("GET", figures, { headers: f.as.anonymous })).status).toBe(401);
  });
});

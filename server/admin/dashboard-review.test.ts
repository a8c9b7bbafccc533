/**
 * The dashboard's review counts (issue 13): per direction, its tracks by the state of that
 * direction; failed uploads are not under review; a direction removed from a track takes its
 * decision out of the counts.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks } from "../../db/schema.ts";
import { DIRECTIONS } from "../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../domain/staff-directions.ts";
import { createTrack, decisionRevision } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => {
  f = await staffFixture();
});
afterAll(() => f.close());

type Counts = {
  direction: string;
  label: string;
  new: number;
  listened: number;
  shortlisted: number;
  accepted: number;
  declined: number;
};

const review = async () => {
  const r = await f.call("GET", "/api/admin/dashboard");
  expect(r.status).toBe(200);
  return r.body.stats as { review: Counts[]; total_tracks: number };
};

const zero = { new: 0, listened: 0, shortlisted: 0, accepted: 0, declined: 0 };

describe("GET /api/admin/dashboard: review states per direction", () => {
  it("answers every direction in order, with zeros on an empty site", async () => {
    const s = await review();
    expect(s.review).toEqual(DIRECTIONS.map((d) => ({ direction: d, label: ADMIN_DIRECTION_LABELS[d], ...zero })));
  });

  it("counts each direction's tracks by that direction's state", async () => {
    const db = f.t.ctx.db;
    const a = await createTrack(db, { directions: "label_koster,podcast_koster" });
    const b = await createTrack(db, { directions: "label_koster" });
    const c = await createTrack(db, { directions: "label_koster,show_neurogon" });
    await createTrack(db, { directions: "podcast_koster" });
    await createTrack(db, { directions: "label_koster", status: "failed", error: "Дубликат" });
    await createTrack(db, { directions: "podcast_koster", status: "processing" });
    const put = async (id: number, direction: string, status: string) =>
      f.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, {
        json: { status, revision: await decisionRevision(db, id, direction) },
      });
    await put(a.id, "label_koster", "accepted");
    await put(a.id, "podcast_koster", "declined");
    await put(b.id, "label_koster", "shortlisted");
    await put(c.id, "show_neurogon", "listened");
    await put(c.id, "label_koster", "declined");
    // Put back to new by hand: counts as new again.
    await put(c.id, "label_koster", "new");

    const byDirection = new Map((await review()).review.map((r) => [r.direction, r]));
    expect(byDirection.get("label_koster")).toMatchObject({
      new: 1,
      listened: 0,
      shortlisted: 1,
      accepted: 1,
      declined: 0,
    });
    expect(byDirection.get("podcast_koster")).toMatchObject({
      new: 2,
      listened: 0,
      shortlisted: 0,
      accepted: 0,
      declined: 1,
    });
    expect(byDirection.get("show_neurogon")).toMatchObject({ ...zero, listened: 1 });
    expect(byDirection.get("label_neuropunk")).toMatchObject(zero);

    // A direction taken off a track takes its decision out of the counts.
    expect((await f.call("PUT", `/api/admin/tracks/${a.id}`, { json: { directions: "label_koster" } })).status).toBe(
      200,
    );
    expect((await db.select().from(tracks).where(eq(tracks.id, a.id)))[0].review).toBe("label_koster:accepted");
    const after = new Map((await review()).review.map((r) => [r.direction, r]));
    expect(after.get("podcast_koster")).toMatchObject({ new: 2, declined: 0 });
    expect(after.get("label_koster")).toMatchObject({ accepted: 1 });
  });
});

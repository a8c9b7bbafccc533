/**
 * The list's `review=overdue` (issue 24, decision 0228): awaiting a decision (new or listened) and
 * uploaded more than OVERDUE_AFTER_DAYS ago, failed uploads left out: the very tracks the dashboard's
 * overdue count counts, so the link and the figure agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OVERDUE_AFTER_DAYS } from "../../domain/review.ts";
import { createTrack, decisionRevision } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster" });
});
afterAll(() => f.close());

const DAY = 86_400_000;

describe("review=overdue", () => {
  it("lists exactly the tracks the overdue count counts, within the caller's sight", async () => {
    const db = f.t.ctx.db;
    const old = new Date(Date.now() - (OVERDUE_AFTER_DAYS * DAY + 3_600_000));
    const recent = new Date(Date.now() - (OVERDUE_AFTER_DAYS * DAY - 3_600_000));
    const mk = (n: string, directions: string, upload_date: Date, status: "completed" | "failed" = "completed") =>
      createTrack(db, { filename: `Просрочка ${n}.mp3`, directions, upload_date, status });
    const waiting = await mk("ждёт", "label_koster", old);
    const listened = await mk("прослушан", "label_koster", old);
    const decided = await mk("принят", "label_koster", old);
    const parked = await mk("шорт", "label_koster", old);
    await mk("свежий", "label_koster", recent);
    await mk("сбой", "label_koster", old, "failed");
    const elsewhere = await mk("чужой", "show_neurogon", old);
    const put = async (id: number, status: string) => {
      const r = await f.call("PUT", `/api/admin/tracks/${id}/decisions/label_koster`, {
        json: { status, revision: await decisionRevision(db, id, "label_koster") },
      });
      expect(r.status).toBe(200);
    };
    await put(listened.id, "listened");
    await put(decided.id, "accepted");
    await put(parked.id, "shortlisted");

    const ids = async (path: string, headers = f.as.admin) => {
      const r = await f.call("GET", `${path}&filename=%D0%9F%D1%80%D0%BE%D1%81%D1%80%D0%BE%D1%87%D0%BA%D0%B0`, {
        headers,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.tracks as Array<{ id: number }>).map((t) => t.id);
    };
    expect((await ids("/api/admin/tracks?review=overdue&sort=upload_date&direction=label_koster")).sort()).toEqual(
      [waiting.id, listened.id].sort(),
    );
    // Without a direction: any direction in sight, so the admin also gets the show_neurogon one.
    expect((await ids("/api/admin/tracks?review=overdue")).sort()).toEqual(
      [waiting.id, listened.id, elsewhere.id].sort(),
    );
    // The moderator sees label_koster only.
    expect((await ids("/api/moderator/tracks?review=overdue", f.as.moderator)).sort()).toEqual(
      [waiting.id, listened.id].sort(),
    );
    // The figure on the dashboard is the same number.
    const dash = await f.call("GET", "/api/moderator/dashboard", { headers: f.as.moderator });
    expect((dash.body.review_queue as Array<{ overdue: number }>)[0].overdue).toBe(2);
  });

  it("an unknown review filter is still a 400 in Russian", async () => {
    const r = await f.call("GET", "/api/admin/tracks?review=late");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: "Неизвестный статус рассмотрения" });
  });
});

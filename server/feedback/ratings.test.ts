/**
 * Issue 37, artists rate the feedback: PUT /api/tracks/{id}/feedback/{direction} once per decided
 * pair with a message or shared comments (1..5, words ≤ 300, hidden characters refused, 404 for
 * another's track, 409 once rated), and the averages on the dashboards: per staff member and
 * direction, words only in the administrator's view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATING_TEXTS } from "../../domain/feedback-rating.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let f: StaffFixture;
beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster", env: { DECISION_NOTIFY_HOLD_S: "0" } });
});
afterAll(() => f.close());

async function artist() {
  const user = await createUser(f.t.ctx.db);
  return { user, headers: (await signIn(f.t.ctx, user)).headers };
}

const decided = async (userId: number, json: Record<string, unknown>) => {
  const t = await createTrack(f.t.ctx.db, { user_id: userId, directions: "label_koster,podcast_koster" });
  const r = await f.call("PUT", `/api/moderator/tracks/${t.id}/decisions/label_koster`, {
    headers: f.as.moderator,
    json: { revision: 0, ...json },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return t;
};

const rate = (headers: Record<string, string>, id: number, direction: string, json: unknown) =>
  f.call("PUT", `/api/tracks/${id}/feedback/${direction}`, { headers, json });

describe("PUT /api/tracks/{id}/feedback/{direction}", () => {
  it("rates a decided pair with a message once; the history shows it; 409 the second time", async () => {
    const a = await artist();
    const t = await decided(a.user.id, { status: "declined", message: "Бас гуляет", reasons: ["mixdown"] });
    const before = await f.call("GET", "/api/tracks/history", { headers: a.headers });
    const item = (before.body.tracks as Array<{ id: number; feedback: unknown[] }>).find((x) => x.id === t.id)!;
    expect(item.feedback).toEqual([{ direction: "label_koster", rateable: true, rating: null, words: null }]);
    const r = await rate(a.headers, t.id, "label_koster", { rating: 4, words: "  Понятно, что чинить  " });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.feedback).toEqual({
      direction: "label_koster",
      rateable: false,
      rating: 4,
      words: "Понятно, что чинить",
    });
    const again = await rate(a.headers, t.id, "label_koster", { rating: 5 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: RATING_TEXTS.alreadyRated });
  });

  it("validates the rating and the words (400), never a 500", async () => {
    const a = await artist();
    const t = await decided(a.user.id, { status: "accepted", message: "Берём" });
    for (const json of [{ rating: 0 }, { rating: 6 }, { rating: 3.5 }, { rating: "4" }, {}, null]) {
      const r = await rate(a.headers, t.id, "label_koster", json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const long = await rate(a.headers, t.id, "label_koster", { rating: 3, words: "я".repeat(301) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe(RATING_TEXTS.wordsTooLong);
    const hidden = await rate(a.headers, t.id, "label_koster", { rating: 3, words: "ok\u202Eko" });
    expect(hidden.status).toBe(400);
    const exact = await rate(a.headers, t.id, "label_koster", { rating: 3, words: "я".repeat(300) });
    expect(exact.status).toBe(200);
  });

  it("404 for another's track or none; 400 for a direction the track lacks; 409 with nothing to rate", async () => {
    const a = await artist();
    const b = await artist();
    const theirs = await decided(b.user.id, { status: "declined", message: "Нет" });
    expect((await rate(a.headers, theirs.id, "label_koster", { rating: 4 })).status).toBe(404);
    expect((await rate(a.headers, 9_999_999, "label_koster", { rating: 4 })).status).toBe(404);
    const mine = await decided(a.user.id, { status: "declined" });
    expect((await rate(a.headers, mine.id, "show_neurogon", { rating: 4 })).status).toBe(400);
    // Declined without a message or shared comments; the other pair is not decided at all.
    const none = await rate(a.headers, mine.id, "label_koster", { rating: 4 });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe(RATING_TEXTS.nothingToRate);
    expect((await rate(a.headers, mine.id, "podcast_koster", { rating: 4 })).status).toBe(409);
    // A shared comment makes it rateable.
    const c = await f.call("POST", `/api/moderator/tracks/${mine.id}/comments`, {
      headers: f.as.moderator,
      json: { at_s: 20, text: "Здесь бас", shared: true },
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect((await rate(a.headers, mine.id, "label_koster", { rating: 2 })).status).toBe(200);
  });

  it("the dashboards: the average per staff member and direction; words only for the admin", async () => {
    const g = await staffFixture({ moderatorCategories: "label_koster", env: { DECISION_NOTIFY_HOLD_S: "0" } });
    try {
      const user = await createUser(g.t.ctx.db, { username: "artist-secret-name" });
      const headers = (await signIn(g.t.ctx, user)).headers;
      for (const [rating, words] of [[4, "Спасибо за разбор"], [5, null], [2, "Мало по делу"]] as const) {
        const t = await createTrack(g.t.ctx.db, { user_id: user.id, directions: "label_koster" });
        const d = await g.call("PUT", `/api/moderator/tracks/${t.id}/decisions/label_koster`, {
          headers: g.as.moderator,
          json: { revision: 0, status: "declined", message: "Текст" },
        });
        expect(d.status).toBe(200);
        const r = await g.call("PUT", `/api/tracks/${t.id}/feedback/label_koster`, {
          headers,
          json: words === null ? { rating } : { rating, words },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      const admin = await g.call("GET", "/api/admin/dashboard/response-figures?period=month");
      const fig = admin.body.response_figures as {
        by_direction: Array<{ direction: string; ratings: unknown }>;
        by_staff: Array<{ user: { id: number }; ratings: unknown }>;
        rating_words: Array<{ rating: number; words: string; staff_id: number }>;
      };
      expect(fig.by_direction.find((d) => d.direction === "label_koster")!.ratings).toEqual({ count: 3, average: 3.7 });
      expect(fig.by_staff.find((s) => s.user.id === g.moderator.id)!.ratings).toEqual({ count: 3, average: 3.7 });
      expect(fig.rating_words.map((w) => [w.rating, w.words, w.staff_id]).sort()).toEqual([
        [2, "Мало по делу", g.moderator.id],
        [4, "Спасибо за разбор", g.moderator.id],
      ]);
      const mod = await g.call("GET", "/api/moderator/dashboard/response-figures?period=month", {
        headers: g.as.moderator,
      });
      const text = JSON.stringify(mod.body);
      expect((mod.body.response_figures as typeof fig).by_staff[0].ratings).toEqual({ count: 3, average: 3.7 });
      expect(text).not.toContain("Спасибо за разбор");
      expect(text).not.toContain("artist-secret-name");
      expect(text).not.toContain("rating_words");
    } finally {
      await g.close();
    }
  });
});

/**
 * The artist's side of decisions (issue 13): `GET /api/tracks` items carry each direction's state
 * as the artist sees it, and `GET /api/tracks/history` pages every submission, failed ones with
 * their reason. Never the staff note, never who decided.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_TEXTS } from "../../domain/review.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { createTrack, createUser, decisionRevision, signIn } from "../testing/factories.ts";
import { NO_QUEUE } from "./queue-position.ts";

/** An undecided pair's queue figures (issue 36): their values are checked in queue-position.test.ts. */
const IN_QUEUE = (paced: boolean) => ({
  queue_position: expect.any(Number),
  queue_length: expect.any(Number),
  // A direction with no decision over the last 30 days has no pace to reckon a date from.
  expected_by: paced ? expect.any(String) : null,
  heard_by: 0,
});

let f: StaffFixture;
let artist: Record<string, string>;
let artistId: number;
const ids: Record<string, number> = {};

const NOTE = "Заметка только для команды";

beforeAll(async () => {
  // What the artist sees once told; during the hold: track-decision.test.ts.
  f = await staffFixture({ moderatorCategories: "label_koster", env: { DECISION_NOTIFY_HOLD_S: "0" } });
  const db = f.t.ctx.db;
  const user = await createUser(db);
  artistId = user.id;
  artist = (await signIn(f.t.ctx, user)).headers;
  const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12));
  ids.reviewed = (await createTrack(db, {
    user_id: user.id,
    upload_date: at(1),
    directions: "label_koster,podcast_koster,show_neurogon",
  })).id;
  ids.failed = (await createTrack(db, {
    user_id: user.id,
    upload_date: at(2),
    directions: "label_koster",
    status: "failed",
    error: "Этот трек уже был загружен ранее",
  })).id;
  ids.processing = (await createTrack(db, {
    user_id: user.id,
    upload_date: at(3),
    directions: "radio_k_profit",
    status: "processing",
  })).id;
  ids.declined = (await createTrack(db, { user_id: user.id, upload_date: at(4), directions: "podcast_koster" })).id;
  // Someone else's track, decided too: never in this artist's answers.
  ids.other = (await createTrack(db, { user_id: (await createUser(db)).id, upload_date: at(5) })).id;
  const put = async (id: number, direction: string, json: unknown) => {
    const revision = await decisionRevision(db, id, direction);
    const r = await f.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, {
      json: { ...(json as object), revision },
    });
    expect(r.status).toBe(200);
  };
  await put(ids.reviewed, "label_koster", { status: "accepted", note: NOTE, message: "Выпускаем в марте" });
  await put(ids.reviewed, "podcast_koster", { status: "shortlisted", note: NOTE });
  await put(ids.declined, "podcast_koster", { status: "declined", note: NOTE, message: "Не подходит по стилю" });
  await put(ids.other, "label_neuropunk", { status: "accepted", message: "чужое" });
});
afterAll(() => f.close());

// «ответ до»: the upload (1 January, 12:00 UTC) plus the default promise of 14 days, until answered.
const REVIEWED_DECISIONS = [
  {
    direction: "label_koster",
    status: "accepted",
    message: "Выпускаем в марте",
    respond_by: null,
    automatic: false,
    ...NO_QUEUE,
    reasons: [],
  },
  // Shortlisted reads as listened to the artist; untouched reads as in review.
  {
    direction: "podcast_koster",
    status: "listened",
    message: null,
    respond_by: "2026-01-15T12:00:00.000Z",
    automatic: false,
    ...IN_QUEUE(true),
    reasons: [],
  },
  {
    direction: "show_neurogon",
    status: "in_review",
    message: null,
    respond_by: "2026-01-15T12:00:00.000Z",
    automatic: false,
    ...IN_QUEUE(false),
    reasons: [],
  },
];

describe("GET /api/tracks", () => {
  it("items carry each direction's state and the staff's message, never the note or who decided", async () => {
    const res = await f.t.app.request("/api/tracks", { headers: artist });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(NOTE);
    expect(text).not.toContain("decided_by");
    expect(text).not.toContain("note");
    const body = JSON.parse(text) as { tracks: Array<{ id: number; decisions: unknown }> };
    // The spec's call keeps its rule: failed uploads are not in it.
    expect(body.tracks.map((t) => t.id)).toEqual([ids.declined, ids.processing, ids.reviewed]);
    const byId = new Map(body.tracks.map((t) => [t.id, t.decisions]));
    expect(byId.get(ids.reviewed)).toEqual(REVIEWED_DECISIONS);
    expect(byId.get(ids.declined)).toEqual([{
      direction: "podcast_koster",
      status: "declined",
      message: "Не подходит по стилю",
      respond_by: null,
      automatic: false,
      ...NO_QUEUE,
      reasons: [],
    }]);
    expect(byId.get(ids.processing)).toEqual([{
      direction: "radio_k_profit",
      status: "in_review",
      message: null,
      respond_by: "2026-01-17T12:00:00.000Z",
      automatic: false,
      ...IN_QUEUE(false),
      reasons: [],
    }]);
  });
});

describe("GET /api/tracks/history", () => {
  it("answers every submission, newest first, failed ones with their reason and no review", async () => {
    const res = await f.t.app.request("/api/tracks/history", { headers: artist });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(NOTE);
    expect(text).not.toContain("decided_by");
    const body = JSON.parse(text);
    expect(body).toMatchObject({ success: true, total: 4, page: 1, pages: 1, page_size: 20 });
    expect(body.tracks.map((t: { id: number }) => t.id)).toEqual([
      ids.declined,
      ids.processing,
      ids.failed,
      ids.reviewed,
    ]);
    const [declined, processing, failed, reviewed] = body.tracks;
    expect(Object.keys(reviewed).sort()).toEqual(
      [
        "analysis",
        "comments",
        "decisions",
        "directions",
        "downloaded",
        "error",
        // Issue 37: the feedback's rating states and the version line.
        "feedback",
        "filename",
        "id",
        "on_air",
        // Issue 34: the track's label releases, beside «Принят».
        "releases",
        "status",
        "upload_date",
        "version_number",
        "version_of",
        "version_offer",
        "versions",
      ],
    );
    expect(reviewed).toMatchObject({
      status: "completed",
      error: null,
      directions: ["label_koster", "podcast_koster", "show_neurogon"],
      upload_date: "2026-01-01T12:00:00.000Z",
      decisions: REVIEWED_DECISIONS,
    });
    expect(failed).toMatchObject({
      status: "failed",
      error: "Этот трек уже был загружен ранее",
      directions: ["label_koster"],
      decisions: [],
    });
    expect(processing).toMatchObject({ status: "processing", error: null, decisions: [{ status: "in_review" }] });
    expect(declined.decisions).toEqual([{
      direction: "podcast_koster",
      status: "declined",
      message: "Не подходит по стилю",
      respond_by: null,
      automatic: false,
      ...NO_QUEUE,
      reasons: [],
    }]);
  });

  it("pages, and a page past the end answers the last page", async () => {
    const page = async (q: string) => (await f.call("GET", `/api/tracks/history?${q}`, { headers: artist })).body;
    const first = await page("page=1&page_size=3");
    expect(first).toMatchObject({ total: 4, page: 1, pages: 2, page_size: 3 });
    expect((first.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([
      ids.declined,
      ids.processing,
      ids.failed,
    ]);
    const second = await page("page=2&page_size=3");
    expect((second.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([ids.reviewed]);
    // The same page (its `expected_by` reckoned from the moment of each call: compared by id).
    const past = await page("page=9&page_size=3");
    expect(past).toMatchObject({ page: 2 });
    expect((past.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([ids.reviewed]);
  });

  it("refuses bad paging values with 400 and asks for sign-in", async () => {
    const cases: Array<[string, string]> = [
      ["page=0", REVIEW_TEXTS.badHistoryPage],
      ["page=-1", REVIEW_TEXTS.badHistoryPage],
      ["page=abc", REVIEW_TEXTS.badHistoryPage],
      ["page_size=0", REVIEW_TEXTS.badHistoryPageSize],
      ["page_size=101", REVIEW_TEXTS.badHistoryPageSize],
      ["page_size=1.5", REVIEW_TEXTS.badHistoryPageSize],
    ];
    for (const [q, error] of cases) {
      const r = await f.call("GET", `/api/tracks/history?${q}`, { headers: artist });
      expect(r.status, q).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    expect((await f.call("GET", "/api/tracks/history", { headers: f.as.anonymous })).status).toBe(401);
  });

  it("shows another person only their own submissions", async () => {
    const r = await f.call("GET", "/api/tracks/history", { headers: f.as.plain });
    expect(r.body).toMatchObject({ success: true, tracks: [], total: 0, page: 1, pages: 1 });
    expect(artistId).toBeGreaterThan(0);
  });
});

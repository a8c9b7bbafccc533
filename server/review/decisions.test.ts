/**
 * Decisions (issue 13): the PUT call of both panels with its scope, 400s and history; that opening
 * a track does nothing to the review (issue 20; listening receipts: listening.test.ts); the staff
 * track objects' decisions, waiting days and review filter; the moderator's delete of a shared
 * track; the artist's Telegram message queued with the change.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declineTemplates, telegramOutbox, trackDecisionHistory, tracks } from "../../db/schema.ts";
import { REVIEW_TEXTS } from "../../domain/review.ts";
import { AUDIO, type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { createTrack, createUser, decisionRevision, signIn } from "../testing/factories.ts";

let f: StaffFixture;
/** Moderator of label_koster and show_neurogon. */
let wide: Headers;
let wideId: number;
let artist: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  // Messages written to go at once; the hold is track-decision.test.ts's.
  f = await staffFixture({ moderatorCategories: "label_koster", env: { DECISION_NOTIFY_HOLD_S: "0" } });
  const w = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "label_koster,show_neurogon" });
  wideId = w.id;
  wide = (await signIn(f.t.ctx, w)).headers;
  artist = await createUser(f.t.ctx.db, { telegram_id: "555001", first_name: "Арт", last_name: "Истов" });
});
afterAll(() => f.close());

const mod = () => f.as.moderator;
const DAY = 86_400_000;

interface Decision {
  direction: string;
  status: string;
  note: string | null;
  message: string | null;
  decided_by: { id: number; username: string; name: string } | null;
  decided_at: string | null;
  revision: number;
}
interface StaffTrack {
  id: number;
  directions: string;
  upload_date: string;
  decisions: Decision[];
  waiting_days: number | null;
  overdue: boolean;
  decision_history?: Array<Record<string, unknown>>;
}

/** The body as sent, with the pair's stored revision added unless the test gives `revision` itself. */
const current = async (id: number, direction: string, json: unknown) =>
  json && typeof json === "object" && !("revision" in json)
    ? { ...json, revision: Number.isFinite(id) ? await decisionRevision(f.t.ctx.db, id, direction) : 0 }
    : json;
const decide = async (id: number, direction: string, json: unknown, headers: Headers = f.as.admin) =>
  f.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, {
    headers,
    json: await current(id, direction, json),
  });
const decideAsModerator = async (id: number, direction: string, json: unknown, headers: Headers = mod()) =>
  f.call("PUT", `/api/moderator/tracks/${id}/decisions/${direction}`, {
    headers,
    json: await current(id, direction, json),
  });

const staffTrack = async (id: number, headers: Headers = f.as.admin, panel = "admin") =>
  (await f.call("GET", `/api/${panel}/tracks/${id}`, { headers })).body.track as StaffTrack;

const historyRows = async (id: number) =>
  await f.t.ctx.db.select().from(trackDecisionHistory).where(eq(trackDecisionHistory.track_id, id))
    .orderBy(asc(trackDecisionHistory.id));

const outboxFor = async (trackId: number) =>
  (await f.t.ctx.db.select().from(telegramOutbox)).filter((r) => r.key.startsWith(`decision:${trackId}:`));

describe("PUT /api/{admin|moderator}/tracks/{id}/decisions/{direction}", () => {
  it("records the decision, answers it, and shows it on the track and in the detail's history", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster,podcast_koster", user_id: artist.id });
    const r = await decide(tr.id, "label_koster", {
      status: "accepted",
      note: "  Сильный дроп ",
      message: "Берём в релиз!",
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["decision", "success"]);
    const decision = r.body.decision as Decision;
    expect(decision).toEqual({
      direction: "label_koster",
      status: "accepted",
      note: "Сильный дроп",
      message: "Берём в релиз!",
      decided_by: { id: f.admin.id, username: f.admin.username, name: f.admin.username },
      decided_at: expect.any(String),
      revision: 1,
      // Answered: no promise date any more (issue 25).
      respond_by: null,
      overdue: false,
      // No decline reasons named (issue 37).
      reasons: [],
    });
    expect(Math.abs(Date.parse(decision.decided_at!) - Date.now())).toBeLessThan(60_000);

    const track = await staffTrack(tr.id);
    // One entry per direction of the track; the other direction is untouched, so `new`.
    expect(track.decisions).toEqual([
      decision,
      {
        direction: "podcast_koster",
        status: "new",
        note: null,
        message: null,
        decided_by: null,
        decided_at: null,
        revision: 0,
        // The upload plus the direction's promise (14 days by default), issue 25.
        respond_by: new Date(Date.parse(track.upload_date) + 14 * 86_400_000).toISOString(),
        overdue: false,
        reasons: [],
      },
    ]);
    expect(track.decision_history).toEqual([{
      id: expect.any(Number),
      direction: "label_koster",
      from: "new",
      to: "accepted",
      note: "Сильный дроп",
      message: "Берём в релиз!",
      decided_by: { id: f.admin.id, username: f.admin.username, name: f.admin.username },
      decided_at: decision.decided_at,
      automatic: false,
    }]);
    // The moderator panel's detail shows the same.
    const seen = await staffTrack(tr.id, mod(), "moderator");
    expect(seen.decisions[0]).toEqual(decision);
    expect(seen.decision_history).toHaveLength(1);
    // Lists carry decisions, not the history.
    const list = await f.call("GET", "/api/admin/tracks", { headers: f.as.admin });
    const item = (list.body.tracks as StaffTrack[]).find((t) => t.id === tr.id)!;
    expect(item.decisions).toEqual(track.decisions);
    expect(item.decision_history).toBeUndefined();
  });

  it("lets a moderator decide within their categories: another category of the track is 403, a track outside them 404", async () => {
    const shared = await createTrack(f.t.ctx.db, { directions: "label_koster,podcast_koster" });
    const foreign = await createTrack(f.t.ctx.db, { directions: "label_neuropunk" });
    const ok = await decideAsModerator(shared.id, "label_koster", { status: "shortlisted" });
    expect(ok.status).toBe(200);
    expect(ok.body.decision).toMatchObject({ status: "shortlisted", decided_by: { id: f.moderator.id } });

    const other = await decideAsModerator(shared.id, "podcast_koster", { status: "declined", message: "Нет" });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ success: false, error: REVIEW_TEXTS.outsideCategories });

    for (const direction of ["label_neuropunk", "label_koster"]) {
      const r = await decideAsModerator(foreign.id, direction, { status: "accepted" });
      expect(r.status, direction).toBe(404);
      expect(r.body).toEqual({ success: false, error: "Трек не найден" });
    }
    expect((await decideAsModerator(999_999, "label_koster", { status: "accepted" })).status).toBe(404);
    expect((await decideAsModerator(Number.NaN, "label_koster", { status: "accepted" })).status).toBe(404);

    // Nothing but the allowed change was written.
    expect((await historyRows(shared.id)).map((h) => [h.direction, h.to_status])).toEqual([[
      "label_koster",
      "shortlisted",
    ]]);
    expect(await historyRows(foreign.id)).toEqual([]);
    // An administrator and a moderator of every category decide any direction.
    const star =
      (await signIn(f.t.ctx, await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "*" }))).headers;
    expect((await decideAsModerator(foreign.id, "label_neuropunk", { status: "listened" }, star)).status).toBe(200);
    expect((await decideAsModerator(shared.id, "podcast_koster", { status: "listened" }, f.as.admin)).status).toBe(200);
  });

  it("refuses a direction the track does not have, an unknown direction, an unknown status or revision (400)", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    const cases: Array<[string, unknown, string]> = [
      ["podcast_koster", { status: "accepted" }, REVIEW_TEXTS.notTrackDirection],
      ["label_nowhere", { status: "accepted" }, "Неизвестное направление"],
      ["label_koster", { status: "maybe" }, REVIEW_TEXTS.unknownStatus],
      ["label_koster", { status: "Accepted" }, REVIEW_TEXTS.unknownStatus],
      ["label_koster", { status: null }, REVIEW_TEXTS.unknownStatus],
      ["label_koster", { status: "accepted", revision: -1 }, REVIEW_TEXTS.badRevision],
      ["label_koster", { status: "accepted", revision: "один" }, REVIEW_TEXTS.badRevision],
      ["label_koster", { status: "accepted", revision: 1.5 }, REVIEW_TEXTS.badRevision],
      ["label_koster", { status: 1 }, REVIEW_TEXTS.unknownStatus],
      ["label_koster", { status: "accepted", note: "я".repeat(1001) }, REVIEW_TEXTS.noteTooLong],
      ["label_koster", { status: "declined", message: "ы".repeat(1001) }, REVIEW_TEXTS.messageTooLong],
      ["label_koster", { status: "declined", message: 5 }, "Некорректное значение поля message"],
    ];
    for (const [direction, json, error] of cases) {
      for (const call of [decide, decideAsModerator]) {
        const r = await call(tr.id, direction, json);
        expect(r.status, `${direction} ${JSON.stringify(json).slice(0, 40)}`).toBe(400);
        expect(r.body).toEqual({ success: false, error });
      }
    }
    const notJson = await f.t.app.request(`/api/admin/tracks/${tr.id}/decisions/label_koster`, {
      method: "PUT",
      headers: { ...f.as.admin, "Content-Type": "application/json" },
      body: "{status:",
    });
    expect(notJson.status).toBe(400);
    expect(await historyRows(tr.id)).toEqual([]);
  });

  it("counts the note and message as a person does: 1,000 emoji fit", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    const r = await decide(tr.id, "label_koster", {
      status: "declined",
      note: "🎧".repeat(1000),
      message: "🥁".repeat(1000),
    });
    expect(r.status).toBe(200);
    expect([...(r.body.decision as Decision).message!]).toHaveLength(1000);
  });

  it("keeps a left-out note; keeps a left-out message only with the same status; null or blank clears", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    await decide(tr.id, "label_koster", { status: "shortlisted", note: "Заметка", message: "Держим в шорт-листе" });
    let d = (await decide(tr.id, "label_koster", { status: "shortlisted", note: "Новая заметка" })).body
      .decision as Decision;
    expect(d).toMatchObject({ note: "Новая заметка", message: "Держим в шорт-листе" });
    d = (await decide(tr.id, "label_koster", { status: "accepted" })).body.decision as Decision;
    expect(d).toMatchObject({ status: "accepted", note: "Новая заметка", message: null });
    d = (await decide(tr.id, "label_koster", { status: "accepted", note: null, message: "Поздравляем" })).body
      .decision as Decision;
    expect(d).toMatchObject({ note: null, message: "Поздравляем" });
    d = (await decide(tr.id, "label_koster", { status: "accepted", message: "   " })).body.decision as Decision;
    expect(d).toMatchObject({ message: null });
    const h = await historyRows(tr.id);
    expect(h.map((x) => [x.from_status, x.to_status, x.revision])).toEqual([
      ["new", "shortlisted", 1],
      ["shortlisted", "shortlisted", 2],
      ["shortlisted", "accepted", 3],
      ["accepted", "accepted", 4],
      ["accepted", "accepted", 5],
    ]);
  });

  it("writes nothing when nothing changes", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: artist.id });
    await decide(tr.id, "label_koster", { status: "declined", message: "Не подходит" });
    const again = await decide(tr.id, "label_koster", { status: "declined", message: "Не подходит" });
    expect(again.status).toBe(200);
    expect(again.body.decision).toMatchObject({ status: "declined", message: "Не подходит" });
    expect(await decide(tr.id, "label_koster", { status: "declined" })).toMatchObject({ status: 200 });
    expect(await historyRows(tr.id)).toHaveLength(1);
    expect(await outboxFor(tr.id)).toHaveLength(1);
    // Setting a new pair to `new` changes nothing either.
    const fresh = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    expect((await decide(fresh.id, "label_koster", { status: "new" })).body.decision).toMatchObject({
      status: "new",
      decided_by: null,
    });
    expect(await historyRows(fresh.id)).toEqual([]);
  });

  it("refuses a stale or missing revision with 409 and the current decision; two staff from the same revision: one wins", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster,show_neurogon", user_id: artist.id });
    // Two staff opened the form at revision 0 and decide at once: exactly one is recorded.
    const [a, b, c] = await Promise.all([
      decide(tr.id, "label_koster", { status: "accepted", message: "Да", revision: 0 }),
      decide(tr.id, "label_koster", { status: "declined", message: "Нет", revision: 0 }),
      decideAsModerator(tr.id, "label_koster", { status: "shortlisted", revision: 0 }, wide),
    ]);
    const answers = [a, b, c];
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const won = answers.find((r) => r.status === 200)!.body.decision as Decision;
    expect(won.revision).toBe(1);
    for (const lost of answers.filter((r) => r.status === 409)) {
      expect(lost.body).toEqual({ success: false, error: REVIEW_TEXTS.decisionChanged, current: won });
    }
    expect((await historyRows(tr.id)).map((x) => [x.revision, x.from_status, x.to_status])).toEqual([[
      1,
      "new",
      won.status,
    ]]);
    // A stale revision, a revision from the future and a missing one: 409 with what is stored, nothing written.
    for (
      const json of [{ status: "new", revision: 0 }, { status: "new", revision: 7 }, { status: "new" }, {
        note: "x",
        revision: null,
      }]
    ) {
      const r = await f.call("PUT", `/api/admin/tracks/${tr.id}/decisions/label_koster`, { json });
      expect(r.status, JSON.stringify(json)).toBe(409);
      expect(r.body).toEqual({ success: false, error: REVIEW_TEXTS.decisionChanged, current: won });
    }
    expect(await historyRows(tr.id)).toHaveLength(1);
    // The current revision is accepted, and the answer carries the next one.
    const next = await decide(tr.id, "label_koster", { status: "listened", revision: 1 });
    expect(next.body.decision).toMatchObject({ status: "listened", revision: 2 });
    // A pair nobody touched is at revision 0; the other direction is unaffected.
    expect((await decide(tr.id, "show_neurogon", { status: "accepted", revision: 0 })).status).toBe(200);
  });

  it("a note saved alone never changes the status or the message: a decline with a template stays declined", async () => {
    const [tpl] = await f.t.ctx.db.insert(declineTemplates).values({
      title: "Сведение",
      text: "Доработайте сведение, спасибо!",
    })
      .returning();
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: artist.id });
    const declined = (await decide(tr.id, "label_koster", { status: "declined", template_id: tpl.id, revision: 0 }))
      .body
      .decision as Decision;
    expect(declined).toMatchObject({ status: "declined", message: "Доработайте сведение, спасибо!", revision: 1 });
    const noted = await decide(tr.id, "label_koster", { note: "Позвонить через месяц", revision: declined.revision });
    expect(noted.status).toBe(200);
    expect(noted.body.decision).toMatchObject({
      status: "declined",
      note: "Позвонить через месяц",
      message: "Доработайте сведение, спасибо!",
      revision: 2,
    });
    // The old form's whole body, sent from the revision before the decline, is refused.
    const old = await decide(tr.id, "label_koster", {
      status: "new",
      note: "Позвонить через месяц",
      message: null,
      revision: 0,
    });
    expect(old.status).toBe(409);
    expect((old.body.current as Decision).status).toBe("declined");
    expect((await historyRows(tr.id)).map((h) => h.to_status)).toEqual(["declined", "declined"]);
    // The artist was told once: the note is not news.
    expect(await outboxFor(tr.id)).toHaveLength(1);
  });
});

describe("decline templates in a decision", () => {
  it("declines in one call with a template: its text becomes the message, and later edits of the template do not change it", async () => {
    const [tpl] = await f.t.ctx.db.insert(declineTemplates).values({ title: "Стиль", text: "Не наш стиль, спасибо!" })
      .returning();
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: artist.id });
    const r = await decideAsModerator(tr.id, "label_koster", {
      status: "declined",
      template_id: tpl.id,
      note: "шаблон",
    });
    expect(r.status).toBe(200);
    expect(r.body.decision).toMatchObject({ status: "declined", message: "Не наш стиль, спасибо!", note: "шаблон" });
    await f.call("PUT", `/api/admin/decline-templates/${tpl.id}`, { json: { text: "Другой текст" } });
    expect((await staffTrack(tr.id)).decisions[0].message).toBe("Не наш стиль, спасибо!");
    // The id may come as a string from a form.
    const tr2 = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    expect((await decide(tr2.id, "label_koster", { status: "declined", template_id: String(tpl.id) })).body.decision)
      .toMatchObject({ message: "Другой текст" });
  });

  it("refuses a template with a message, of another outcome or status, and an unknown template (400)", async () => {
    const [tpl] = await f.t.ctx.db.insert(declineTemplates).values({ title: "Т", text: "Текст" }).returning();
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    const cases: Array<[unknown, string]> = [
      [{ status: "declined", template_id: tpl.id, message: "Своё" }, REVIEW_TEXTS.messageAndTemplate],
      // A decline's template goes with declines only (issue 23, decision 0224).
      [{ status: "accepted", template_id: tpl.id }, REVIEW_TEXTS.templateOtherOutcome],
      [{ status: "listened", template_id: tpl.id }, REVIEW_TEXTS.templateOnlyForDecline],
      [{ template_id: tpl.id }, REVIEW_TEXTS.templateOnlyForDecline],
      [{ status: "declined", template_id: 987_654 }, REVIEW_TEXTS.templateNotFound],
      [{ status: "declined", template_id: "abc" }, REVIEW_TEXTS.templateNotFound],
      [{ status: "declined", template_id: -1 }, REVIEW_TEXTS.templateNotFound],
    ];
    for (const [json, error] of cases) {
      const r = await decide(tr.id, "label_koster", json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    expect(await historyRows(tr.id)).toEqual([]);
  });
});

describe("the listen call moves nothing (issue 20: receipts come from played time)", () => {
  it("opening a track, again and by others, leaves every direction as it was and writes no history", async () => {
    const tr = await f.trackWithFile(AUDIO.mono, { directions: "label_koster,podcast_koster,show_neurogon" });
    await decide(tr.id, "show_neurogon", { status: "accepted" });
    const r = await f.call("GET", `/api/moderator/tracks/${tr.id}/listen`, { headers: mod() });
    expect(r.status).toBe(200);
    expect(r.body.stream_url).toEqual(expect.any(String));
    expect(r.body).not.toHaveProperty("decisions");
    await f.call("GET", `/api/moderator/tracks/${tr.id}/listen`, { headers: wide });
    await f.call("GET", `/api/admin/tracks/${tr.id}/listen`, { headers: f.as.admin });
    expect((await staffTrack(tr.id)).decisions.map((d) => d.status)).toEqual(["new", "new", "accepted"]);
    const h = await historyRows(tr.id);
    expect(h.map((x) => [x.direction, x.from_status, x.to_status, x.decided_by])).toEqual([
      ["show_neurogon", "new", "accepted", f.admin.id],
    ]);
    expect(await outboxFor(tr.id)).toEqual([]);
  });

  it("moves nothing when the listen is refused (outside the categories, or no file)", async () => {
    const foreign = await f.trackWithFile(AUDIO.mono, { directions: "label_neuropunk" });
    expect((await f.call("GET", `/api/moderator/tracks/${foreign.id}/listen`, { headers: mod() })).status).toBe(404);
    const noFile = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    expect((await f.call("GET", `/api/moderator/tracks/${noFile.id}/listen`, { headers: mod() })).status).toBe(404);
    expect(await historyRows(foreign.id)).toEqual([]);
    expect(await historyRows(noFile.id)).toEqual([]);
  });
});

describe("staff lists: review filter, waiting days", () => {
  let fx: StaffFixture;
  beforeAll(async () => {
    fx = await staffFixture({ moderatorCategories: "label_koster" });
  });
  afterAll(() => fx.close());

  const ids = (body: Record<string, unknown>) => (body.tracks as StaffTrack[]).map((t) => t.id);

  it("filters by a direction's review state within the caller's categories, and opens on new, oldest first", async () => {
    const db = fx.t.ctx.db;
    const at = (days: number) => new Date(Date.now() - days * DAY);
    const old = await createTrack(db, { directions: "label_koster", upload_date: at(20) });
    const recent = await createTrack(db, { directions: "label_koster,podcast_koster", upload_date: at(2) });
    const theirsOnly = await createTrack(db, { directions: "podcast_koster,label_koster", upload_date: at(5) });
    const failed = await createTrack(db, {
      directions: "label_koster",
      upload_date: at(30),
      status: "failed",
      error: "Дубликат",
    });
    const decided = await createTrack(db, { directions: "label_koster", upload_date: at(40) });
    const foreign = await createTrack(db, { directions: "label_neuropunk", upload_date: at(50) });
    const put = (id: number, direction: string, status: string) =>
      fx.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, { json: { status, revision: 0 } });
    await put(decided.id, "label_koster", "accepted");
    // Their own direction decided: for the label_koster moderator, no longer new.
    await put(theirsOnly.id, "label_koster", "declined");

    const modNew = await fx.call(
      "GET",
      "/api/moderator/tracks?review=new&sort=upload_date&order=asc&page=1&page_size=10",
      { headers: fx.as.moderator },
    );
    expect(modNew.status).toBe(200);
    expect(ids(modNew.body)).toEqual([old.id, recent.id]);
    expect(modNew.body).toMatchObject({ filtered: 2, total: 5 });
    // The administrator's scope is every direction: theirsOnly is still new for podcast_koster.
    const adminNew = await fx.call("GET", "/api/admin/tracks?review=new&sort=upload_date&order=asc");
    expect(ids(adminNew.body)).toEqual([foreign.id, old.id, theirsOnly.id, recent.id]);
    // A direction narrows the filter to that pair.
    expect(ids((await fx.call("GET", "/api/admin/tracks?review=new&direction=podcast_koster")).body).sort())
      .toEqual([recent.id, theirsOnly.id].sort());
    expect(ids((await fx.call("GET", "/api/admin/tracks?review=declined&direction=label_koster")).body)).toEqual([
      theirsOnly.id,
    ]);
    expect(ids((await fx.call("GET", "/api/admin/tracks?review=declined&direction=podcast_koster")).body)).toEqual([]);
    expect(ids((await fx.call("GET", "/api/moderator/tracks?review=accepted", { headers: fx.as.moderator })).body))
      .toEqual([decided.id]);
    expect(ids((await fx.call("GET", "/api/admin/tracks?review=accepted")).body)).toEqual([decided.id]);
    expect(ids((await fx.call("GET", "/api/admin/tracks?review=declined")).body)).toEqual([theirsOnly.id]);
    // A failed upload is never under review.
    for (const review of ["new", "listened", "accepted"]) {
      expect(ids((await fx.call("GET", `/api/admin/tracks?review=${review}`)).body)).not.toContain(failed.id);
    }
    // all and empty mean no filter; anything else is 400.
    expect((await fx.call("GET", "/api/admin/tracks?review=all")).body.filtered).toBe(6);
    expect((await fx.call("GET", "/api/admin/tracks?review=")).body.filtered).toBe(6);
    for (const bad of ["NEW", "in_review", "new,listened", "'; drop table tracks; --"]) {
      const r = await fx.call("GET", `/api/admin/tracks?review=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(r.body).toEqual({ success: false, error: REVIEW_TEXTS.unknownReviewFilter });
    }
  });

  it("follows the track's directions: a direction taken off takes its state out of the filter, put back it is new", async () => {
    const db = fx.t.ctx.db;
    const tr = await createTrack(db, { directions: "label_koster,podcast_koster" });
    await fx.call("PUT", `/api/admin/tracks/${tr.id}/decisions/podcast_koster`, {
      json: { status: "declined", revision: 0 },
    });
    await fx.call("PUT", `/api/admin/tracks/${tr.id}/decisions/label_koster`, {
      json: { status: "accepted", revision: 0 },
    });
    const match = async (q: string) => ids((await fx.call("GET", `/api/admin/tracks?${q}`)).body).includes(tr.id);
    expect([await match("review=declined"), await match("review=accepted"), await match("review=new")]).toEqual([
      true,
      true,
      false,
    ]);
    // The label_koster moderator takes their direction off (the track keeps podcast_koster).
    expect(
      (await fx.call("PUT", `/api/moderator/tracks/${tr.id}`, { headers: fx.as.moderator, json: { directions: "" } }))
        .status,
    )
      .toBe(200);
    expect([await match("review=declined"), await match("review=accepted"), await match("review=new")]).toEqual([
      true,
      false,
      false,
    ]);
    // Put back by an administrator: its stored decision applies again (decision 0150).
    await fx.call("PUT", `/api/admin/tracks/${tr.id}`, { json: { directions: "label_koster,podcast_koster" } });
    expect(await match("review=accepted&direction=label_koster")).toBe(true);
    const [row] = await db.select().from(tracks).where(eq(tracks.id, tr.id));
    expect(row.review.split(",").sort()).toEqual(["label_koster:accepted", "podcast_koster:declined"]);
  });

  it("gives each track the days it has waited for the caller and flags more than 14", async () => {
    const db = fx.t.ctx.db;
    const at = (days: number, hours = 0) => new Date(Date.now() - days * DAY - hours * 3_600_000);
    const overdue = await createTrack(db, { directions: "label_koster", upload_date: at(14, 2) });
    const fresh = await createTrack(db, { directions: "label_koster", upload_date: at(13, 20) });
    const listened = await createTrack(db, { directions: "label_koster", upload_date: at(30) });
    const shortlisted = await createTrack(db, { directions: "label_koster", upload_date: at(30) });
    const shared = await createTrack(db, { directions: "label_koster,podcast_koster", upload_date: at(20) });
    const failed = await createTrack(db, { directions: "label_koster", upload_date: at(30), status: "failed" });
    const put = (id: number, direction: string, status: string) =>
      fx.call("PUT", `/api/admin/tracks/${id}/decisions/${direction}`, { json: { status, revision: 0 } });
    await put(listened.id, "label_koster", "listened");
    await put(shortlisted.id, "label_koster", "shortlisted");
    await put(shared.id, "label_koster", "accepted");

    const list = await fx.call("GET", "/api/moderator/tracks", { headers: fx.as.moderator });
    const byId = new Map((list.body.tracks as StaffTrack[]).map((t) => [t.id, t]));
    const pick = (id: number) => ({ waiting_days: byId.get(id)!.waiting_days, overdue: byId.get(id)!.overdue });
    expect(pick(overdue.id)).toEqual({ waiting_days: 14, overdue: true });
    expect(pick(fresh.id)).toEqual({ waiting_days: 13, overdue: false });
    expect(pick(listened.id)).toEqual({ waiting_days: 30, overdue: true });
    // Parked on purpose, failed, or decided within the caller's categories: waits for nobody.
    expect(pick(shortlisted.id)).toEqual({ waiting_days: null, overdue: false });
    expect(pick(failed.id)).toEqual({ waiting_days: null, overdue: false });
    expect(pick(shared.id)).toEqual({ waiting_days: null, overdue: false });
    // The administrator still waits on the shared track's other direction.
    const adminView = (await fx.call("GET", `/api/admin/tracks/${shared.id}`)).body.track as StaffTrack;
    expect(adminView).toMatchObject({ waiting_days: 20, overdue: true });
  });
});

describe("a moderator's delete of a shared track", () => {
  it("removes only the moderator's directions; the track goes with its last direction", async () => {
    const tr = await f.trackWithFile(AUDIO.mono, {
      directions: "label_koster,podcast_koster,show_neurogon",
      user_id: artist.id,
    });
    await decide(tr.id, "podcast_koster", { status: "shortlisted", note: "оставить" });
    const r = await f.call("DELETE", `/api/moderator/tracks/${tr.id}`, { headers: mod() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, track_deleted: false, directions: "podcast_koster,show_neurogon" });
    const [row] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, tr.id));
    expect(row.directions).toBe("podcast_koster,show_neurogon");
    expect(await f.t.ctx.storage.stat(tr.storage_key!)).not.toBeNull();
    // Out of the moderator's sight now; the others keep the track and its decisions.
    expect((await f.call("GET", `/api/moderator/tracks/${tr.id}`, { headers: mod() })).status).toBe(404);
    expect((await staffTrack(tr.id)).decisions.map((d) => [d.direction, d.status])).toEqual([
      ["podcast_koster", "shortlisted"],
      ["show_neurogon", "new"],
    ]);
    // The wider moderator covers show_neurogon only now (label_koster is gone): the track stays.
    const w = await f.call("DELETE", `/api/moderator/tracks/${tr.id}`, { headers: wide });
    expect(w.body).toEqual({ success: true, track_deleted: false, directions: "podcast_koster" });
    // A moderator of the last direction removes the track itself, file included.
    const podcast = (await signIn(
      f.t.ctx,
      await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "podcast_koster" }),
    )).headers;
    const last = await f.call("DELETE", `/api/moderator/tracks/${tr.id}`, { headers: podcast });
    expect(last.body).toEqual({ success: true, track_deleted: true, directions: "" });
    expect(await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, tr.id))).toEqual([]);
    expect(await f.t.ctx.storage.stat(tr.storage_key!)).toBeNull();
    expect(await historyRows(tr.id)).toEqual([]);
  });

  it("leaves the administrator's delete as it was: the whole track, from either panel", async () => {
    for (const panel of ["admin", "moderator"]) {
      const tr = await createTrack(f.t.ctx.db, { directions: "label_koster,podcast_koster" });
      const r = await f.call("DELETE", `/api/${panel}/tracks/${tr.id}`, { headers: f.as.admin });
      expect(r.body).toEqual({ success: true, track_deleted: true, directions: "" });
      expect(await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, tr.id))).toEqual([]);
    }
    expect(wideId).toBeGreaterThan(0);
  });
});

describe("the artist's Telegram message is queued with the decision", () => {
  it("when a pair becomes accepted or declined, or gets a new message; once per change", async () => {
    const tr = await createTrack(f.t.ctx.db, {
      directions: "label_koster,show_neurogon",
      user_id: artist.id,
      filename: "Арт - Трек.mp3",
    });
    await decide(tr.id, "label_koster", { status: "listened", note: "Без сообщения" });
    expect(await outboxFor(tr.id)).toEqual([]);
    await decide(tr.id, "label_koster", { status: "accepted", note: "только для своих" });
    let rows = await outboxFor(tr.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: `decision:${tr.id}:label_koster:2`, user_id: artist.id, chat_id: "555001" });
    expect(rows[0].text).toContain("Арт - Трек");
    expect(rows[0].text).not.toContain("только для своих");
    // The same state again: nothing. A new message: one more.
    await decide(tr.id, "label_koster", { status: "accepted" });
    await decide(tr.id, "label_koster", { status: "accepted", message: "Выйдет весной" });
    rows = await outboxFor(tr.id);
    expect(rows).toHaveLength(2);
    expect(rows[1].text).toContain("Выйдет весной");
    // A note-only change or shortlisting says nothing; a message with a shortlist does.
    await decide(tr.id, "show_neurogon", { status: "shortlisted" });
    await decide(tr.id, "show_neurogon", { status: "shortlisted", note: "x" });
    expect(await outboxFor(tr.id)).toHaveLength(2);
    await decide(tr.id, "show_neurogon", { status: "shortlisted", message: "Ждём эфир" });
    expect(await outboxFor(tr.id)).toHaveLength(3);
  });

  it("queues nothing for an artist without Telegram or a guest track, and the decision still answers", async () => {
    const noTelegram = await createUser(f.t.ctx.db);
    const a = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: noTelegram.id });
    const guest = await createTrack(f.t.ctx.db, { directions: "label_koster", user_id: null, guest_username: "гость" });
    for (const tr of [a, guest]) {
      const r = await decide(tr.id, "label_koster", { status: "declined", message: "Нет" });
      expect(r.status).toBe(200);
      expect(await outboxFor(tr.id)).toEqual([]);
    }
  });
});

/**
 * Intake rules per direction (issue 25): the admin's and the moderator's calls and their checks,
 * GET /api/config's `intake`, and each rule at the door (paused, cap, cooldown), at processing (the
 * tempo window, flagged or refused) and in time (the promise's date, overdue first, the automatic
 * decline at the right moment on a fake clock).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { DIRECTIONS } from "../../domain/directions.ts";
import { DEFAULT_LATE_MESSAGE, INTAKE_DEFAULTS } from "../../domain/intake-rules.ts";
import { tempoInWindow } from "../../domain/tempo.ts";
import { telegramOutbox, trackAnalysis, trackDecisionHistory, tracks } from "../../db/schema.ts";
import { createTrack, createUser, decisionRevision, signIn } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { dirPart, filePart, fixture, postUpload, storedFiles } from "../testing/upload-helpers.ts";
import { createPromiseSweep } from "./sweep.ts";
import { forgetRules } from "./rules.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

let now = T0;
let f: StaffFixture;
// Sessions that outlast the fake clock's jumps.
const fixture_ = () =>
  staffFixture({
    moderatorCategories: "label_koster",
    clock: { now: () => new Date(now) },
    env: { DECISION_NOTIFY_HOLD_S: "0", ACCESS_TOKEN_TTL_S: "31536000", REFRESH_TOKEN_TTL_S: "31536000" },
  });
beforeAll(async () => {
  f = await fixture_();
});
afterAll(() => f.close());

type Rule = Record<string, unknown> & { direction: string };

async function put(direction: string, json: unknown, headers = f.as.admin) {
  return await f.call("PUT", `/api/admin/intake/${direction}`, { json, headers });
}

async function artist() {
  const user = await createUser(f.t.ctx.db, { telegram_id: String(Math.floor(Math.random() * 1e9)) });
  return { user, headers: (await signIn(f.t.ctx, user)).headers };
}

/** Every rule back to the defaults, so each test starts from them. */
async function resetRules() {
  for (const d of DIRECTIONS) {
    const r = await put(d, { ...INTAKE_DEFAULTS });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}

describe("the rules' calls", () => {
  it("GET /api/admin/intake answers every direction, defaults for those never saved", async () => {
    const r = await f.call("GET", "/api/admin/intake");
    expect(r.status).toBe(200);
    const intake = r.body.intake as Rule[];
    expect(intake.map((x) => x.direction)).toEqual([...DIRECTIONS]);
    expect(intake[0]).toEqual({
      direction: DIRECTIONS[0],
      ...INTAKE_DEFAULTS,
      updated_at: null,
      updated_by: null,
    });
  });

  it("PUT changes a subset, answers the rule with who and when; GET and /api/config show it", async () => {
    now = T0;
    const r = await put("label_koster", {
      open: false,
      pause_message: "  Приём закрыт до 1 апреля  ",
      staff_chat_id: -1001234567890,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.rule).toEqual({
      direction: "label_koster",
      ...INTAKE_DEFAULTS,
      open: false,
      pause_message: "Приём закрыт до 1 апреля",
      staff_chat_id: "-1001234567890",
      updated_at: new Date(T0).toISOString(),
      updated_by: f.admin.username,
    });
    expect((await put("label_koster", { staff_chat_id: "@neuropunk_staff" })).body.rule).toMatchObject({
      open: false,
      staff_chat_id: "@neuropunk_staff",
    });
    const one = await f.call("GET", "/api/admin/intake/label_koster");
    expect(one.body).toEqual({
      success: true,
      rule: expect.objectContaining({ open: false, direction: "label_koster" }),
    });
    expect((await f.call("GET", "/api/admin/intake/label_mars")).status).toBe(400);
    const all = (await f.call("GET", "/api/admin/intake")).body.intake as Rule[];
    expect(all.find((x) => x.direction === "label_koster")).toMatchObject({ open: false });
    const config = await f.t.app.request("/api/config");
    const body = await config.json();
    expect(body.intake.label_koster).toEqual({ open: false, pause_message: "Приём закрыт до 1 апреля" });
    expect(body.intake.label_neuropunk).toEqual({ open: true, pause_message: null });
    expect(Object.keys(body.intake)).toEqual([...DIRECTIONS]);
    await resetRules();
  });

  it("refuses invalid values with 400 and a Russian reason, and writes nothing", async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ pause_message: "я".repeat(501) }, /не длиннее 500/],
      [{ pause_message: "Пауза\u202eотпуск" }, /^Недопустимые символы.*: <U\+202E>$/],
      [{ late_message: "Не успели\u200b" }, /^Недопустимые символы.*: <U\+200B>$/],
      [{ cap_per_30_days: 0 }, /Лимит/],
      [{ cap_per_30_days: 2.5 }, /целое/],
      [{ cooldown_hours: -1 }, /Пауза между отправками/],
      [{ tempo_min: 200 }, /Нижняя граница темпа/],
      [{ tempo_min: 170, tempo_max: 170 }, /Нижняя граница темпа/],
      [{ tempo_max: 1000 }, /Темп до/],
      [{ tempo_mode: "drop" }, /flag или refuse/],
      [{ promise_days: 0 }, /Срок ответа/],
      [{ auto_decline_after_days: 400 }, /Отказ после срока/],
      [{ staff_chat_id: "chat" }, /staff_chat_id/],
      [{ staff_chat_id: "-100abc" }, /staff_chat_id/],
      [{ staff_chat_id: 1.5 }, /staff_chat_id/],
      [{ open: "yes" }, /open/],
      [{ opened: true }, /Неизвестное поле/],
      [{}, /Не указано ни одно поле/],
    ];
    for (const [json, error] of bad) {
      const r = await put("label_koster", json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error, JSON.stringify(json)).toMatch(error);
    }
    const unknown = await put("label_mars", { open: false });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("Неизвестное направление");
    const rule = ((await f.call("GET", "/api/admin/intake")).body.intake as Rule[])
      .find((x) => x.direction === "label_koster");
    expect(rule).toMatchObject({ open: true, tempo_min: 160, tempo_max: 190, staff_chat_id: null });
  });

  it("a moderator reads their categories' rules only and may not change them; others are refused", async () => {
    const mod = await f.call("GET", "/api/moderator/intake", { headers: f.as.moderator });
    expect(mod.status).toBe(200);
    expect((mod.body.intake as Rule[]).map((x) => x.direction)).toEqual(["label_koster"]);
    expect(mod.body.intake as Rule[]).toEqual([expect.objectContaining({ staff_chat_id: null })]);
    expect((await put("label_koster", { open: false }, f.as.moderator)).status).toBe(403);
    expect((await f.call("GET", "/api/admin/intake", { headers: f.as.moderator })).status).toBe(403);
    expect((await f.call("GET", "/api/moderator/intake", { headers: f.as.plain })).status).toBe(403);
    expect((await f.call("GET", "/api/admin/intake", { headers: f.as.anonymous })).status).toBe(401);
    const rule = ((await f.call("GET", "/api/admin/intake")).body.intake as Rule[])
      .find((x) => x.direction === "label_koster");
    expect(rule?.open).toBe(true);
  });
});

describe("the rules at the door (POST /api/upload)", () => {
  it("a paused direction: 409 with the pause message, before any file is stored", async () => {
    now = T0;
    await put("podcast_koster", { open: false, pause_message: "Подкаст на каникулах" });
    const a = await artist();
    const before = (await storedFiles(f.t)).length;
    // The upload page sends the directions first: refused at the first file, nothing stored.
    const first = await postUpload(f.t, a.headers, [
      dirPart("label_koster"),
      dirPart("podcast_koster"),
      filePart("Artist - Track.mp3"),
    ]);
    expect(first.res.status).toBe(409);
    expect(first.body).toMatchObject({ success: false, direction: "podcast_koster", reason: "paused" });
    expect(first.body.error).toContain("Подкаст на каникулах");
    expect(first.body.error).toContain("Подкаст Костёр");
    // Files first: refused at the end of the body, and the stored file removed.
    const second = await postUpload(f.t, a.headers, [filePart("Artist - Track.mp3"), dirPart("podcast_koster")]);
    expect(second.res.status).toBe(409);
    expect((await storedFiles(f.t)).length).toBe(before);
    expect(await f.t.ctx.db.select().from(tracks).where(eq(tracks.user_id, a.user.id))).toEqual([]);
    // Another direction is open.
    const open = await postUpload(f.t, a.headers, [dirPart("label_koster"), filePart("Artist - Track.mp3")]);
    expect(open.res.status, JSON.stringify(open.body)).toBe(200);
    // Staff are not held by the rules (docs/decisions/0238).
    const staff = await postUpload(f.t, f.as.moderator, [dirPart("podcast_koster"), filePart("Staff - Track.mp3")]);
    expect(staff.res.status, JSON.stringify(staff.body)).toBe(200);
    await f.t.ctx.queue.idle();
    await resetRules();
  });

  it("the cap per 30 days: 429 with the date it opens; failed and older uploads do not count", async () => {
    now = T0;
    await put("show_neurogon", { cap_per_30_days: 2 });
    const a = await artist();
    const db = f.t.ctx.db;
    const mk = (daysAgo: number, status: "completed" | "failed" = "completed") =>
      createTrack(db, {
        user_id: a.user.id,
        directions: "show_neurogon",
        upload_date: new Date(T0 - daysAgo * DAY),
        status,
      });
    await mk(31);
    await mk(1, "failed");
    await mk(20);
    // One counted: one more fits, two do not.
    const two = await postUpload(f.t, a.headers, [
      dirPart("show_neurogon"),
      filePart("Artist - One.mp3"),
      filePart("Artist - Two.mp3"),
    ]);
    expect(two.res.status).toBe(429);
    expect(two.body).toMatchObject({ success: false, reason: "cap", direction: "show_neurogon" });
    // The 20-day-old one leaves the window 30 days after its upload.
    expect(two.body.opens_at).toBe(new Date(T0 - 20 * DAY + 30 * DAY).toISOString());
    expect(two.body.error).toMatch(/не больше 2 треков за 30 дней/);
    const one = await postUpload(f.t, a.headers, [dirPart("show_neurogon"), filePart("Artist - One.mp3")]);
    expect(one.res.status, JSON.stringify(one.body)).toBe(200);
    const third = await postUpload(f.t, a.headers, [dirPart("show_neurogon"), filePart("Artist - Three.mp3")]);
    expect(third.res.status).toBe(429);
    // Another direction has no cap.
    const elsewhere = await postUpload(f.t, a.headers, [dirPart("label_koster"), filePart("Artist - Three.mp3")]);
    expect(elsewhere.res.status, JSON.stringify(elsewhere.body)).toBe(200);
    await f.t.ctx.queue.idle();
    await resetRules();
  });

  it("the cooldown between submissions to a direction: 429 with when it opens, then accepted", async () => {
    now = T0;
    await put("radio_k_profit", { cooldown_hours: 24 });
    const a = await artist();
    await createTrack(f.t.ctx.db, {
      user_id: a.user.id,
      directions: "radio_k_profit",
      upload_date: new Date(T0 - 23 * HOUR),
    });
    const early = await postUpload(f.t, a.headers, [dirPart("radio_k_profit"), filePart("Artist - Next.mp3")]);
    expect(early.res.status).toBe(429);
    expect(early.body).toMatchObject({
      reason: "cooldown",
      opens_at: new Date(T0 + HOUR).toISOString(),
      retry_after_s: 3600,
    });
    expect(early.body.error).toMatch(/не чаще раза в 24 ч/);
    expect(early.res.headers.get("Retry-After")).toBe("3600");
    now = T0 + HOUR + 1;
    const later = await postUpload(f.t, a.headers, [dirPart("radio_k_profit"), filePart("Artist - Next.mp3")]);
    expect(later.res.status, JSON.stringify(later.body)).toBe(200);
    await f.t.ctx.queue.idle();
    now = T0;
    await resetRules();
  });

  it("the resumable start (issue 26) is refused the same way, and a started upload counts", async () => {
    now = T0;
    const a = await artist();
    const start = (directions: string, filename = "Artist - Resumed.mp3") =>
      f.call("POST", "/api/upload/resumable", {
        headers: a.headers,
        json: { filename, size: 1000, directions },
      });
    await put("podcast_koster", { open: false, pause_message: "Пауза" });
    const paused = await start("podcast_koster");
    expect(paused.status).toBe(409);
    expect(paused.body).toMatchObject({ success: false, reason: "paused", direction: "podcast_koster" });
    await put("label_koster", { cap_per_30_days: 1 });
    expect((await start("label_koster")).status).toBe(201);
    // The first start is not a track yet, but it is counted: the cap is reached.
    const second = await start("label_koster", "Artist - Second.mp3");
    expect(second.status).toBe(429);
    expect(second.body.reason).toBe("cap");
    expect(second.res.headers.get("Retry-After")).not.toBeNull();
    await resetRules();
  });
});

describe("the tempo window at processing", () => {
  const SYNTH = "Synth Artist - Clipped Drop.mp3"; // 174 BPM (test/fixtures/README.md)

  async function uploadSynth(...directions: string[]) {
    const a = await artist();
    const r = await postUpload(f.t, a.headers, [...directions.map(dirPart), filePart(SYNTH, fixture(SYNTH))]);
    expect(r.res.status, JSON.stringify(r.body)).toBe(200);
    await f.t.ctx.queue.idle();
    const id = (r.body.track_ids as number[])[0];
    const [row] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, id));
    const [report] = await f.t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, id));
    return { a, id, row, report };
  }

  it("folds half and double time: 87 and 348 BPM read as 174", () => {
    expect(tempoInWindow(87, 160, 190)).toBe(true);
    expect(tempoInWindow(348, 160, 190)).toBe(true);
    expect(tempoInWindow(140, 160, 190)).toBe(false);
    expect(tempoInWindow(174, 100, 120)).toBe(false);
  });

  it("flag: accepted, with a warning the staff see and the artist does not", async () => {
    await put("label_neuropunk", { tempo_min: 100, tempo_max: 120, tempo_mode: "flag" });
    const { a, id, row, report } = await uploadSynth("label_neuropunk");
    expect(row.status).toBe("completed");
    expect(report.warnings.split(",")).toContain("tempo_outside_window");
    const staff = await f.call("GET", `/api/admin/tracks/${id}`);
    expect((staff.body.track as { analysis: { warnings: string[] } }).analysis.warnings).toContain(
      "tempo_outside_window",
    );
    const mine = await f.t.app.request("/api/tracks", { headers: a.headers });
    const text = await mine.text();
    expect(text).toContain(`"id":${id}`);
    expect(text).not.toContain("tempo_outside_window");
    await resetRules();
  });

  it("inside the window (folded) nothing is flagged", async () => {
    await put("label_neuropunk", { tempo_min: 80, tempo_max: 95, tempo_mode: "refuse" });
    const { row, report } = await uploadSynth("label_neuropunk");
    expect(row.status).toBe("completed");
    expect(report.warnings).not.toContain("tempo_outside_window");
    await resetRules();
  });

  it("refuse: the track fails with the reason naming the direction and its window; the file goes", async () => {
    await put("label_neuropunk", { tempo_min: 100, tempo_max: 120, tempo_mode: "refuse" });
    const { row } = await uploadSynth("label_neuropunk");
    expect(row.status).toBe("failed");
    expect(row.error).toBe(
      "Темп трека (174 BPM) вне окна направления «Лейбл Нейропанк» (100–120 BPM): трек не принят.",
    );
    expect(row.storage_key === null || !(await f.t.ctx.storage.stat(row.storage_key))).toBe(true);
    // With another direction that takes it, the whole upload is refused all the same, and the reason
    // says to send it there again (docs/decisions/0240).
    const both = await uploadSynth("label_neuropunk", "podcast_neuropunk");
    expect(both.row.status).toBe("failed");
    expect(both.row.error).toMatch(/«Лейбл Нейропанк» \(100–120 BPM\): трек не принят\. В остальные выбранные/);
    await resetRules();
  });
});

describe("the promise", () => {
  it("respond_by on the artist's and the staff's pairs; overdue pairs first in the queue", async () => {
    now = T0;
    await put("label_koster", { promise_days: 10 });
    const a = await artist();
    const db = f.t.ctx.db;
    const older = await createTrack(db, {
      user_id: a.user.id,
      directions: "label_koster,show_neurogon",
      upload_date: new Date(T0 - 11 * DAY),
      filename: "Promise - Older.mp3",
    });
    const newer = await createTrack(db, {
      user_id: a.user.id,
      directions: "label_koster",
      upload_date: new Date(T0 - 1 * DAY),
      filename: "Promise - Newer.mp3",
    });
    const history = await f.t.app.request("/api/tracks/history", { headers: a.headers });
    const items = (await history.json()).tracks as Array<{ id: number; decisions: Array<Record<string, unknown>> }>;
    const item = items.find((t) => t.id === older.id)!;
    expect(item.decisions).toEqual([
      expect.objectContaining({ direction: "label_koster", respond_by: new Date(T0 - DAY).toISOString() }),
      expect.objectContaining({ direction: "show_neurogon", respond_by: new Date(T0 + 3 * DAY).toISOString() }),
    ]);
    const staff = await f.call("GET", `/api/moderator/tracks/${older.id}`, { headers: f.as.moderator });
    expect(staff.body.track).toMatchObject({
      overdue: true,
      decisions: [
        { direction: "label_koster", respond_by: new Date(T0 - DAY).toISOString(), overdue: true },
        { direction: "show_neurogon", respond_by: new Date(T0 + 3 * DAY).toISOString(), overdue: false },
      ],
    });
    // The default order (newest first) puts the overdue one first; an explicit other order does not.
    const list = await f.call("GET", "/api/moderator/tracks?sort=-upload_date&filename=Promise", {
      headers: f.as.moderator,
    });
    expect((list.body.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([older.id, newer.id]);
    // Paged: the overdue range first, then the others, across the page boundary.
    const late = await createTrack(db, {
      directions: "label_koster",
      upload_date: new Date(T0 - 11 * DAY),
      filename: "Paging - Late.mp3",
    });
    const recent: number[] = [];
    for (let i = 1; i <= 10; i++) {
      recent.push(
        (await createTrack(db, {
          directions: "label_koster",
          upload_date: new Date(T0 - i * HOUR),
          filename: `Paging - Recent ${i}.mp3`,
        })).id,
      );
    }
    const pageOf = async (page: number) => {
      const r = await f.call("GET", `/api/moderator/tracks?filename=Paging&page=${page}&page_size=10`, {
        headers: f.as.moderator,
      });
      expect(r.body).toMatchObject({ filtered: 11, pages: 2, page });
      return (r.body.tracks as Array<{ id: number }>).map((t) => t.id);
    };
    expect(await pageOf(1)).toEqual([late.id, ...recent.slice(0, 9)]);
    expect(await pageOf(2)).toEqual([recent[9]]);
    const asc = await f.call("GET", "/api/moderator/tracks?sort=upload_date&filename=Promise", {
      headers: f.as.moderator,
    });
    expect((asc.body.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([older.id, newer.id]);
    const byName = await f.call("GET", "/api/moderator/tracks?sort=-filename&filename=Promise", {
      headers: f.as.moderator,
    });
    expect((byName.body.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([older.id, newer.id]);
    // The dashboards count by the direction's promise, not 14 days.
    const dash = await f.call("GET", "/api/moderator/dashboard", { headers: f.as.moderator });
    const koster = (dash.body.review_queue as Array<Record<string, number | string>>)
      .find((e) => e.direction === "label_koster")!;
    expect(koster.overdue).toBeGreaterThanOrEqual(1);
    const overdueList = await f.call("GET", "/api/moderator/tracks?review=overdue&filename=Promise", {
      headers: f.as.moderator,
    });
    expect((overdueList.body.tracks as Array<{ id: number }>).map((t) => t.id)).toEqual([older.id]);
    // Answered: no date.
    const r = await f.call("PUT", `/api/admin/tracks/${older.id}/decisions/label_koster`, {
      json: { status: "accepted", revision: await decisionRevision(db, older.id, "label_koster") },
    });
    expect(r.status).toBe(200);
    const after = await f.call("GET", `/api/admin/tracks/${older.id}`);
    expect((after.body.track as { decisions: Array<{ respond_by: string | null }> }).decisions[0].respond_by)
      .toBeNull();
    await resetRules();
  });
});

describe("the automatic decline", () => {
  // A database of its own: the tracks of the tests above would fall due at the same moments.
  beforeAll(async () => {
    await f.close();
    now = T0;
    f = await fixture_();
  });

  it("declines at promise + grace, not a minute early, through the decision path, marked automatic", async () => {
    now = T0;
    await put("label_koster", { promise_days: 14, auto_decline_after_days: 7 });
    await put("podcast_koster", { late_message: "{artist}, простите: «{title}» для «{direction}» мы не успели." });
    const a = await artist();
    const db = f.t.ctx.db;
    const track = await createTrack(db, {
      user_id: a.user.id,
      directions: "label_koster,podcast_koster",
      upload_date: new Date(T0),
      filename: "Late Artist - Late Track.mp3",
    });
    const decided = await createTrack(db, {
      user_id: a.user.id,
      directions: "label_koster",
      upload_date: new Date(T0),
      filename: "Late Artist - Decided.mp3",
    });
    const ok = await f.call("PUT", `/api/admin/tracks/${decided.id}/decisions/label_koster`, {
      json: { status: "shortlisted", revision: 0 },
    });
    expect(ok.status).toBe(200);
    const sweep = f.t.ctx.promiseSweep;
    const due = T0 + 21 * DAY;

    const states = async (id: number) =>
      ((await f.call("GET", `/api/admin/tracks/${id}`)).body.track as { decisions: Array<{ status: string }> })
        .decisions.map((d) => d.status);
    now = due - 60_000;
    await sweep.runOnce();
    expect(await states(track.id)).toEqual(["new", "new"]);
    now = due;
    await sweep.runOnce();
    expect(await states(track.id)).toEqual(["new", "new"]);

    now = due + 1;
    expect(await sweep.runOnce()).toBe(2);
    expect(await sweep.runOnce()).toBe(0);
    expect(await states(track.id)).toEqual(["declined", "declined"]);
    const detail = await f.call("GET", `/api/admin/tracks/${track.id}`);
    const t = detail.body.track as {
      decisions: Array<{ direction: string; status: string; message: string; decided_by: unknown }>;
      decision_history: Array<{ direction: string; to: string; automatic: boolean; decided_by: unknown }>;
    };
    expect(t.decisions.map((d) => [d.direction, d.status, d.decided_by])).toEqual([
      ["label_koster", "declined", null],
      ["podcast_koster", "declined", null],
    ]);
    expect(t.decisions[0].message).toBe(
      DEFAULT_LATE_MESSAGE.replace("{artist}", "Late Artist").replace("{title}", "Late Track").replace(
        "{direction}",
        "Лейбл Костёр",
      ),
    );
    expect(t.decisions[1].message).toBe("Late Artist, простите: «Late Track» для «Подкаст Костёр» мы не успели.");
    expect(t.decision_history).toEqual([
      expect.objectContaining({ direction: "label_koster", to: "declined", automatic: true, decided_by: null }),
      expect.objectContaining({ direction: "podcast_koster", to: "declined", automatic: true, decided_by: null }),
    ]);
    // The shortlisted pair is held on purpose: left alone (docs/decisions/0241).
    const held = await f.call("GET", `/api/admin/tracks/${decided.id}`);
    expect((held.body.track as { decisions: Array<{ status: string }> }).decisions[0].status).toBe("shortlisted");
    // The artist is told like any decision: one message per pair in the outbox.
    const outbox = await db.select().from(telegramOutbox).where(eq(telegramOutbox.user_id, a.user.id));
    expect(outbox).toHaveLength(2);
    // The artist's history: declined, automatic, no date.
    const history = await f.t.app.request("/api/tracks/history", { headers: (await signIn(f.t.ctx, a.user)).headers });
    const mine = ((await history.json()).tracks as Array<{ id: number; decisions: unknown }>)
      .find((x) => x.id === track.id)!;
    expect(mine.decisions).toEqual([
      expect.objectContaining({ direction: "label_koster", status: "declined", automatic: true, respond_by: null }),
      expect.objectContaining({ direction: "podcast_koster", status: "declined", automatic: true, respond_by: null }),
    ]);
    // Counted on the dashboard.
    const dash = await f.call("GET", "/api/admin/dashboard", { headers: await adminHeaders() });
    const queue = dash.body.review_queue as Array<{ direction: string; auto_declined: number }>;
    expect(queue.find((e) => e.direction === "label_koster")?.auto_declined).toBe(1);
    expect(queue.find((e) => e.direction === "podcast_koster")?.auto_declined).toBe(1);
    const rows = await db.select().from(trackDecisionHistory)
      .where(and(eq(trackDecisionHistory.track_id, track.id), eq(trackDecisionHistory.automatic, true)));
    expect(rows).toHaveLength(2);
    now = T0;
    await resetRules();
  });

  it("runs on one instance at a time: another sweep waits for the lease to end", async () => {
    now = T0 + 200 * DAY;
    const other = createPromiseSweep({ ...f.t.ctx, review: f.t.ctx.review }, { owner: "other-instance" });
    const a = await artist();
    const track = await createTrack(f.t.ctx.db, {
      user_id: a.user.id,
      directions: "show_neurogon",
      upload_date: new Date(now - 30 * DAY),
    });
    // This app's sweep holds the lease (taken in the test before, for two intervals from then): it
    // ended long ago, so the other instance takes it now, and this one does not in the meantime.
    const status = async (id: number) =>
      ((await f.call("GET", `/api/admin/tracks/${id}`)).body.track as { decisions: Array<{ status: string }> })
        .decisions[0].status;
    expect(await other.runOnce()).toBe(1);
    expect(await status(track.id)).toBe("declined");
    const next = await createTrack(f.t.ctx.db, {
      user_id: a.user.id,
      directions: "show_neurogon",
      upload_date: new Date(now - 30 * DAY),
    });
    expect(await f.t.ctx.promiseSweep.runOnce()).toBe(0);
    expect(await status(next.id)).toBe("new");
    expect(await other.runOnce()).toBe(1);
    expect(await status(next.id)).toBe("declined");
    now = T0;
  });
});

/** The admin's headers, signed again on the fake clock. */
async function adminHeaders() {
  forgetRules(f.t.ctx.db);
  return (await signIn(f.t.ctx, f.admin)).headers;
}

/**
 * Issue 23, the review desk (docs/decisions/0222–0224): one decision for the whole track within the
 * caller's categories, its undo while the artist's message is held, the hold itself (the Bot API
 * double hears nothing before it is over, one message for the track's decided pairs after (issue
 * 31), none after an undo),
 * what the artist's site shows meanwhile, and templates of each outcome with their placeholders.
 */
import { asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { declineTemplates, telegramOutbox, trackDecisionHistory } from "../../db/schema.ts";
import { REVIEW_TEXTS } from "../../domain/review.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { CANCELLED_BY_UNDO } from "../notifications/outbox.ts";

const HOLD_S = 60;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let bot: TelegramBotDouble;
let f: StaffFixture;
/** A moderator of label_koster (the fixture's moderator) and one of show_neurogon. */
let neurogon: Headers;
let artist: Awaited<ReturnType<typeof createUser>>;
let artistHeaders: Headers;

beforeAll(async () => {
  bot = await startTelegramBotDouble({ now: () => nowMs });
  f = await staffFixture({
    env: {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      DECISION_NOTIFY_HOLD_S: String(HOLD_S),
      // The test moves its clock by hours in all; the sign-ins last.
      ACCESS_TOKEN_TTL_S: "864000",
    },
    clock,
    moderatorCategories: "label_koster",
  });
  neurogon = (await signIn(
    f.t.ctx,
    await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "show_neurogon" }),
  )).headers;
  artist = await createUser(f.t.ctx.db, { telegram_id: "700100200" });
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(async () => {
  bot.calls.length = 0;
  bot.delivered.length = 0;
  nowMs += 5 * HOLD_S * 1000;
  await f.t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
});

interface Decision {
  direction: string;
  status: string;
  note: string | null;
  message: string | null;
  revision: number;
}

const THREE = "label_koster,podcast_koster,show_neurogon";
const newTrack = (directions = THREE, filename = "Арт Истов - Ночной рейс.mp3") =>
  createTrack(f.t.ctx.db, { directions, user_id: artist.id, filename, status: "completed" });

const panelOf = (headers: Headers) => (headers === f.as.admin ? "admin" : "moderator");

async function revisions(id: number, headers: Headers = f.as.admin) {
  const r = await f.call("GET", `/api/${panelOf(headers)}/tracks/${id}`, { headers });
  const decisions = (r.body.track as { decisions: Decision[] }).decisions;
  return Object.fromEntries(decisions.map((d) => [d.direction, d.revision]));
}

async function decideTrack(id: number, json: Record<string, unknown>, headers: Headers = f.as.admin) {
  const body = "revisions" in json ? json : { ...json, revisions: await revisions(id, headers) };
  return await f.call("PUT", `/api/${panelOf(headers)}/tracks/${id}/decision`, { headers, json: body });
}

const undo = (id: number, headers: Headers = f.as.admin) =>
  f.call("POST", `/api/${panelOf(headers)}/tracks/${id}/decision/undo`, { headers, json: {} });

const stored = async (id: number) => {
  const r = await f.call("GET", `/api/admin/tracks/${id}`, { headers: f.as.admin });
  return Object.fromEntries((r.body.track as { decisions: Decision[] }).decisions.map((d) => [d.direction, d]));
};

const outbox = async (id: number) =>
  (await f.t.ctx.db.select().from(telegramOutbox).orderBy(asc(telegramOutbox.id))).filter((r) =>
    r.key.startsWith(`decision:${id}:`)
  );

const sender = () => f.t.ctx.notifications.sender;

describe("PUT …/tracks/{id}/decision: one decision for the whole track", () => {
  it("applies to every direction (admin), answers each pair's decision and when the artist hears", async () => {
    const tr = await newTrack();
    const r = await decideTrack(tr.id, { status: "accepted", message: "Берём", note: "кик мутный" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.success).toBe(true);
    const decisions = r.body.decisions as Decision[];
    expect(decisions.map((d) => [d.direction, d.status, d.message, d.note, d.revision])).toEqual([
      ["label_koster", "accepted", "Берём", "кик мутный", 1],
      ["podcast_koster", "accepted", "Берём", "кик мутный", 1],
      ["show_neurogon", "accepted", "Берём", "кик мутный", 1],
    ]);
    expect(r.body.notify_at).toBe(new Date(nowMs + HOLD_S * 1000).toISOString());
    const history = await f.t.ctx.db.select().from(trackDecisionHistory).where(
      eq(trackDecisionHistory.track_id, tr.id),
    );
    expect(history).toHaveLength(3);
    expect(new Set(history.map((h) => h.call_id)).size).toBe(1);
    expect((await outbox(tr.id)).map((o) => [o.status, o.next_attempt_at.getTime()])).toEqual([
      ["pending", nowMs + HOLD_S * 1000],
      ["pending", nowMs + HOLD_S * 1000],
      ["pending", nowMs + HOLD_S * 1000],
    ]);
  });

  it("a moderator decides only their categories; the other directions are untouched", async () => {
    const tr = await newTrack();
    const r = await decideTrack(tr.id, { status: "shortlisted" }, f.as.moderator);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decisions as Decision[]).map((d) => [d.direction, d.status])).toEqual([
      ["label_koster", "shortlisted"],
    ]);
    // A shortlist without a message tells the artist nothing.
    expect(r.body.notify_at).toBeNull();
    const all = await stored(tr.id);
    expect([all.podcast_koster.status, all.show_neurogon.status]).toEqual(["new", "new"]);
  });

  it("an override replaces the fields of its direction", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    const r = await decideTrack(tr.id, {
      status: "accepted",
      overrides: { show_neurogon: { status: "declined", message: "Не под шоу" } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decisions as Decision[]).map((d) => [d.direction, d.status, d.message])).toEqual([
      ["label_koster", "accepted", null],
      ["show_neurogon", "declined", "Не под шоу"],
    ]);
  });

  it("a stale revision of any pair refuses the whole call with 409 and the current decisions", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    const revs = await revisions(tr.id);
    await decideTrack(tr.id, { status: "shortlisted" }, neurogon);
    const r = await decideTrack(tr.id, { status: "declined", revisions: revs });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, error: REVIEW_TEXTS.decidedMeanwhile });
    expect((r.body.decisions as Decision[]).map((d) => [d.direction, d.status, d.revision])).toEqual([
      ["label_koster", "new", 0],
      ["show_neurogon", "shortlisted", 1],
    ]);
    // Who decided what and when (issue 31): the other decider's pair names them and the moment.
    const theirs = (r.body.decisions as (Decision & { decided_by: { username: string } | null; decided_at: string })[])
      .find((d) => d.direction === "show_neurogon")!;
    expect(theirs.decided_by?.username).toBeTruthy();
    expect(theirs.decided_at).toBe(new Date(nowMs).toISOString());
    // None applied: label_koster is still new.
    expect((await stored(tr.id)).label_koster.status).toBe("new");
    // A missing revision is stale too.
    const missing = await decideTrack(tr.id, { status: "declined", revisions: { label_koster: 0 } });
    expect(missing.status).toBe(409);
  });

  it("refuses bad input with 400 in Russian, and a track out of sight with 404", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: "listened" }, REVIEW_TEXTS.trackDecisionStatus],
      [{ status: "accepted", overrides: { podcast_koster: { status: "declined" } } }, REVIEW_TEXTS.notTrackDirection],
      [{ status: "accepted", overrides: { nowhere: { status: "declined" } } }, REVIEW_TEXTS.notTrackDirection],
      [{ status: "accepted", message: "x".repeat(1001) }, REVIEW_TEXTS.messageTooLong],
      [{ status: "accepted", template_id: 5, message: "свой" }, REVIEW_TEXTS.messageAndTemplate],
      [{ status: "accepted", template_id: 987_654 }, REVIEW_TEXTS.templateNotFound],
    ];
    for (const [json, error] of cases) {
      const r = await decideTrack(tr.id, json);
      expect([r.status, r.body], JSON.stringify(json)).toEqual([400, { success: false, error }]);
    }
    const noRevisions = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, { json: { status: "accepted" } });
    expect(noRevisions.status).toBe(400);
    // The label_koster moderator may not override show_neurogon.
    const outside = await decideTrack(
      tr.id,
      { status: "accepted", overrides: { show_neurogon: { status: "declined" } } },
      f.as.moderator,
    );
    expect([outside.status, outside.body]).toEqual([400, { success: false, error: REVIEW_TEXTS.outsideCategories }]);
    const unseen = await newTrack("podcast_koster");
    const r = await decideTrack(unseen.id, { status: "accepted", revisions: {} }, f.as.moderator);
    expect(r.status).toBe(404);
    expect((await stored(tr.id)).label_koster.status).toBe("new");
  });

  it("a template of the decision's outcome is filled in per direction; another outcome's is 400", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    const [accept] = await f.t.ctx.db.insert(declineTemplates).values({
      title: "Берём",
      text: "{artist}, «{title}» берём в «{direction}». {unknown} остаётся.",
      outcome: "accepted",
    }).returning();
    const [decline] = await f.t.ctx.db.insert(declineTemplates).values({
      title: "Нет",
      text: "Нет",
      outcome: "declined",
    })
      .returning();
    const wrong = await decideTrack(tr.id, { status: "accepted", template_id: decline.id });
    expect([wrong.status, wrong.body]).toEqual([400, { success: false, error: REVIEW_TEXTS.templateOtherOutcome }]);
    const r = await decideTrack(tr.id, { status: "accepted", template_id: accept.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decisions as Decision[]).map((d) => d.message)).toEqual([
      "Арт Истов, «Ночной рейс» берём в «Лейбл Костёр». {unknown} остаётся.",
      "Арт Истов, «Ночной рейс» берём в «Шоу Нейрогон». {unknown} остаётся.",
    ].map((s) => s));
  });

  it("the per-pair call keeps working and goes through the same rules", async () => {
    const tr = await newTrack("label_koster");
    const [accept] = await f.t.ctx.db.insert(declineTemplates).values({
      title: "Да",
      text: "Да, {title}",
      outcome: "accepted",
    }).returning();
    const r = await f.call("PUT", `/api/admin/tracks/${tr.id}/decisions/label_koster`, {
      json: { status: "accepted", template_id: accept.id, revision: 0 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decision as Decision).message).toBe("Да, Ночной рейс");
    const stale = await f.call("PUT", `/api/admin/tracks/${tr.id}/decisions/label_koster`, {
      json: { status: "declined", revision: 0 },
    });
    expect(stale.status).toBe(409);
    expect((stale.body.current as Decision).status).toBe("accepted");
  });
});

describe("POST …/tracks/{id}/decision/undo", () => {
  it("a shortlist without a message tells nobody, but is held for the undo: undo_until, then back to new", async () => {
    const tr = await newTrack("label_koster");
    const r = await decideTrack(tr.id, { status: "shortlisted" }, f.as.moderator);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.notify_at).toBeNull();
    expect(r.body.undo_until).toBe(new Date(nowMs + HOLD_S * 1000).toISOString());
    const back = await undo(tr.id, f.as.moderator);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((back.body.decisions as Decision[]).map((d) => [d.direction, d.status])).toEqual([["label_koster", "new"]]);
    expect(await outbox(tr.id)).toEqual([]);
  });

  it("a call that changes nothing holds nothing (undo_until null)", async () => {
    const tr = await newTrack("label_koster");
    await decideTrack(tr.id, { status: "shortlisted" }, f.as.moderator);
    const again = await decideTrack(tr.id, { status: "shortlisted" }, f.as.moderator);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.undo_until).toBeNull();
  });

  it("puts every pair of the caller's last decision back, bumps revisions and cancels the held messages", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    await decideTrack(tr.id, { status: "shortlisted", note: "подумать" });
    nowMs += 5_000;
    const decided = await decideTrack(tr.id, { status: "declined", message: "Не наш звук" });
    expect(decided.status).toBe(200);
    nowMs += 10_000;
    const r = await undo(tr.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decisions as Decision[]).map((d) => [d.direction, d.status, d.note, d.message, d.revision]))
      .toEqual([
        ["label_koster", "shortlisted", "подумать", null, 3],
        ["show_neurogon", "shortlisted", "подумать", null, 3],
      ]);
    expect((await outbox(tr.id)).map((o) => [o.status, o.last_error])).toEqual([
      ["superseded", CANCELLED_BY_UNDO],
      ["superseded", CANCELLED_BY_UNDO],
    ]);
    // The desk decides again from the answer's revisions.
    const again = await decideTrack(tr.id, {
      status: "accepted",
      revisions: Object.fromEntries((r.body.decisions as Decision[]).map((d) => [d.direction, d.revision])),
    });
    expect(again.status).toBe(200);
  });

  it("a first decision undone goes back to new; nothing left to undo is 404", async () => {
    const tr = await newTrack("label_koster");
    expect((await undo(tr.id)).status).toBe(404);
    await decideTrack(tr.id, { status: "accepted" });
    const r = await undo(tr.id);
    expect((r.body.decisions as Decision[]).map((d) => [d.status, d.revision])).toEqual([["new", 2]]);
    const twice = await undo(tr.id);
    expect([twice.status, twice.body]).toEqual([404, { success: false, error: REVIEW_TEXTS.nothingToUndo }]);
  });

  it("after the hold: 409, the artist has been told; another person's decision is not the caller's to undo", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    await decideTrack(tr.id, { status: "accepted" }, f.as.moderator);
    expect((await undo(tr.id, neurogon)).status).toBe(404);
    nowMs += HOLD_S * 1000;
    const late = await undo(tr.id, f.as.moderator);
    expect([late.status, late.body]).toEqual([409, { success: false, error: REVIEW_TEXTS.alreadyTold }]);
    expect((await stored(tr.id)).label_koster.status).toBe("accepted");
  });

  it("a pair changed by someone else since is 409 with the current decisions, nothing undone", async () => {
    const tr = await newTrack("label_koster");
    await decideTrack(tr.id, { status: "accepted" }, f.as.moderator);
    await decideTrack(tr.id, { status: "declined" });
    const r = await undo(tr.id, f.as.moderator);
    expect(r.status).toBe(409);
    expect((r.body.decisions as Decision[])[0].status).toBe("declined");
  });
});

describe("the hold before the artist hears (DECISION_NOTIFY_HOLD_S)", () => {
  it("sends nothing during the hold and one message for the track's decided pairs after it (issue 31)", async () => {
    const tr = await newTrack("label_koster,show_neurogon");
    await decideTrack(tr.id, { status: "accepted", message: "Берём" });
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    nowMs += HOLD_S * 1000 - 1;
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    expect(bot.calls).toHaveLength(0);
    nowMs += 1;
    await sender().runOnce();
    nowMs += 1_000; // the chat's pacing: one a second
    await sender().runOnce();
    nowMs += 1_000;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(1);
    expect(String(bot.delivered[0].body.text).split("Сообщение:\nБерём")).toHaveLength(3);
  });

  it("another decision within the hold replaces the waiting message; an undo sends nothing at all", async () => {
    const tr = await newTrack("label_koster");
    await decideTrack(tr.id, { status: "accepted" });
    nowMs += 10_000;
    await decideTrack(tr.id, { status: "declined" });
    nowMs += HOLD_S * 1000;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(1);
    expect(String(bot.delivered[0].body.text)).toContain("Отклонён");

    const other = await newTrack("label_koster");
    await decideTrack(other.id, { status: "declined", message: "Нет" });
    nowMs += 1_000;
    expect((await undo(other.id)).status).toBe(200);
    nowMs += HOLD_S * 1000 * 2;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(1);
  });

  it("the artist's site shows the state before the decision until the hold is over", async () => {
    const tr = await newTrack("label_koster");
    await decideTrack(tr.id, { status: "declined", message: "Нет" });
    const during = await f.call("GET", "/api/tracks/history", { headers: artistHeaders });
    const mine = (during.body.tracks as Array<{ id: number; decisions: Array<{ status: string; message: string }> }>)
      .find((t) => t.id === tr.id)!;
    expect(mine.decisions).toEqual([{
      direction: "label_koster",
      status: "in_review",
      message: null,
      respond_by: expect.any(String),
      automatic: false,
      // Still undecided as the artist sees it: its place in the queue (issue 36, decision 0383).
      queue_position: expect.any(Number),
      queue_length: expect.any(Number),
      expected_by: expect.anything(),
      heard_by: 0,
      reasons: [],
    }]);
    nowMs += HOLD_S * 1000 + 1;
    const after = await f.call("GET", "/api/tracks/history", { headers: artistHeaders });
    const told = (after.body.tracks as Array<{ id: number; decisions: Array<{ status: string }> }>)
      .find((t) => t.id === tr.id)!;
    expect(told.decisions).toEqual([{
      direction: "label_koster",
      status: "declined",
      message: "Нет",
      respond_by: null,
      automatic: false,
      queue_position: null,
      queue_length: null,
      expected_by: null,
      heard_by: null,
      reasons: [],
    }]);
  });

  it("a message made during the hold survives a restart: it is a row, sent by a new sender", async () => {
    const tr = await newTrack("label_koster");
    await decideTrack(tr.id, { status: "accepted" });
    await f.t.ctx.notifications.sender.stop();
    const { createTelegramSender } = await import("../notifications/sender.ts");
    const fresh = createTelegramSender(f.t.ctx);
    nowMs += HOLD_S * 1000;
    expect(await fresh.runOnce()).toMatchObject({ sent: 1 });
  });
});

describe("the queue: «Новые» within the caller's categories, by upload date both ways", () => {
  it("lists what the client sends; a decided track leaves «Новые»; no parameters stay newest first", async () => {
    const db = f.t.ctx.db;
    const base = nowMs - 30 * 86_400_000;
    const day = (n: number) => new Date(base + n * 86_400_000);
    const filename = (n: number) => `Очередь ${n} - Трек.mp3`;
    const made = [];
    for (
      const [n, directions] of [[3, "label_koster"], [1, "label_koster,show_neurogon"], [2, "show_neurogon"], [
        4,
        "label_koster",
      ]] as const
    ) {
      made.push(await createTrack(db, { directions, filename: filename(n), upload_date: day(n), status: "completed" }));
    }
    const names = async (query: string, headers: Headers = f.as.moderator) => {
      const r = await f.call(
        "GET",
        `/api/${panelOf(headers)}/tracks?filename=%D0%9E%D1%87%D0%B5%D1%80%D0%B5%D0%B4%D1%8C&${query}`,
        { headers },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.tracks as Array<{ filename: string }>).map((t) => Number(/Очередь (\d+)/.exec(t.filename)![1]));
    };
    // The moderator's opening view: new within label_koster, oldest first.
    expect(await names("review=new&sort=upload_date&order=asc")).toEqual([1, 3, 4]);
    expect(await names("review=new&sort=upload_date&order=desc")).toEqual([4, 3, 1]);
    expect(await names("review=new&sort=-upload_date")).toEqual([4, 3, 1]);
    // Decided: it leaves «Новые» (its show_neurogon pair, outside the caller's categories, does not keep it).
    const one = made[1];
    expect((await decideTrack(one.id, { status: "shortlisted" }, f.as.moderator)).status).toBe(200);
    expect(await names("review=new&sort=upload_date&order=asc")).toEqual([3, 4]);
    // Still new for the show_neurogon moderator.
    expect(await names("review=new&sort=upload_date&order=asc", neurogon)).toEqual([1, 2]);
    // `awaiting`: new or listened, a decision still to make.
    await f.call("PUT", `/api/admin/tracks/${made[0].id}/decisions/label_koster`, {
      json: { status: "listened", revision: 0 },
    });
    expect(await names("review=new&sort=upload_date&order=asc")).toEqual([4]);
    expect(await names("review=awaiting&sort=upload_date&order=asc")).toEqual([3, 4]);
    // No parameters: every track in sight, newest first (spec 2).
    expect(await names("", f.as.admin)).toEqual([4, 3, 2, 1]);
  });
});

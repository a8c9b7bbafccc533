/**
 * Issue 37, decline reasons: validated on both decision calls, stored per pair with the decision,
 * shown to the artist in Russian words with a line each (site and Telegram message), and counted in
 * the response figures per direction and staff member.
 */
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { telegramOutbox } from "../../db/schema.ts";
import { REASON_ERRORS, REASON_TEXTS_RU } from "../../domain/decline-reasons.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { decisionMessageText, REASONS_HEADING } from "../notifications/message-text.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";

let f: StaffFixture;
let bot: TelegramBotDouble;
let artist: Awaited<ReturnType<typeof createUser>>;
let artistHeaders: Headers;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  f = await staffFixture({
    env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url, DECISION_NOTIFY_HOLD_S: "0" },
    moderatorCategories: "label_koster",
  });
  artist = await createUser(f.t.ctx.db, { telegram_id: "700100999" });
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});

interface Decision {
  direction: string;
  status: string;
  revision: number;
  reasons: string[];
}

const newTrack = (directions = "label_koster,podcast_koster") =>
  createTrack(f.t.ctx.db, { directions, user_id: artist.id, filename: "Арт - Причины.mp3", status: "completed" });

const decide = (id: number, direction: string, json: Record<string, unknown>, headers: Headers = f.as.admin) =>
  f.call("PUT", `/api/${headers === f.as.admin ? "admin" : "moderator"}/tracks/${id}/decisions/${direction}`, {
    headers,
    json: { revision: 0, ...json },
  });

describe("reasons on a decision", () => {
  it("a decline stores its reasons per pair, in the canonical order, repeats dropped", async () => {
    const tr = await newTrack();
    const r = await decide(tr.id, "label_koster", {
      status: "declined",
      message: "Спасибо",
      reasons: ["drop", "mixdown", "drop"],
    }, f.as.moderator);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decision as Decision).reasons).toEqual(["mixdown", "drop"]);
    const track = (await f.call("GET", `/api/admin/tracks/${tr.id}`)).body.track as { decisions: Decision[] };
    expect(track.decisions.map((d) => [d.direction, d.reasons])).toEqual([
      ["label_koster", ["mixdown", "drop"]],
      ["podcast_koster", []],
    ]);
  });

  it("refuses an unknown reason, a non-list, and reasons with an accept (400), writing nothing", async () => {
    const tr = await newTrack();
    const cases: Array<[unknown, string, string]> = [
      [["mixdown", "loud"], "declined", REASON_ERRORS.unknown("loud")],
      ["mixdown", "declined", REASON_ERRORS.notList],
      [["mixdown"], "accepted", REASON_ERRORS.wrongOutcome],
    ];
    for (const [reasons, status, error] of cases) {
      const r = await decide(tr.id, "label_koster", { status, reasons });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    const whole = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, {
      json: { status: "declined", revisions: { label_koster: 0, podcast_koster: 0 }, reasons: ["vibes"] },
    });
    expect(whole.status).toBe(400);
    const track = (await f.call("GET", `/api/admin/tracks/${tr.id}`)).body.track as { decisions: Decision[] };
    expect(track.decisions.map((d) => d.revision)).toEqual([0, 0]);
  });

  it("the whole-track call carries reasons to every pair", async () => {
    const tr = await newTrack();
    const r = await f.call("PUT", `/api/admin/tracks/${tr.id}/decision`, {
      json: { status: "declined", revisions: { label_koster: 0, podcast_koster: 0 }, reasons: ["fit"] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.decisions as Decision[]).map((d) => d.reasons)).toEqual([["fit"], ["fit"]]);
  });

  it("the artist reads the reasons in the history, and the Telegram message names them in Russian", async () => {
    const tr = await newTrack("label_koster");
    const r = await decide(tr.id, "label_koster", { status: "declined", reasons: ["mixdown", "quality"] });
    expect(r.status).toBe(200);
    const h = await f.call("GET", "/api/tracks/history?page=1&page_size=50", { headers: artistHeaders });
    const item = (h.body.tracks as Array<{ id: number; decisions: Decision[] }>).find((t) => t.id === tr.id)!;
    expect(item.decisions[0].reasons).toEqual(["mixdown", "quality"]);
    const rows = (await f.t.ctx.db.select().from(telegramOutbox).orderBy(asc(telegramOutbox.id)))
      .filter((o) => o.key.startsWith(`decision:${tr.id}:`));
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toContain(REASONS_HEADING);
    expect(rows[0].text).toContain(`• ${REASON_TEXTS_RU.mixdown.label} — ${REASON_TEXTS_RU.mixdown.line}`);
    expect(rows[0].text).toContain(REASON_TEXTS_RU.quality.label);
    expect(rows[0].text).not.toContain("mixdown");
  });

  it("the message's text lists the reasons before the staff's message, escaped, within the limit", () => {
    const text = decisionMessageText({
      trackName: "A - B.mp3",
      direction: "label_koster",
      outcome: "declined",
      message: "x".repeat(5000),
      reasons: ["vocals"],
      historyUrl: "https://x/profile",
    });
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text.indexOf(REASON_TEXTS_RU.vocals.label)).toBeLessThan(text.indexOf("Сообщение:"));
  });
});

describe("reasons in the response figures", () => {
  it("per direction and per staff member: declines, how many with a reason, the share, the top reasons", async () => {
    const g = await staffFixture({ moderatorCategories: "label_koster" });
    try {
      const owner = await createUser(g.t.ctx.db);
      const mk = () => createTrack(g.t.ctx.db, { directions: "label_koster", user_id: owner.id, status: "completed" });
      const put = (id: number, json: Record<string, unknown>) =>
        g.call("PUT", `/api/moderator/tracks/${id}/decisions/label_koster`, {
          headers: g.as.moderator,
          json: { revision: 0, status: "declined", ...json },
        });
      expect((await put((await mk()).id, { reasons: ["mixdown", "drop"] })).status).toBe(200);
      expect((await put((await mk()).id, { reasons: ["mixdown"] })).status).toBe(200);
      expect((await put((await mk()).id, {})).status).toBe(200);
      const a = await g.call("GET", "/api/admin/dashboard/response-figures?period=month");
      expect(a.status).toBe(200);
      const fig = a.body.response_figures as {
        by_direction: Array<{ direction: string; reasons: unknown }>;
        by_staff: Array<{ user: { id: number }; reasons: unknown }>;
      };
      const expected = {
        declines: 3,
        with_reasons: 2,
        share: 0.667,
        top: [{ reason: "mixdown", count: 2 }, { reason: "drop", count: 1 }],
      };
      expect(fig.by_direction.find((d) => d.direction === "label_koster")!.reasons).toEqual(expected);
      expect(fig.by_staff.find((s) => s.user.id === g.moderator.id)!.reasons).toEqual(expected);
      const m = await g.call("GET", "/api/moderator/dashboard/response-figures?period=month", {
        headers: g.as.moderator,
      });
      expect((m.body.response_figures as typeof fig).by_staff[0].reasons).toEqual(expected);
    } finally {
      await g.close();
    }
  });
});

/**
 * Issue 32 item 1 (domain/artist-notice.ts, docs/decisions/0300): what the artist is told is what the
 * site shows. A decision replaced within its hold through PUT …/decisions/{direction}: when the hold
 * ends, the message sent is the pair's state at that moment, and a state that sends nothing
 * (shortlisted, listened, new) sends nothing. The Bot API double hears what is sent; the artist's
 * history is what the site shows.
 */
import { isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { telegramOutbox } from "../../db/schema.ts";
import { heldMessageFate, sendsMessage } from "../../domain/artist-notice.ts";
import { ARTIST_REVIEW_LABELS } from "../../domain/artist-review.ts";
import { artistReviewStatus, type ReviewStatus } from "../../domain/review.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { SUPERSEDED_BY_STATE } from "./outbox.ts";

const HOLD_S = 60;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let bot: TelegramBotDouble;
let f: StaffFixture;
let artist: Awaited<ReturnType<typeof createUser>>;
let artistHeaders: Headers;

beforeAll(async () => {
  bot = await startTelegramBotDouble({ now: () => nowMs });
  f = await staffFixture({
    env: {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      DECISION_NOTIFY_HOLD_S: String(HOLD_S),
      ACCESS_TOKEN_TTL_S: "864000",
    },
    clock,
  });
  artist = await createUser(f.t.ctx.db, { telegram_id: "700300400" });
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

const sender = () => f.t.ctx.notifications.sender;

async function decide(trackId: number, json: Record<string, unknown>) {
  const read = await f.call("GET", `/api/admin/tracks/${trackId}`, { headers: f.as.admin });
  const revision = (read.body.track as { decisions: Array<{ revision: number }> }).decisions[0].revision;
  const r = await f.call("PUT", `/api/admin/tracks/${trackId}/decisions/label_koster`, {
    headers: f.as.admin,
    json: { ...json, revision },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The pair as the artist's history shows it now. */
async function siteShows(trackId: number) {
  const r = await f.call("GET", "/api/tracks/history", { headers: artistHeaders });
  const track = (r.body.tracks as Array<{ id: number; decisions: Array<{ status: string; message: string | null }> }>)
    .find((t) => t.id === trackId)!;
  return track.decisions[0];
}

const FIRST: readonly ReviewStatus[] = ["declined", "accepted"];
const REPLACEMENTS: readonly ReviewStatus[] = ["shortlisted", "listened", "new", "accepted", "declined"];
/** What the artist hears at the hold's end: the state's label, or nothing. */
const EXPECTED_SENT: Record<ReviewStatus, string | null> = {
  shortlisted: null,
  listened: null,
  new: null,
  accepted: "Принят",
  declined: "Отклонён",
};

describe("a decision replaced within its hold × what is sent when the hold ends", () => {
  for (const from of FIRST) {
    for (const to of REPLACEMENTS) {
      it(`${from} → ${to}: ${EXPECTED_SENT[to] ?? "nothing"}, and the site shows the same`, async () => {
        const track = await createTrack(f.t.ctx.db, {
          directions: "label_koster",
          user_id: artist.id,
          filename: "Арт - Замена.mp3",
          status: "completed",
        });
        await decide(track.id, { status: from, message: "Первое решение" });
        nowMs += 10_000;
        // A replacement by the same outcome carries new words, or it would change nothing.
        await decide(track.id, { status: to, ...(to === from ? { message: "Второе решение" } : {}) });
        // The first decision's hold is over, the replacement's is not: nothing is told yet.
        nowMs += HOLD_S * 1000 - 1;
        await sender().runOnce();
        expect(bot.delivered).toHaveLength(0);
        expect((await siteShows(track.id)).status).toBe("in_review");
        // The replacement's hold ends.
        nowMs += 1;
        await sender().runOnce();
        const shown = await siteShows(track.id);
        expect(shown.status).toBe(artistReviewStatus(to));
        const expected = EXPECTED_SENT[to];
        if (expected === null) {
          expect(bot.delivered).toHaveLength(0);
          const rows = await f.t.ctx.db.select().from(telegramOutbox);
          expect(rows.map((r) => [r.status, r.last_error])).toEqual([["superseded", SUPERSEDED_BY_STATE]]);
        } else {
          expect(bot.delivered).toHaveLength(1);
          const text = String(bot.delivered[0].body.text);
          expect(text).toContain(`Статус: <b>${expected}</b>`);
          expect(text).toContain(to === from ? "Второе решение" : ARTIST_REVIEW_LABELS[artistReviewStatus(to)]);
          expect(text).not.toContain("Первое решение");
          // The message tells what the site shows.
          expect(text).toContain(`Статус: <b>${ARTIST_REVIEW_LABELS[shown.status as "accepted"]}</b>`);
        }
      });
    }
  }

  it("an undo of the replacement brings the held message back, sent when the undo's hold ends", async () => {
    const track = await createTrack(f.t.ctx.db, {
      directions: "label_koster",
      user_id: artist.id,
      filename: "Арт - Возврат.mp3",
      status: "completed",
    });
    await decide(track.id, { status: "declined", message: "Нет" });
    nowMs += 10_000;
    await decide(track.id, { status: "shortlisted" });
    nowMs += 10_000;
    const undo = await f.call("POST", `/api/admin/tracks/${track.id}/decision/undo`, { headers: f.as.admin });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    nowMs += HOLD_S * 1000 - 1;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(0);
    expect((await siteShows(track.id)).status).toBe("in_review");
    nowMs += 1;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(1);
    expect(String(bot.delivered[0].body.text)).toContain("Отклонён");
    expect(await siteShows(track.id)).toMatchObject({ status: "declined", message: "Нет" });
  });

  it("a note changed within the hold: the message waits for the note's hold, as the site does", async () => {
    const track = await createTrack(f.t.ctx.db, {
      directions: "label_koster",
      user_id: artist.id,
      filename: "Арт - Заметка.mp3",
      status: "completed",
    });
    await decide(track.id, { status: "accepted", message: "Берём" });
    nowMs += 30_000;
    await decide(track.id, { note: "для своих" });
    nowMs += HOLD_S * 1000 - 30_000;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(0);
    expect((await siteShows(track.id)).status).toBe("in_review");
    nowMs += 30_000;
    await sender().runOnce();
    expect(bot.delivered).toHaveLength(1);
    expect(await siteShows(track.id)).toMatchObject({ status: "accepted", message: "Берём" });
  });
});

describe("the rule itself (domain/artist-notice.ts)", () => {
  it("only an outcome, or words sent with a state, send a message", () => {
    const none = { message: null };
    expect(REPLACEMENTS.filter((status) => sendsMessage({ status, ...none }))).toEqual(["accepted", "declined"]);
    expect(sendsMessage({ status: "shortlisted", message: "Вернёмся к треку" })).toBe(true);
  });

  it("a replacement announces, keeps or cancels the held message", () => {
    const declined = { status: "declined" as const, message: "Нет" };
    expect(heldMessageFate(declined, { status: "shortlisted", message: null })).toBe("cancel");
    expect(heldMessageFate(declined, { status: "new", message: null })).toBe("cancel");
    expect(heldMessageFate(declined, { status: "accepted", message: null })).toBe("announce");
    expect(heldMessageFate(declined, { status: "declined", message: "Другое" })).toBe("announce");
    expect(heldMessageFate(declined, declined)).toBe("keep");
  });
});

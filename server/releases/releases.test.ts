/**
 * The release desk (issue 34): a release per accepted label pair (idempotent, removed by an undo
 * within the hold, cancelled by a later decline), the staff's calls with their scope and revision,
 * the artist's own calls, the label copy's rules, catalogue numbers, the calendar, the exports, the
 * completion, the sweep's request, reminders and release day with a fake clock, and the figures.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  releaseHistory,
  releaseMaterials,
  releases,
  telegramOutbox,
  trackAnalysis,
  type User,
} from "../../db/schema.ts";
import { createTrack, createUser, decisionRevision, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";
import { CSV_COLUMNS, releaseFileName } from "./exports.ts";
import { forgetRules } from "../intake/rules.ts";

// The materials' reads are the materials checks' (materials/reads.ts); here they read the table as
// those checks keep it, so the desk's completion can be shown on rows written by the test.
vi.mock("./materials/reads.ts", async () => {
  const { inArray } = await import("drizzle-orm");
  const { releaseMaterials } = await import("../../db/schema.ts");
  return {
    materialsByRelease: async (d: StaffFixture["t"]["ctx"]["db"], ids: number[]) => {
      const out = new Map<number, unknown[]>();
      if (ids.length === 0) return out;
      for (const m of await d.select().from(releaseMaterials).where(inArray(releaseMaterials.release_id, ids))) {
        out.set(m.release_id, [...(out.get(m.release_id) ?? []), m]);
      }
      return out;
    },
  };
});

let bot: TelegramBotDouble;
let f: StaffFixture;
let nowMs = Date.parse("2027-03-10T09:00:00Z");
const HOLD_S = 60;
let artist: User;
let artistHeaders: Headers;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  f = await staffFixture({
    env: {
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_BOT_API_URL: bot.url,
      DECISION_NOTIFY_HOLD_S: String(HOLD_S),
      PUBLIC_URL: "https://demo.example.ru",
      // The fake clock moves by days: sessions outlive the test.
      ACCESS_TOKEN_TTL_S: String(10 * 365 * 86400),
      REFRESH_TOKEN_TTL_S: String(10 * 365 * 86400),
    },
    clock: { now: () => new Date(nowMs) },
    moderatorCategories: "label_koster",
  });
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(async () => {
  artist = await createUser(f.t.ctx.db, { telegram_id: String(700_000_000 + Math.floor(Math.random() * 1e6)) });
  artistHeaders = (await signIn(f.t.ctx, artist)).headers;
});

const db = () => f.t.ctx.db;
const later = (ms: number) => (nowMs += ms);
const DAY = 86_400_000;

async function decide(trackId: number, direction: string, status: string) {
  const r = await f.call("PUT", `/api/admin/tracks/${trackId}/decisions/${direction}`, {
    json: { status, revision: await decisionRevision(db(), trackId, direction), message: "Сообщение" },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function releaseOf(trackId: number, direction = "label_neuropunk") {
  const [row] = await db().select().from(releases)
    .where(and(eq(releases.track_id, trackId), eq(releases.direction, direction)));
  return row;
}

/** An accepted label_neuropunk track of the artist, its hold over; its release. */
async function accepted(direction = "label_neuropunk", values: Parameters<typeof createTrack>[1] = {}) {
  const tr = await createTrack(db(), {
    directions: direction,
    user_id: artist.id,
    filename: "Космонавт - Северный ветер.mp3",
    ...values,
  });
  await decide(tr.id, direction, "accepted");
  later(HOLD_S * 1000 + 1);
  return { track: tr, release: await releaseOf(tr.id, direction) };
}

const goodCopy = {
  title: "Северный ветер",
  version: "Original Mix",
  artists: ["Космонавт"],
  featuring: [],
  remixers: [],
  authors: [{ name: "Иван Петров", role: "music", share: 60 }, { name: "Anna Lee", role: "lyrics", share: 40 }],
  samples: { used: false, cleared: false, details: "" },
  isrc: null,
};

const putCopy = (id: number, json: unknown, headers: Headers = artistHeaders) =>
  f.call("PUT", `/api/releases/${id}/label-copy`, { headers, json });

const outboxKeys = async (prefix: string) =>
  (await db().select().from(telegramOutbox)).filter((r) => r.key.startsWith(prefix));

describe("a release per accepted label pair", () => {
  it("accepting a label pair creates one release; a podcast pair none; a second accept adds nothing", async () => {
    const tr = await createTrack(db(), { directions: "label_neuropunk,podcast_neuropunk", user_id: artist.id });
    await decide(tr.id, "podcast_neuropunk", "accepted");
    expect(await releaseOf(tr.id, "podcast_neuropunk")).toBeUndefined();
    await decide(tr.id, "label_neuropunk", "accepted");
    const r = await releaseOf(tr.id);
    expect(r).toMatchObject({ stage: "materials_requested", revision: 0, direction: "label_neuropunk" });
    expect(r.accepted_at.getTime()).toBe(nowMs);
    // Shortlisted then accepted again: the same release, reopened, never a second one.
    later(HOLD_S * 1000 + 1);
    await decide(tr.id, "label_neuropunk", "shortlisted");
    expect((await releaseOf(tr.id)).stage).toBe("cancelled");
    await decide(tr.id, "label_neuropunk", "accepted");
    const again = await db().select().from(releases).where(eq(releases.track_id, tr.id));
    expect(again.map((x) => [x.id, x.stage])).toEqual([[r.id, "materials_requested"]]);
    const actions = await db().select({ a: releaseHistory.action }).from(releaseHistory)
      .where(eq(releaseHistory.release_id, r.id)).orderBy(releaseHistory.id);
    expect(actions.map((x) => x.a)).toEqual(["created", "cancelled", "reopened"]);
  });

  it("an undo within the hold removes the release; a later decline cancels it", async () => {
    const tr = await createTrack(db(), { directions: "label_neuropunk", user_id: artist.id });
    await decide(tr.id, "label_neuropunk", "accepted");
    expect(await releaseOf(tr.id)).toBeDefined();
    const undo = await f.call("POST", `/api/admin/tracks/${tr.id}/decision/undo`, {});
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(await releaseOf(tr.id)).toBeUndefined();

    await decide(tr.id, "label_neuropunk", "accepted");
    later(HOLD_S * 1000 + 1);
    await decide(tr.id, "label_neuropunk", "declined");
    expect((await releaseOf(tr.id)).stage).toBe("cancelled");
  });
});

describe("undo puts back what the undone call changed", () => {
  it("undoing the decline that cancelled a release puts back its stage; undoing a reopen cancels again", async () => {
    const { track, release } = await accepted();
    await f.call("PATCH", `/api/admin/releases/${release.id}`, { json: { stage: "materials_received", revision: 0 } });
    await decide(track.id, "label_neuropunk", "declined");
    expect((await releaseOf(track.id)).stage).toBe("cancelled");
    expect((await f.call("POST", `/api/admin/tracks/${track.id}/decision/undo`, {})).status).toBe(200);
    expect((await releaseOf(track.id)).stage).toBe("materials_received");

    later(HOLD_S * 1000 + 1);
    await decide(track.id, "label_neuropunk", "declined");
    later(HOLD_S * 1000 + 1);
    await decide(track.id, "label_neuropunk", "accepted");
    expect((await releaseOf(track.id)).stage).toBe("materials_requested");
    expect((await f.call("POST", `/api/admin/tracks/${track.id}/decision/undo`, {})).status).toBe(200);
    const back = await releaseOf(track.id);
    expect(back).toMatchObject({ id: release.id, stage: "cancelled" });
  });

  it("a release already out stays released when the pair is declined later", async () => {
    const { track, release } = await accepted();
    const path = `/api/admin/releases/${release.id}`;
    await f.call("PATCH", path, { json: { stage: "materials_received", revision: 0 } });
    await f.call("PATCH", path, {
      json: { stage: "scheduled", catalogue_number: `NPR8${release.id}`, release_date: "2027-01-01", revision: 1 },
    });
    await f.call("PATCH", path, { json: { stage: "released", revision: 2 } });
    expect((await outboxKeys(`release:${release.id}:released:`)).length).toBe(1);
    await decide(track.id, "label_neuropunk", "declined");
    expect((await releaseOf(track.id)).stage).toBe("released");
    expect((await f.call("PATCH", path, { json: { stage: "cancelled", revision: 3 } })).status).toBe(400);
  });
});

describe("staff calls", () => {
  it("lists and reads within the caller's categories: 404 outside sight, 403 outside categories", async () => {
    const { release } = await accepted("label_neuropunk", { directions: "label_neuropunk,podcast_koster" });
    const { release: koster } = await accepted("label_koster");
    const mod = f.as.moderator;
    // The moderator (label_koster) sees koster's release, not neuropunk's.
    const list = await f.call("GET", "/api/moderator/releases", { headers: mod });
    expect(list.status).toBe(200);
    const ids = (list.body.releases as { id: number }[]).map((r) => r.id);
    expect(ids).toContain(koster.id);
    expect(ids).not.toContain(release.id);
    expect((await f.call("GET", `/api/moderator/releases/${release.id}`, { headers: mod })).status).toBe(404);
    // A moderator who sees the track (podcast_koster) but not the label gets 403.
    const podMod = await createUser(db(), { is_moderator: true, moderator_categories: "podcast_koster" });
    const podHeaders = (await signIn(f.t.ctx, podMod)).headers;
    const forbidden = await f.call("GET", `/api/moderator/releases/${release.id}`, { headers: podHeaders });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ success: false, error: "Релиз вне ваших категорий" });
    expect((await f.call("GET", "/api/moderator/releases?direction=label_neuropunk", { headers: mod })).status)
      .toBe(403);
    // Artists are refused the staff calls.
    expect((await f.call("GET", "/api/admin/releases", { headers: artistHeaders })).status).toBe(403);
    const one = await f.call("GET", `/api/moderator/releases/${koster.id}`, { headers: mod });
    expect(one.body.release).toMatchObject({
      id: koster.id,
      track_id: koster.track_id,
      direction: "label_koster",
      stage: "materials_requested",
      revision: 0,
      suggested_catalogue_number: expect.stringMatching(/^KSTR\d{3}$/),
    });
    expect((one.body.history as { action: string }[]).map((h) => h.action)).toEqual(["created"]);
  });

  it("moves stages with the revision checked; schedules with a number and a date; tells the artist", async () => {
    const { release } = await accepted();
    const path = `/api/admin/releases/${release.id}`;
    expect((await f.call("PATCH", path, { json: { stage: "released", revision: 0 } })).status).toBe(400);
    const noDate = await f.call("PATCH", path, { json: { stage: "materials_received", revision: 0 } });
    expect(noDate.status).toBe(200);
    const stale = await f.call("PATCH", path, { json: { note: "x", revision: 0 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, error: "Релиз изменился: обновите страницу" });
    expect((stale.body.release as { revision: number }).revision).toBe(1);
    expect((await f.call("PATCH", path, { json: { stage: "scheduled", revision: 1 } })).body.error)
      .toBe("Чтобы запланировать релиз, нужны номер по каталогу и дата выхода");
    const suggested = (await f.call("GET", path)).body.release as { suggested_catalogue_number: string };
    const ok = await f.call("PATCH", path, {
      json: {
        stage: "scheduled",
        catalogue_number: suggested.suggested_catalogue_number,
        release_date: "2027-04-02",
        note: "Только для нас",
        revision: 1,
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.release).toMatchObject({ stage: "scheduled", revision: 2, release_date: "2027-04-02" });
    const [msg] = await outboxKeys(`release:${release.id}:scheduled:`);
    expect(msg.text.split("\n")[0]).toBe(
      `Релиз запланирован на 02.04.2027, номер ${suggested.suggested_catalogue_number}`,
    );
    // The next suggestion is past the number taken; taking the same number on another release is refused.
    const { release: other } = await accepted();
    const second = (await f.call("GET", `/api/admin/releases/${other.id}`)).body.release as {
      suggested_catalogue_number: string;
    };
    expect(second.suggested_catalogue_number).not.toBe(suggested.suggested_catalogue_number);
    const dup = await f.call("PATCH", `/api/admin/releases/${other.id}`, {
      json: { catalogue_number: suggested.suggested_catalogue_number, revision: 0 },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toContain(`№ ${release.id}`);
    // The artist's answer never carries the staff's note.
    const mine = await f.call("GET", `/api/releases/${release.id}`, { headers: artistHeaders });
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).not.toContain("Только для нас");
    expect(mine.body.release).not.toHaveProperty("note");
  });

  it("takes the catalogue prefix and next number from the intake settings", async () => {
    const put = await f.call("PUT", "/api/admin/intake/label_koster", {
      json: { catalogue_prefix: "kst", catalogue_next: 40, release_extended: true },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.rule).toMatchObject({ catalogue_prefix: "KST", catalogue_next: 40, release_extended: true });
    expect((await f.call("PUT", "/api/admin/intake/label_koster", { json: { catalogue_prefix: "N1" } })).status)
      .toBe(400);
    const { release } = await accepted("label_koster");
    const one = (await f.call("GET", `/api/admin/releases/${release.id}`)).body.release as {
      suggested_catalogue_number: string;
      materials: { kind: string; required: boolean }[];
    };
    expect(one.suggested_catalogue_number).toBe("KST040");
    expect(one.materials.map((m) => [m.kind, m.required])).toEqual([
      ["master", true],
      ["extended", true],
      ["label_copy", true],
      ["sample_clearance", true],
    ]);
    await f.call("PUT", "/api/admin/intake/label_koster", {
      json: { catalogue_prefix: null, catalogue_next: 1, release_extended: false },
    });
    forgetRules(db());
  });
});

describe("the artist's calls and the label copy", () => {
  it("lists only the artist's own, after the hold; another's is 404", async () => {
    const tr = await createTrack(db(), { directions: "label_neuropunk", user_id: artist.id });
    await decide(tr.id, "label_neuropunk", "accepted");
    const r = await releaseOf(tr.id);
    // Within the hold the artist's pages still show the state before (decision 0223).
    expect((await f.call("GET", `/api/releases/${r.id}`, { headers: artistHeaders })).status).toBe(404);
    later(HOLD_S * 1000 + 1);
    const list = await f.call("GET", "/api/releases", { headers: artistHeaders });
    expect((list.body.releases as { id: number }[]).map((x) => x.id)).toEqual([r.id]);
    const stranger = (await signIn(f.t.ctx, await createUser(db()))).headers;
    expect((await f.call("GET", `/api/releases/${r.id}`, { headers: stranger })).status).toBe(404);
    expect((await putCopy(r.id, goodCopy, stranger)).status).toBe(404);
  });

  it("shows the release's stage in the artist's history beside «Принят», once the hold is over", async () => {
    const tr = await createTrack(db(), { directions: "label_koster", user_id: artist.id });
    await decide(tr.id, "label_koster", "accepted");
    const history = async () =>
      ((await f.call("GET", "/api/tracks/history", { headers: artistHeaders })).body.tracks as {
        id: number;
        releases: unknown[];
      }[]).find((t) => t.id === tr.id)!.releases;
    expect(await history()).toEqual([]);
    later(HOLD_S * 1000 + 1);
    const r = await releaseOf(tr.id, "label_koster");
    expect(await history()).toEqual([{ id: r.id, direction: "label_koster", stage: "materials_requested" }]);
  });

  it("checks each field: shares total exactly 100, positive; ISRC form and uniqueness; hidden characters", async () => {
    const { release } = await accepted();
    const bad = async (over: Record<string, unknown>) => {
      const r = await putCopy(release.id, { ...goodCopy, ...over });
      return [r.status, r.body.error];
    };
    expect(await bad({ authors: [{ name: "A", role: "music", share: 60 }, { name: "B", role: "both", share: 30 }] }))
      .toEqual([400, "authors: доли авторов в сумме должны быть ровно 100 (сейчас 90)"]);
    expect(await bad({ authors: [{ name: "A", role: "music", share: 110 }, { name: "B", role: "both", share: -10 }] }))
      .toEqual([400, "authors: доля каждого автора больше нуля"]);
    expect(await bad({ authors: [{ name: "A", role: "drums", share: 100 }] }))
      .toEqual([400, "authors: роль — music, lyrics или both"]);
    expect(await bad({ isrc: "RU-A1-26-0001" }))
      .toEqual([400, "isrc: ожидается вид CC-XXX-YY-NNNNN, например RU-A12-26-00001"]);
    expect(await bad({ artists: [] })).toEqual([400, "artists: укажите хотя бы одно имя"]);
    expect(await bad({ samples: { used: true, cleared: false, details: "" } }))
      .toEqual([400, "samples.details: опишите, какие сэмплы использованы и откуда"]);
    const [status, error] = await bad({ title: "Север\u202Eный" });
    expect(status).toBe(400);
    expect(error).toContain("<U+202E>");
    // Three decimals of a share are refused; 33.33 + 33.33 + 33.34 is exactly 100.
    expect(
      (await bad({
        authors: [
          { name: "A", role: "music", share: 33.33 },
          { name: "B", role: "music", share: 33.33 },
          { name: "C", role: "music", share: 33.34 },
        ],
      }))[0],
    ).toBe(200);

    const saved = await putCopy(release.id, { ...goodCopy, isrc: "ru-a12-26-00001" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.release).toMatchObject({ isrc: "RU-A12-26-00001", title: "Северный ветер" });
    const { release: other } = await accepted();
    const reused = await putCopy(other.id, { ...goodCopy, isrc: "RUA122600001" });
    expect(reused.status).toBe(409);
    expect(reused.body.error).toBe(`ISRC RU-A12-26-00001 уже указан у релиза № ${release.id}`);
    // Every change is in the history; staff may edit it too.
    const staff = await f.call("PUT", `/api/admin/releases/${release.id}/label-copy`, {
      json: { ...goodCopy, version: "VIP", isrc: "RU-A12-26-00001" },
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(200);
    const history = (staff.body.history as { action: string; by: string | null }[]).filter((h) =>
      h.action === "label_copy"
    );
    expect(history.map((h) => h.by)).toEqual([artist.username, artist.username, f.admin.username]);
  });
});

describe("materials complete, the sweep's messages, the exports", () => {
  async function masterAccepted(releaseId: number) {
    const key = `releases/${releaseId}/master.wav`;
    await f.t.ctx.storage.write(key, ReadableStream.from([new TextEncoder().encode("RIFF-test-bytes")]));
    await db().insert(releaseMaterials).values({
      release_id: releaseId,
      kind: "master",
      state: "accepted",
      filename: "Северный ветер master.wav",
      size: 15,
      storage_key: key,
      report: { duration_s: 245.4 },
    }).onConflictDoUpdate({ target: [releaseMaterials.release_id, releaseMaterials.kind], set: { state: "accepted" } });
  }

  it("moves to materials_received when the master, label copy and sample clearance are in", async () => {
    const { release } = await accepted();
    await putCopy(release.id, { ...goodCopy, samples: { used: true, cleared: false, details: "Amen break" } });
    await masterAccepted(release.id);
    expect(await f.t.ctx.releases.afterMaterialsChanged(release.id)).toBe(false);
    expect((await releaseOf(release.track_id)).stage).toBe("materials_requested");
    const r = await putCopy(release.id, { ...goodCopy, samples: { used: true, cleared: true, details: "Amen break" } });
    expect(r.body.release).toMatchObject({ stage: "materials_received", materials_complete: true });
    expect((await releaseOf(release.track_id)).materials_complete_at?.getTime()).toBe(nowMs);
  });

  it("sends the request after the hold, reminders every 3 days at most 4, none once complete", async () => {
    await db().delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
    const sweep = f.t.ctx.releases.sweep;
    const tr = await createTrack(db(), { directions: "label_neuropunk", user_id: artist.id });
    await decide(tr.id, "label_neuropunk", "accepted");
    const id = (await releaseOf(tr.id)).id;
    await sweep.runOnce();
    expect((await outboxKeys(`release:${id}:`)).map((r) => r.key)).toEqual([]);
    later(HOLD_S * 1000 + 1);
    await sweep.runOnce();
    const [request] = await outboxKeys(`release:${id}:request:`);
    expect(request.text).toContain(`https://demo.example.ru/releases/${id}`);
    expect(request.text).toContain("мастер");
    const reminders = async () => (await outboxKeys(`release:${id}:reminder:`)).map((r) => r.key);
    later(3 * DAY - 1000);
    await sweep.runOnce();
    expect(await reminders()).toEqual([]);
    for (let n = 1; n <= 6; n++) {
      later(1000);
      await sweep.runOnce();
      await sweep.runOnce();
      // Just short of the next 3 days: nothing more.
      later(3 * DAY - 1000);
      await sweep.runOnce();
      expect(await reminders()).toHaveLength(Math.min(n, 4));
    }
    expect(await reminders()).toEqual([1, 2, 3, 4].map((n) => `release:${id}:reminder:${n}`));

    // Another release, complete before its first reminder: none.
    const { release } = await accepted();
    await sweep.runOnce();
    await putCopy(release.id, goodCopy);
    await masterAccepted(release.id);
    await f.t.ctx.releases.afterMaterialsChanged(release.id);
    later(4 * DAY);
    await sweep.runOnce();
    expect(await outboxKeys(`release:${release.id}:reminder:`)).toEqual([]);
  });

  it("sends no reminder for a cancelled release", async () => {
    const { track, release } = await accepted();
    await f.t.ctx.releases.sweep.runOnce();
    expect(await outboxKeys(`release:${release.id}:request:`)).toHaveLength(1);
    await decide(track.id, "label_neuropunk", "declined");
    later(4 * DAY);
    await f.t.ctx.releases.sweep.runOnce();
    expect(await outboxKeys(`release:${release.id}:reminder:`)).toEqual([]);
  });

  it("moves a scheduled release to released on its day (Moscow) and tells the artist", async () => {
    const { release } = await accepted();
    const path = `/api/admin/releases/${release.id}`;
    await f.call("PATCH", path, { json: { stage: "materials_received", revision: 0 } });
    const day = new Date(nowMs + 2 * DAY).toISOString().slice(0, 10);
    await f.call("PATCH", path, {
      json: { stage: "scheduled", catalogue_number: `NPR9${release.id}`, release_date: day, revision: 1 },
    });
    await f.t.ctx.releases.sweep.runOnce();
    expect((await releaseOf(release.track_id)).stage).toBe("scheduled");
    // 21:00 UTC the day before is midnight in Moscow: the day has come.
    nowMs = Date.parse(`${day}T00:00:00Z`) - 3 * 3600_000;
    await f.t.ctx.releases.sweep.runOnce();
    expect((await releaseOf(release.track_id)).stage).toBe("released");
    const [msg] = await outboxKeys(`release:${release.id}:released:`);
    expect(msg.text).toContain("Сегодня вышел релиз «Северный ветер»");
  });

  it("exports label copy as CSV with a BOM and the columns; files.zip in ASCII with label-copy.csv", async () => {
    const { release } = await accepted();
    await db().insert(trackAnalysis).values({
      track_id: release.track_id,
      bpm: 174.2,
      musical_key: "F minor",
      analysed_at: new Date(nowMs),
    } as never)
      .onConflictDoNothing();
    const isrc = `RU-B${String(release.id % 100).padStart(2, "0")}-27-00002`;
    expect((await putCopy(release.id, { ...goodCopy, featuring: ["MC Ёж"], isrc })).status).toBe(200);
    await masterAccepted(release.id);
    await f.call("PATCH", `/api/admin/releases/${release.id}`, {
      json: {
        catalogue_number: "NPR777",
        release_date: "2027-05-01",
        revision: (await releaseOf(release.track_id)).revision,
      },
    });
    const csv = await f.call("GET", `/api/admin/releases/${release.id}/label-copy.csv`);
    expect(csv.status).toBe(200);
    expect(csv.res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await csv.res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines[0]).toBe(
      "Label,Catalogue number,Release date,Title,Version,Artists,Featuring,Remixers,Authors with shares,ISRC,Duration,BPM,Key,Explicit",
    );
    expect(lines[1]).toMatch(
      /^Neuropunk Records,NPR777,2027-05-01,Северный ветер,Original Mix,Космонавт,MC Ёж,,Иван Петров \(music\) 60%; Anna Lee \(lyrics\) 40%,RU-B\d\d-27-00002,4:05,174,F minor,no$/,
    );
    const all = await f.call(
      "GET",
      "/api/admin/releases/export.csv?direction=label_neuropunk&from=2027-05-01&to=2027-05-31",
    );
    const rows = new TextDecoder().decode(new Uint8Array(await all.res.arrayBuffer())).split("\r\n").filter(Boolean);
    expect(rows.length).toBe(2);
    expect(rows[1]).toContain("NPR777");

    const zip = await f.call("GET", `/api/admin/releases/${release.id}/files.zip`);
    expect(zip.status).toBe(200);
    expect(zip.res.headers.get("content-type")).toBe("application/zip");
    const text = new TextDecoder("latin1").decode(new Uint8Array(await zip.res.arrayBuffer()));
    expect(text).toContain("NPR777 - Kosmonavt - Severnyi veter (Original Mix).wav");
    expect(text).toContain("label-copy.csv");
    expect((await f.call("GET", `/api/moderator/releases/${release.id}/files.zip`, { headers: f.as.moderator })).status)
      .toBe(404);
  });

  it("names files in ASCII by the ICAO rule", () => {
    expect(
      releaseFileName(
        { catalogue: "KSTR012", artists: ["Щука", "Юла"], title: "Жёлтый: свет?", version: null },
        "extended",
        "x.FLAC",
      ),
    )
      .toBe("KSTR012 - Shchuka, Iula - Zheltyi svet (Extended Mix).flac");
  });
});

describe("calendar and figures", () => {
  it("answers scheduled and released releases by day; the dashboard figures per label", async () => {
    const { release } = await accepted("label_koster");
    const path = `/api/admin/releases/${release.id}`;
    await f.call("PATCH", path, { json: { stage: "materials_received", revision: 0 } });
    later(2 * DAY);
    await f.call("PATCH", path, {
      json: { stage: "scheduled", catalogue_number: "KSTR500", release_date: "2027-06-15", revision: 1 },
    });
    const cal = await f.call(
      "GET",
      "/api/moderator/releases/calendar?direction=label_koster&from=2027-06-01&to=2027-06-30",
      {
        headers: f.as.moderator,
      },
    );
    expect(cal.status).toBe(200);
    expect(
      (cal.body.days as { date: string; releases: { id: number }[] }[]).map((
        d,
      ) => [d.date, d.releases.map((r) => r.id)]),
    )
      .toEqual([["2027-06-15", [release.id]]]);
    const fig = await f.call("GET", "/api/admin/dashboard/releases");
    const koster = (fig.body.release_figures as { direction: string; median_days_to_materials: number | null }[])
      .find((x) => x.direction === "label_koster")!;
    expect(koster.median_days_to_materials).not.toBeNull();
    expect(fig.body.release_figures).toHaveLength(2);
  });
});

/**
 * The moderator API (issue 7): who may call it, the category limits on every track call (including
 * downloads), what an update may change, and the FAQ with the admin's rules.
 */
import { eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIRECTION_CONFLICT_MESSAGE } from "../../domain/directions.ts";
import { faqs, tracks } from "../../db/schema.ts";
import {
  AUDIO,
  audioBytes,
  type Headers,
  naughtyStrings,
  type StaffFixture,
  staffFixture,
} from "../testing/staff-test-kit.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";

let f: StaffFixture;
/**
 * Moderator of label_koster, show_neurogon and podcast_neuropunk: sees shared tracks that carry
 * label_neuropunk (which only podcast_neuropunk may accompany, by the conflict table).
 */
let wide: Headers;
/** Moderator of every category. */
let star: Headers;
/** Moderator flag without any category. */
let none: Headers;

beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster" });
  const db = f.t.ctx.db;
  const as = async (moderator_categories: string) =>
    (await signIn(f.t.ctx, await createUser(db, { is_moderator: true, moderator_categories }))).headers;
  wide = await as("podcast_neuropunk,label_koster,show_neurogon");
  star = await as("*");
  none = await as("");
});
afterAll(() => f.close());

const mod = () => f.as.moderator;

const row = async (id: number) => (await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, id)))[0];

/** Every moderator endpoint of spec 2 §6/§7. */
const ENDPOINTS: Array<[string, string, unknown?]> = [
  ["GET", "/api/moderator/status"],
  ["GET", "/api/moderator/tracks"],
  ["GET", "/api/moderator/tracks/1"],
  ["PUT", "/api/moderator/tracks/1", { downloaded: true }],
  ["DELETE", "/api/moderator/tracks/1"],
  ["GET", "/api/moderator/tracks/download/1"],
  ["POST", "/api/moderator/tracks/download", { track_ids: [1] }],
  ["GET", "/api/moderator/faq"],
  ["POST", "/api/moderator/faq", { question: "Q", answer: "A" }],
  ["GET", "/api/moderator/faq/1"],
  ["PUT", "/api/moderator/faq/1", { order: 1 }],
  ["DELETE", "/api/moderator/faq/1"],
];

describe("who may call /api/moderator", () => {
  it.each(ENDPOINTS)("%s %s: anonymous 401, plain user 403, nothing changed", async (method, path, json) => {
    const before = await f.t.ctx.db.select().from(tracks);
    const anon = await f.call(method, path, { headers: f.as.anonymous, json });
    expect(anon.status).toBe(401);
    expect(anon.body.success).toBe(false);
    const user = await f.call(method, path, { headers: f.as.plain, json });
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ success: false, error: "Доступ только для модераторов" });
    expect(await f.t.ctx.db.select().from(tracks)).toEqual(before);
  });

  it("refuses a banned moderator with the ban text", async () => {
    const banned = await createUser(f.t.ctx.db, {
      is_moderator: true,
      moderator_categories: "label_koster",
      is_banned: true,
      ban_reason: "Спам",
    });
    const r = await f.call("GET", "/api/moderator/status", { headers: (await signIn(f.t.ctx, banned)).headers });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe("Спам");
  });

  it('status: moderators get their list of codes, admins and * moderators get "*"', async () => {
    expect((await f.call("GET", "/api/moderator/status", { headers: mod() })).body).toEqual({
      success: true,
      status: { is_moderator: true, categories: ["label_koster"] },
    });
    expect((await f.call("GET", "/api/moderator/status", { headers: wide })).body.status).toEqual({
      is_moderator: true,
      categories: ["podcast_neuropunk", "label_koster", "show_neurogon"],
    });
    expect((await f.call("GET", "/api/moderator/status", { headers: f.as.admin })).body.status).toEqual({
      is_moderator: true,
      categories: "*",
    });
    expect((await f.call("GET", "/api/moderator/status", { headers: star })).body.status).toEqual({
      is_moderator: true,
      categories: "*",
    });
    expect((await f.call("GET", "/api/moderator/status", { headers: none })).body.status).toEqual({
      is_moderator: true,
      categories: [],
    });
  });

  it("reads the categories afresh on every call: an admin's change applies at once", async () => {
    const m = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
    const h = (await signIn(f.t.ctx, m)).headers;
    const np = await createTrack(f.t.ctx.db, { directions: "label_neuropunk" });
    expect((await f.call("GET", `/api/moderator/tracks/${np.id}`, { headers: h })).status).toBe(404);
    // The change goes through the admin API, as an admin makes it.
    const admin = (await signIn(f.t.ctx, await createUser(f.t.ctx.db, { is_admin: true }))).headers;
    const edit = (patch: Record<string, unknown>) =>
      f.call("PUT", `/api/admin/users/${m.id}`, {
        headers: admin,
        json: { username: m.username, is_admin: false, is_banned: false, ...patch },
      });
    expect((await edit({ is_moderator: true, moderator_categories: "label_neuropunk" })).status).toBe(200);
    expect((await f.call("GET", `/api/moderator/tracks/${np.id}`, { headers: h })).status).toBe(200);
    expect((await f.call("GET", "/api/moderator/status", { headers: h })).body.status).toEqual({
      is_moderator: true,
      categories: ["label_neuropunk"],
    });
    expect((await edit({ is_moderator: false })).status).toBe(200);
    expect((await f.call("GET", "/api/moderator/status", { headers: h })).status).toBe(403);
  });
});

describe("moderator tracks: category limits", () => {
  it("a label_koster moderator cannot read, download, change or delete a label_neuropunk-only track (404)", async () => {
    const np = await f.trackWithFile(AUDIO.amen, { directions: "label_neuropunk" });
    const mine = await f.trackWithFile(AUDIO.low, { directions: "label_koster" });
    const before = await row(np.id);
    const calls: Array<[string, string, unknown?]> = [
      ["GET", `/api/moderator/tracks/${np.id}`],
      ["PUT", `/api/moderator/tracks/${np.id}`, { downloaded: true }],
      ["PUT", `/api/moderator/tracks/${np.id}`, { directions: "label_koster" }],
      ["DELETE", `/api/moderator/tracks/${np.id}`],
      ["GET", `/api/moderator/tracks/download/${np.id}`],
      ["POST", "/api/moderator/tracks/download", { track_ids: [np.id] }],
      // One foreign id in a batch spoils the whole batch: nothing is signed.
      ["POST", "/api/moderator/tracks/download", { track_ids: [mine.id, np.id] }],
    ];
    for (const [method, path, json] of calls) {
      const r = await f.call(method, path, { headers: mod(), json });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toEqual({ success: false, error: "Трек не найден" });
      expect(r.body.download_url).toBeUndefined();
    }
    expect(await row(np.id)).toEqual(before);
    expect((await row(mine.id)).downloaded).toBe(false);
    // Not in the list either; the admin still has it.
    const list = await f.call("GET", "/api/moderator/tracks", { headers: mod() });
    const ids = (list.body.tracks as Array<{ id: number }>).map((t) => t.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(np.id);
    expect((await f.call("GET", `/api/admin/tracks/${np.id}`)).status).toBe(200);
  });

  it("a signed link cannot be turned into a foreign track: the link names its tracks and its signer's scope is checked again", async () => {
    const mine = await f.trackWithFile(AUDIO.amen, { directions: "label_koster" });
    const r = await f.call("GET", `/api/moderator/tracks/download/${mine.id}`, { headers: mod() });
    expect(r.status).toBe(200);
    const url = r.body.download_url as string;
    // The moderator loses the category before using the link: the link no longer gives the file.
    await f.t.ctx.db.update(tracks).set({ directions: "label_neuropunk" }).where(eq(tracks.id, mine.id));
    const res = await f.t.app.request(url);
    expect(res.status).toBe(404);
    await res.body?.cancel();
    expect((await row(mine.id)).downloaded).toBe(false);
  });

  it("lists only tracks with at least one direction in the categories, with the admin's filters and paging", async () => {
    const base = `Mod${crypto.randomUUID().slice(0, 6)}`;
    const k1 = await createTrack(f.t.ctx.db, {
      filename: `${base} - K1.mp3`,
      directions: "label_koster",
      downloaded: true,
    });
    const k2 = await createTrack(f.t.ctx.db, {
      filename: `${base} - K2.mp3`,
      directions: "label_koster,show_neurogon",
    });
    const n = await createTrack(f.t.ctx.db, { filename: `${base} - N.mp3`, directions: "show_neurogon" });
    const names = async (headers: Headers, query = "") => {
      const r = await f.call("GET", `/api/moderator/tracks?filename=${base}${query}`, { headers });
      expect(r.status).toBe(200);
      return (r.body.tracks as Array<{ id: number }>).map((t) => t.id).sort();
    };
    expect(await names(mod())).toEqual([k1.id, k2.id].sort());
    expect(await names(wide)).toEqual([k1.id, k2.id, n.id].sort());
    expect(await names(star)).toEqual([k1.id, k2.id, n.id].sort());
    expect(await names(f.as.admin)).toEqual([k1.id, k2.id, n.id].sort());
    expect(await names(none)).toEqual([]);
    expect(await names(mod(), "&downloaded=true")).toEqual([k1.id]);
    expect(await names(wide, "&direction=show_neurogon")).toEqual([k2.id, n.id].sort());
    const paged = await f.call("GET", `/api/moderator/tracks?filename=${base}&page=1&page_size=10`, { headers: mod() });
    expect(paged.body).toMatchObject({ success: true, filtered: 2, page: 1, pages: 1, page_size: 10 });
    const bad = await f.call("GET", "/api/moderator/tracks?direction=nonsense", { headers: mod() });
    expect(bad.status).toBe(400);
  });

  it("gets a track in the categories with its user's name", async () => {
    const artist = await createUser(f.t.ctx.db, { first_name: "Иван", last_name: "Петров" });
    const tr = await createTrack(f.t.ctx.db, { user_id: artist.id, directions: "label_koster" });
    const r = await f.call("GET", `/api/moderator/tracks/${tr.id}`, { headers: mod() });
    expect(r.status).toBe(200);
    expect(r.body.track).toMatchObject({
      id: tr.id,
      filename: tr.filename,
      directions: "label_koster",
      downloaded: false,
      user_info: { id: artist.id, name: "Иван Петров" },
    });
  });
});

describe("moderator tracks: updates", () => {
  it("cannot add label_neuropunk to a shared track, nor remove it: it stays exactly as it was", async () => {
    const koster = await createTrack(f.t.ctx.db, { directions: "label_koster,show_neurogon" });
    const add = await f.call("PUT", `/api/moderator/tracks/${koster.id}`, {
      headers: wide,
      json: { directions: "label_koster,show_neurogon,label_neuropunk" },
    });
    expect(add.status).toBe(200);
    expect((await row(koster.id)).directions).toBe("label_koster,show_neurogon");

    const shared = await createTrack(f.t.ctx.db, { directions: "label_neuropunk,podcast_neuropunk" });
    for (const directions of ["podcast_neuropunk", ["podcast_neuropunk"], " podcast_neuropunk , "]) {
      const r = await f.call("PUT", `/api/moderator/tracks/${shared.id}`, {
        headers: wide,
        json: { directions, downloaded: true },
      });
      expect(r.status, JSON.stringify(directions)).toBe(200);
      expect(r.body.track).toMatchObject({ directions: "label_neuropunk,podcast_neuropunk", downloaded: true });
      expect((await row(shared.id)).directions).toBe("label_neuropunk,podcast_neuropunk");
    }
    // Removing their own direction leaves label_neuropunk alone on the track.
    const own = await f.call("PUT", `/api/moderator/tracks/${shared.id}`, {
      headers: wide,
      json: { directions: "label_neuropunk" },
    });
    expect(own.status).toBe(200);
    expect((await row(shared.id)).directions).toBe("label_neuropunk");
    // ... and the track is then out of their sight.
    expect((await f.call("GET", `/api/moderator/tracks/${shared.id}`, { headers: wide })).status).toBe(404);
    // An out-of-scope code next to an allowed change: the allowed part happens, the rest does not.
    const mixed = await f.call("PUT", `/api/moderator/tracks/${koster.id}`, {
      headers: wide,
      json: { directions: "label_koster,radio_k_profit" },
    });
    expect(mixed.status).toBe(200);
    expect((await row(koster.id)).directions).toBe("label_koster");
  });

  it("changes directions inside the categories and toggles downloaded", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster,radio_k_profit" });
    const r = await f.call("PUT", `/api/moderator/tracks/${tr.id}`, {
      headers: wide,
      json: { directions: "label_koster,show_neurogon,radio_k_profit", downloaded: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.track).toMatchObject({ directions: "label_koster,show_neurogon,radio_k_profit", downloaded: true });
    expect(await row(tr.id)).toMatchObject({
      directions: "label_koster,show_neurogon,radio_k_profit",
      downloaded: true,
    });
    const back = await f.call("PUT", `/api/moderator/tracks/${tr.id}`, { headers: mod(), json: { downloaded: false } });
    expect(back.body.track).toMatchObject({
      downloaded: false,
      directions: "label_koster,show_neurogon,radio_k_profit",
    });
    expect((await row(tr.id)).downloaded).toBe(false);
  });

  it("keeps at least one direction and respects the conflict table (400 with a clear text)", async () => {
    const only = await createTrack(f.t.ctx.db, { directions: "label_koster" });
    for (const directions of ["", [], null]) {
      const r = await f.call("PUT", `/api/moderator/tracks/${only.id}`, { headers: mod(), json: { directions } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: "У трека должно быть хотя бы одно направление" });
    }
    expect((await row(only.id)).directions).toBe("label_koster");

    // Adding show_neurogon next to label_neuropunk (kept, outside the scope) breaks the conflict table.
    const np = await createTrack(f.t.ctx.db, { directions: "label_neuropunk,podcast_neuropunk" });
    const conflict = await f.call("PUT", `/api/moderator/tracks/${np.id}`, {
      headers: wide,
      json: { directions: "podcast_neuropunk,show_neurogon", downloaded: true },
    });
    expect(conflict.status).toBe(400);
    expect(conflict.body).toEqual({ success: false, error: DIRECTION_CONFLICT_MESSAGE });
    expect(await row(np.id)).toMatchObject({ directions: "label_neuropunk,podcast_neuropunk", downloaded: false });

    // A * moderator: a conflicting pair is refused too.
    const k = await createTrack(f.t.ctx.db, { directions: "podcast_koster" });
    const both = await f.call("PUT", `/api/moderator/tracks/${k.id}`, {
      headers: star,
      json: { directions: "podcast_koster,podcast_neuropunk" },
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe(DIRECTION_CONFLICT_MESSAGE);

    const unknown = await f.call("PUT", `/api/moderator/tracks/${k.id}`, {
      headers: star,
      json: { directions: "label_koster,bogus" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("Неизвестное направление");
    const badFlag = await f.call("PUT", `/api/moderator/tracks/${k.id}`, {
      headers: star,
      json: { downloaded: "maybe" },
    });
    expect(badFlag.status).toBe(400);
    expect((await row(k.id)).directions).toBe("podcast_koster");
  });

  it("ignores every other field: filename, owner, guest name and date stay as they were", async () => {
    const owner = await createUser(f.t.ctx.db);
    const other = await createUser(f.t.ctx.db);
    const tr = await createTrack(f.t.ctx.db, { user_id: owner.id, directions: "label_koster" });
    const before = await row(tr.id);
    const r = await f.call("PUT", `/api/moderator/tracks/${tr.id}`, {
      headers: mod(),
      json: {
        filename: "Hacked - Name.mp3",
        user_id: other.id,
        guest_username: "guest",
        upload_date: "2001-01-01T00:00:00Z",
        status: "failed",
        storage_key: "../../etc/passwd",
        downloaded: true,
      },
    });
    expect(r.status).toBe(200);
    const after = await row(tr.id);
    expect(after).toEqual({ ...before, downloaded: true, updated_at: after.updated_at });
  });

  it("a * moderator and an admin work on every track", async () => {
    const np = await createTrack(f.t.ctx.db, { directions: "label_neuropunk" });
    for (const headers of [star, f.as.admin]) {
      expect((await f.call("GET", `/api/moderator/tracks/${np.id}`, { headers })).status).toBe(200);
    }
    const r = await f.call("PUT", `/api/moderator/tracks/${np.id}`, {
      headers: f.as.admin,
      json: { directions: "label_neuropunk,podcast_neuropunk", downloaded: true },
    });
    expect(r.body.track).toMatchObject({ directions: "label_neuropunk,podcast_neuropunk", downloaded: true });
    expect((await f.call("DELETE", `/api/moderator/tracks/${np.id}`, { headers: star })).body).toEqual({
      success: true,
      track_deleted: true,
      directions: "",
    });
    expect(await row(np.id)).toBeUndefined();
  });

  it("deletes a track in the categories, its file included", async () => {
    const tr = await f.trackWithFile(AUDIO.mono, { directions: "label_koster" });
    expect(await f.t.ctx.storage.stat(tr.storage_key!)).not.toBeNull();
    const r = await f.call("DELETE", `/api/moderator/tracks/${tr.id}`, { headers: mod() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, track_deleted: true, directions: "" });
    expect(await row(tr.id)).toBeUndefined();
    expect(await f.t.ctx.storage.stat(tr.storage_key!)).toBeNull();
    expect((await f.call("GET", `/api/moderator/tracks/${tr.id}`, { headers: mod() })).status).toBe(404);
    expect((await f.call("DELETE", `/api/moderator/tracks/${tr.id}`, { headers: mod() })).status).toBe(404);
  });
});

describe("moderator downloads", () => {
  it("one track: a link that serves the MP3 and marks it downloaded", async () => {
    const tr = await f.trackWithFile(AUDIO.amen, { directions: "label_koster" });
    const r = await f.call("GET", `/api/moderator/tracks/download/${tr.id}`, { headers: mod() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true });
    const res = await f.t.app.request(`${r.body.download_url}?access_token=x`);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(audioBytes(AUDIO.amen));
    expect((await row(tr.id)).downloaded).toBe(true);
  });

  it("several tracks: one ZIP link; ids in the categories only", async () => {
    const a = await f.trackWithFile(AUDIO.amen, { directions: "label_koster" });
    const b = await f.trackWithFile(AUDIO.low, { directions: "label_koster,show_neurogon" });
    const r = await f.call("POST", "/api/moderator/tracks/download", {
      headers: mod(),
      json: { track_ids: [a.id, b.id] },
    });
    expect(r.status).toBe(200);
    const res = await f.t.app.request(r.body.download_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    await res.arrayBuffer();
    expect((await row(a.id)).downloaded).toBe(true);
    expect((await row(b.id)).downloaded).toBe(true);
    const empty = await f.call("POST", "/api/moderator/tracks/download", { headers: mod(), json: { track_ids: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("Не выбраны треки для скачивания");
  });
});

describe("moderator FAQ", () => {
  beforeEach(async () => {
    await f.t.ctx.db.delete(faqs).where(gt(faqs.id, 0));
  });

  it("creates, lists, gets, updates and deletes entries; answers are sanitised; the public page shows them", async () => {
    const created = await f.call("POST", "/api/moderator/faq", {
      headers: mod(),
      json: {
        question: "  Как отправить трек?  ",
        answer:
          '<p onclick="x()">Через <strong>форму</strong></p><script>alert(1)</script><a href="javascript:alert(2)">x</a>',
      },
    });
    expect(created.status).toBe(201);
    const faq = created.body.faq as { id: number; question: string; answer: string; order: number };
    expect(faq.question).toBe("Как отправить трек?");
    expect(faq.order).toBe(1);
    expect(faq.answer).toContain("<p>Через <strong>форму</strong></p>");
    expect(faq.answer).not.toMatch(/script|onclick|javascript:/i);

    const second = await f.call("POST", "/api/moderator/faq", {
      headers: wide,
      json: { question: "Второй?", answer: "Да", order: "" },
    });
    expect(second.body.faq).toMatchObject({ order: 2 });

    const list = await f.call("GET", "/api/moderator/faq", { headers: mod() });
    expect(list.body).toMatchObject({ success: true });
    expect((list.body.faqs as Array<{ question: string }>).map((x) => x.question)).toEqual([
      "Как отправить трек?",
      "Второй?",
    ]);
    expect((await f.call("GET", `/api/moderator/faq/${faq.id}`, { headers: mod() })).body).toEqual({
      success: true,
      faq,
    });

    const upd = await f.call("PUT", `/api/moderator/faq/${faq.id}`, {
      headers: mod(),
      json: { question: "Новый вопрос?", answer: "<em>Ответ</em><img src=x onerror=alert(1)>", order: 3 },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.faq).toEqual({ id: faq.id, question: "Новый вопрос?", answer: "<em>Ответ</em>", order: 3 });

    const pub = await (await f.t.app.request("/api/faq")).json();
    expect((pub.faqs as Array<{ question: string }>).map((x) => x.question)).toEqual(["Второй?", "Новый вопрос?"]);

    expect((await f.call("DELETE", `/api/moderator/faq/${faq.id}`, { headers: mod() })).body).toEqual({
      success: true,
    });
    expect((await f.call("GET", `/api/moderator/faq/${faq.id}`, { headers: mod() })).status).toBe(404);
    expect((await f.call("DELETE", `/api/moderator/faq/${faq.id}`, { headers: mod() })).body).toEqual({
      success: false,
      error: "Вопрос не найден",
    });
  });

  it("refuses blank fields and a bad order with { success: false, error }", async () => {
    const cases: Array<[unknown, string]> = [
      [{ question: " ", answer: "x" }, "Вопрос обязателен для заполнения"],
      [{ question: "Q", answer: "  " }, "Ответ обязателен для заполнения"],
      [{ question: "Q", answer: "<script>x</script>" }, "Ответ обязателен для заполнения"],
      [{ question: "Q", answer: "x", order: 0 }, "Порядок должен быть целым числом больше 0"],
      [{ question: "Q", answer: "x", order: "abc" }, "Порядок должен быть целым числом больше 0"],
    ];
    for (const [json, error] of cases) {
      const r = await f.call("POST", "/api/moderator/faq", { headers: mod(), json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body).toEqual({ success: false, error });
    }
    expect((await f.call("GET", "/api/moderator/faq", { headers: mod() })).body.faqs).toEqual([]);
  });

  it("stores naughty strings as text, never as markup that runs", async () => {
    for (const s of naughtyStrings.slice(0, 200)) {
      if (!s.trim()) continue;
      const r = await f.call("POST", "/api/moderator/faq", {
        headers: mod(),
        json: { question: s.slice(0, 500), answer: `<p>${s}</p>` },
      });
      expect([201, 400], s).toContain(r.status);
      if (r.status === 201) {
        const answer = (r.body.faq as { answer: string }).answer;
        expect(answer).not.toMatch(/<script|onerror=|onload=|javascript:/i);
      }
    }
  });
});

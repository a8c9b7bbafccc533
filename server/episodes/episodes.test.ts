/**
 * Issue 35, the shows' episode desk: numbering, scope, the pool and its membership kept true, the
 * running order's rules, the suggestion, the exports' names, the aired message sent once, the
 * artist's history and the public page.
 */
import { unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { releases, telegramOutbox, trackAnalysis, type User } from "../../db/schema.ts";
import { isNotNull } from "drizzle-orm";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { startTelegramBotDouble, type TelegramBotDouble } from "../testing/telegram-bot-double.ts";

let bot: TelegramBotDouble;
let f: StaffFixture;
let artist: User;
let koster: Headers;

beforeAll(async () => {
  bot = await startTelegramBotDouble();
  f = await staffFixture({
    env: { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_BOT_API_URL: bot.url },
    moderatorCategories: "podcast_koster",
  });
  artist = await createUser(f.t.ctx.db, { telegram_id: "500600700", username: "artist-ep" });
  koster = f.as.moderator;
});
afterAll(async () => {
  await f.close();
  await bot.stop();
});
beforeEach(async () => {
  bot.calls.length = 0;
  await f.t.ctx.db.delete(telegramOutbox).where(isNotNull(telegramOutbox.id));
});

let dayN = 0;
const nextDay = () => `2027-01-${String(++dayN).padStart(2, "0")}`;

async function accepted(
  filename: string,
  o: { bpm?: number; camelot?: string; direction?: string; user?: User; headers?: Headers } = {},
) {
  const direction = o.direction ?? "podcast_koster";
  const tr = await createTrack(f.t.ctx.db, { directions: direction, user_id: (o.user ?? artist).id, filename });
  await f.t.ctx.db.insert(trackAnalysis).values({
    track_id: tr.id,
    bpm: o.bpm ?? 174,
    camelot: o.camelot ?? "8A",
    musical_key: null,
    duration_s: 300,
    analysed_at: new Date(),
  });
  const panel = o.headers === koster ? "moderator" : "admin";
  const r = await f.call("PUT", `/api/${panel}/tracks/${tr.id}/decisions/${direction}`, {
    headers: o.headers ?? f.as.admin,
    json: { status: "accepted", revision: 0 },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return tr;
}

type Ep = { id: number; number: number; revision: number; tracks: { track_id: number; at_s: number | null }[] };

async function episode(direction = "podcast_koster", headers = koster, number?: number) {
  const r = await f.call("POST", `/api/${headers === f.as.admin ? "admin" : "moderator"}/episodes`, {
    headers,
    json: { direction, title: "Ночной выпуск", air_date: nextDay(), ...(number ? { number } : {}) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.episode as Ep;
}

const put = (id: number, ids: number[], headers = koster) =>
  f.call("PUT", `/api/moderator/episodes/${id}/tracks`, {
    headers,
    json: { items: ids.map((track_id) => ({ track_id, note: null })) },
  });

const pool = async (direction = "podcast_koster") =>
  ((await f.call("GET", `/api/moderator/episodes/pool?direction=${direction}`, { headers: koster })).body.pool as {
    track_id: number;
  }[]).map((p) => p.track_id);

describe("episodes: numbering and scope", () => {
  it("numbers per direction as last + 1, refuses a taken number, answers the next one in the list", async () => {
    const a = await episode("show_neurogon", f.as.admin);
    const b = await episode("show_neurogon", f.as.admin);
    expect(b.number).toBe(a.number + 1);
    const taken = await f.call("POST", "/api/admin/episodes", {
      json: { direction: "show_neurogon", number: a.number, title: "x", air_date: "2027-02-01" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.success).toBe(false);
    const list = await f.call("GET", "/api/admin/episodes?direction=show_neurogon");
    expect(list.body.next_number).toBe(b.number + 1);
    const clash = await f.call("PATCH", `/api/admin/episodes/${b.id}`, { json: { number: a.number, revision: 0 } });
    expect(clash.status).toBe(409);
    const stale = await f.call("PATCH", `/api/admin/episodes/${b.id}`, { json: { title: "Новый", revision: 7 } });
    expect(stale.status).toBe(409);
    const ok = await f.call("PATCH", `/api/admin/episodes/${b.id}`, { json: { title: "Новый", revision: 0 } });
    expect(ok.body.episode).toMatchObject({ title: "Новый", revision: 1 });
  });

  it("a label is no show (400); outside the categories 403 for a direction, 404 for an episode", async () => {
    const label = await f.call("POST", "/api/admin/episodes", {
      json: { direction: "label_koster", title: "x", air_date: "2027-02-01" },
    });
    expect(label.status).toBe(400);
    const other = await f.call("POST", "/api/moderator/episodes", {
      headers: koster,
      json: { direction: "show_neurogon", title: "x", air_date: "2027-02-01" },
    });
    expect(other.status).toBe(403);
    expect((await f.call("GET", "/api/moderator/episodes/pool?direction=show_neurogon", { headers: koster })).status)
      .toBe(403);
    const theirs = await episode("show_neurogon", f.as.admin);
    for (const [method, path] of [["GET", ""], ["DELETE", ""], ["GET", "/tracklist.txt"], ["POST", "/suggest-order"]]) {
      const json = method === "POST" ? {} : undefined;
      const r = await f.call(method, `/api/moderator/episodes/${theirs.id}${path}`, { headers: koster, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const mine = await f.call("GET", "/api/moderator/episodes", { headers: koster });
    const listed = (mine.body.episodes as { direction: string }[]).map((e) => e.direction);
    expect(listed.every((d) => d === "podcast_koster")).toBe(true);
    expect((await f.call("GET", "/api/admin/episodes", { headers: f.as.plain })).status).toBe(403);
    const bad = await f.call("POST", "/api/admin/episodes", {
      json: { direction: "podcast_koster", title: "x", air_date: "2027-02-31" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("the pool and the running order", () => {
  it("the pool is accepted pairs in no episode, oldest accept first; the order takes only those", async () => {
    const one = await accepted("Первый - Трек.mp3");
    const two = await accepted("Второй - Трек.mp3");
    const undecided = await createTrack(f.t.ctx.db, { directions: "podcast_koster", user_id: artist.id });
    const elsewhere = await accepted("Лейбл - Трек.mp3", { direction: "label_koster" });
    const before = await pool();
    expect(before.indexOf(one.id)).toBeLessThan(before.indexOf(two.id));
    expect(before).not.toContain(undecided.id);
    expect(before).not.toContain(elsewhere.id);
    const ep = await episode();
    expect((await put(ep.id, [undecided.id])).status).toBe(409);
    expect((await put(ep.id, [elsewhere.id])).status).toBe(409);
    expect((await put(ep.id, [one.id, one.id])).status).toBe(400);
    const r = await put(ep.id, [two.id, one.id]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.episode as Ep).tracks.map((t) => t.track_id)).toEqual([two.id, one.id]);
    const after = await pool();
    expect(after).not.toContain(one.id);
    expect(after).not.toContain(two.id);
    // Once per direction across unaired episodes.
    const second = await episode();
    const twice = await put(second.id, [one.id]);
    expect(twice.status).toBe(409);
    expect(twice.body.track_ids).toEqual([one.id]);
    // Back to the pool when taken out of the order.
    await put(ep.id, [two.id]);
    expect(await pool()).toContain(one.id);
  });

  it("an undo within the hold or a decline takes the track out of the pool and unaired episodes, telling staff", async () => {
    const undone = await accepted("Отмена - Трек.mp3", { headers: koster });
    const declined = await accepted("Отказ - Трек.mp3");
    const ep = await episode();
    expect((await put(ep.id, [undone.id, declined.id])).status).toBe(200);
    const u = await f.call("POST", `/api/moderator/tracks/${undone.id}/decision/undo`, { headers: koster, json: {} });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    const d = await f.call("PUT", `/api/admin/tracks/${declined.id}/decisions/podcast_koster`, {
      json: { status: "declined", revision: 1 },
    });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    const view = (await f.call("GET", `/api/moderator/episodes/${ep.id}`, { headers: koster })).body.episode as Ep & {
      notices: { track_id: number; reason: string; filename: string }[];
    };
    expect(view.tracks).toEqual([]);
    expect(view.notices.map((n) => [n.track_id, n.reason])).toEqual([
      [declined.id, "declined"],
      [undone.id, "undone"],
    ]);
    expect(view.revision).toBe(ep.revision + 3);
    const now = await pool();
    expect(now).not.toContain(undone.id);
    expect(now).not.toContain(declined.id);
  });
});

describe("suggest-order", () => {
  it("answers an order from the chosen first track with its clashes and largest step, saving nothing", async () => {
    const slow = await accepted("А - Медленный.mp3", { bpm: 170, camelot: "8A" });
    const fast = await accepted("Б - Быстрый.mp3", { bpm: 176, camelot: "3B" });
    const mid = await accepted("В - Средний.mp3", { bpm: 173, camelot: "8A" });
    const ep = await episode();
    await put(ep.id, [fast.id, slow.id, mid.id]);
    const r = await f.call("POST", `/api/moderator/episodes/${ep.id}/suggest-order`, {
      headers: koster,
      json: { first_track_id: slow.id },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { current, suggested } = r.body as Record<string, { order: number[]; clashes: number; max_step_pct: number }>;
    expect(current.order).toEqual([fast.id, slow.id, mid.id]);
    expect(suggested.order).toEqual([slow.id, mid.id, fast.id]);
    expect(suggested.clashes).toBeLessThanOrEqual(current.clashes);
    expect(suggested.max_step_pct).toBeLessThanOrEqual(4);
    const still = (await f.call("GET", `/api/moderator/episodes/${ep.id}`, { headers: koster })).body.episode as Ep;
    expect(still.tracks.map((t) => t.track_id)).toEqual([fast.id, slow.id, mid.id]);
    const stranger = await f.call("POST", `/api/moderator/episodes/${ep.id}/suggest-order`, {
      headers: koster,
      json: { first_track_id: 999999 },
    });
    expect(stranger.status).toBe(400);
  });
});

describe("exports", () => {
  it("tracklist.txt and .csv: `NN. Artist – Title (Version) [Label]`; files.zip in ASCII with the tracklist", async () => {
    const a = await f.trackWithFile("Test Artist - Amen Study.mp3", {
      directions: "podcast_koster",
      user_id: artist.id,
      filename: "Ёжик Пыжик - Ночь: «Сон» / Явь?.mp3",
    });
    await f.call("PUT", `/api/admin/tracks/${a.id}/decisions/podcast_koster`, {
      json: { status: "accepted", revision: 0 },
    });
    const b = await accepted('Щука & Co. - Жёлтый, "цвет".mp3');
    await f.t.ctx.db.insert(releases).values({
      track_id: b.id,
      direction: "label_koster",
      version: "VIP Mix",
      accepted_at: new Date(),
    });
    const ep = await episode();
    expect((await put(ep.id, [a.id, b.id])).status).toBe(200);
    const txt = await f.call("GET", `/api/moderator/episodes/${ep.id}/tracklist.txt`, { headers: koster });
    expect(txt.res.headers.get("content-type")).toContain("text/plain");
    expect(await txt.res.text()).toBe(
      "01. Ёжик Пыжик – Ночь: «Сон» / Явь? [Self-Released]\n" +
        '02. Щука & Co. – Жёлтый, "цвет" (VIP Mix) [Лейбл Костёр]\n',
    );
    const csv = await (await f.call("GET", `/api/moderator/episodes/${ep.id}/tracklist.csv`, { headers: koster })).res
      .text();
    expect(csv).toBe(
      "\uFEFFposition,artist,title,version,label,cue\r\n" +
        "1,Ёжик Пыжик,Ночь: «Сон» / Явь?,,Self-Released,\r\n" +
        '2,Щука & Co.,"Жёлтый, ""цвет""",VIP Mix,Лейбл Костёр,\r\n',
    );
    const zip = await f.call("GET", `/api/moderator/episodes/${ep.id}/files.zip`, { headers: koster });
    expect(zip.status).toBe(200);
    expect(zip.res.headers.get("content-disposition")).toContain(`podkast-koster-${ep.number}.zip`);
    const files = unzipSync(new Uint8Array(await zip.res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      "01 - Ezhik Pyzhik - Noch Son Iav.mp3",
      "missing.txt",
      "tracklist.txt",
    ]);
    expect(new TextDecoder().decode(files["tracklist.txt"])).toContain("01. Ёжик Пыжик – Ночь");
    expect(new TextDecoder().decode(files["missing.txt"])).toContain("Щука & Co.");
  });
});

describe("aired", () => {
  it("tells each artist once, with the cue; a repeated call or new cues send nothing more", async () => {
    const other = await createUser(f.t.ctx.db, { telegram_id: "500600701" });
    const x = await accepted("Arty - Ночной рейс.mp3");
    const y = await accepted("Other - Без метки.mp3", { user: other });
    const z = await accepted("Arty - Второй.mp3");
    const ep = await episode("podcast_koster", koster, 957);
    await put(ep.id, [x.id, y.id, z.id]);
    const body = {
      aired_at: "2027-03-01T18:00:00Z",
      url: "https://example.org/koster-957",
      cues: [{ track_id: x.id, at_s: 2050 }, { track_id: z.id, at_s: 3725 }],
    };
    const r = await f.call("POST", `/api/moderator/episodes/${ep.id}/aired`, { headers: koster, json: body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await f.t.ctx.notifications.sender.runOnce();
    const texts = bot.delivered.filter((c) => c.method === "sendMessage").map((
      c,
    ) => [String(c.body.chat_id), c.body.text]);
    expect(texts).toEqual([
      [
        "500600700",
        "Ваши треки «Ночной рейс» (на 34:10) и «Второй» (на 1:02:05) прозвучали в выпуске «Подкаст Костёр #957»: https://example.org/koster-957",
      ],
      ["500600701", "Ваш трек «Без метки» прозвучал в выпуске «Подкаст Костёр #957»: https://example.org/koster-957"],
    ]);
    bot.calls.length = 0;
    const again = await f.call("POST", `/api/moderator/episodes/${ep.id}/aired`, {
      headers: koster,
      json: { ...body, cues: [{ track_id: y.id, at_s: 100 }] },
    });
    expect(again.status).toBe(200);
    await f.t.ctx.notifications.sender.runOnce();
    expect(bot.delivered.filter((c) => c.method === "sendMessage")).toEqual([]);
    expect((again.body.episode as Ep).tracks.map((t) => t.at_s)).toEqual([null, 100, null]);
    // Aired: the order is fixed and it stays.
    expect((await put(ep.id, [x.id])).status).toBe(409);
    expect((await f.call("DELETE", `/api/moderator/episodes/${ep.id}`, { headers: koster })).status).toBe(409);
  });

  it("refuses a cue outside the episode, a non-http link; the artist's history shows the episode", async () => {
    const t = await accepted("Arty - История.mp3");
    const ep = await episode("podcast_koster", koster, 958);
    await put(ep.id, [t.id]);
    const path = `/api/moderator/episodes/${ep.id}/aired`;
    const when = "2027-03-02T18:00:00Z";
    expect(
      (await f.call("POST", path, { headers: koster, json: { aired_at: when, url: "javascript:alert(1)" } })).status,
    )
      .toBe(400);
    expect(
      (await f.call("POST", path, {
        headers: koster,
        json: { aired_at: when, url: "https://e.org/1", cues: [{ track_id: 1, at_s: 5 }] },
      })).status,
    ).toBe(400);
    const r = await f.call("POST", path, {
      headers: koster,
      json: { aired_at: when, url: "https://e.org/958", cues: [{ track_id: t.id, at_s: 2050 }] },
    });
    expect(r.status).toBe(200);
    const me = await signIn(f.t.ctx, artist);
    const h = await f.call("GET", "/api/tracks/history?page_size=50", { headers: me.headers });
    const item = (h.body.tracks as { id: number; on_air: unknown[] }[]).find((i) => i.id === t.id)!;
    expect(item.on_air).toEqual([{
      episode: "Подкаст Костёр #958",
      at_s: 2050,
      url: "https://e.org/958",
      aired_at: "2027-03-02T18:00:00.000Z",
    }]);
  });
});

describe("GET /api/shows/{direction}", () => {
  it("lists only aired episodes, newest first, with their tracklists and no staff field", async () => {
    const t = await accepted("Публичный - Трек.mp3");
    const aired = await episode("radio_k_profit", f.as.admin);
    const unaired = await episode("radio_k_profit", f.as.admin);
    const tPut = await f.call("PUT", `/api/admin/episodes/${aired.id}/tracks`, {
      json: { items: [{ track_id: t.id, note: "секретная заметка" }] },
    });
    expect(tPut.status).toBe(409); // accepted for podcast_koster, not this show
    const r2 = await accepted("Радио - Трек.mp3", { direction: "radio_k_profit" });
    await f.call("PUT", `/api/admin/episodes/${aired.id}/tracks`, {
      json: { items: [{ track_id: r2.id, note: "секретная заметка" }] },
    });
    const before = await f.call("GET", "/api/shows/radio_k_profit", { headers: {} });
    expect(before.body.episodes).toEqual([]);
    await f.call("POST", `/api/admin/episodes/${aired.id}/aired`, {
      json: { aired_at: "2027-04-01T10:00:00Z", url: "https://radio.example/1", cues: [{ track_id: r2.id, at_s: 61 }] },
    });
    const r = await f.call("GET", "/api/shows/radio_k_profit", { headers: {} });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("etag")).toBeTruthy();
    expect(r.body).toEqual({
      success: true,
      show: { direction: "radio_k_profit", name: "Радио Профита" },
      episodes: [{
        number: aired.number,
        title: "Ночной выпуск",
        name: `Радио Профита #${aired.number}`,
        air_date: expect.any(String),
        aired_at: "2027-04-01T10:00:00.000Z",
        url: "https://radio.example/1",
        tracklist: [{ position: 1, artist: "Радио", title: "Трек", version: null, label: "Self-Released", at_s: 61 }],
      }],
    });
    const text = JSON.stringify(r.body);
    for (const secret of ["секретная", "filename", "track_id", "revision", String(unaired.number + 1000)]) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.stringify(r.body)).not.toContain(`#${unaired.number}"`);
    expect((await f.call("GET", "/api/shows/label_koster", { headers: {} })).status).toBe(404);
  });
});

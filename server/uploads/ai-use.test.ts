/**
 * The AI question (issue 25, decisions 0245 and 0246): the upload's `ai_use` field is kept on every
 * track of the batch, anything but `no` `partly` `yes` is a Russian 400 with nothing kept, a request
 * without it still works (null); staff track objects carry `ai_use` and the staff lists filter by it
 * within the caller's sight, while the artist's own objects do not carry it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gte } from "drizzle-orm";
import { tracks } from "../../db/schema.ts";
import { AI_USE_ERRORS, parseAiUse } from "../../domain/ai-use-desk.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import type { Part } from "../testing/multipart-body.ts";
import { allTracks, dirPart, filePart, postUpload, storedFiles } from "../testing/upload-helpers.ts";
import { aiUseInput } from "../tracks/schemas.ts";

let f: StaffFixture;
let artist: Record<string, string>;
let artistId: number;

beforeAll(async () => {
  f = await staffFixture({ moderatorCategories: "label_koster" });
});
afterAll(() => f.close());

beforeEach(async () => {
  await f.t.ctx.queue.idle();
  await f.t.ctx.db.delete(tracks).where(gte(tracks.id, 0));
  await Deno.remove(`${f.t.dir}/tracks`, { recursive: true }).catch(() => {});
  const user = await createUser(f.t.ctx.db);
  artistId = user.id;
  artist = (await signIn(f.t.ctx, user)).headers;
});

const aiPart = (value: string): Part => ({ name: "ai_use", value });
const two = () => [filePart("Один - Первый.mp3"), filePart("Два - Второй.mp3")];

describe("POST /api/upload: the field ai_use", () => {
  it.each(["no", "partly", "yes"] as const)("keeps %s on every track of the batch", async (answer) => {
    const { res, body } = await postUpload(f.t, artist, [aiPart(answer), ...two(), dirPart("label_koster")]);
    expect(res.status, JSON.stringify(body)).toBe(200);
    const rows = await allTracks(f.t);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.user_id, r.ai_use])).toEqual([[artistId, answer], [artistId, answer]]);
  });

  it("takes the field after the files too, and from staff (who upload without the hourly limit)", async () => {
    const { res } = await postUpload(f.t, f.as.admin, [...two(), dirPart("label_koster"), aiPart("partly")]);
    expect(res.status).toBe(200);
    expect((await allTracks(f.t)).map((r) => r.ai_use)).toEqual(["partly", "partly"]);
  });

  it("keeps null when the field is left out, so older scripts keep working", async () => {
    const { res } = await postUpload(f.t, artist, [...two(), dirPart("label_koster")]);
    expect(res.status).toBe(200);
    expect((await allTracks(f.t)).map((r) => r.ai_use)).toEqual([null, null]);
  });

  it.each([
    ["empty", ""],
    ["No", "No"],
    ["maybe", "maybe"],
    ["a space before yes", " yes"],
    ["да", "да"],
    ["partly,yes", "partly,yes"],
    ["5000 characters", "x".repeat(5000)],
  ])(
    "refuses %s with a Russian 400 and keeps nothing",
    async (_label, value) => {
      const { res, body } = await postUpload(f.t, artist, [...two(), aiPart(value), dirPart("label_koster")]);
      expect(res.status).toBe(400);
      expect(body).toEqual({ success: false, error: AI_USE_ERRORS.invalid });
      await f.t.ctx.queue.idle();
      expect(await allTracks(f.t)).toEqual([]);
      expect((await storedFiles(f.t)).length).toBe(0);
    },
  );

  it("refuses two different answers in one request; the same answer twice is one answer", async () => {
    const bad = await postUpload(f.t, artist, [aiPart("no"), ...two(), aiPart("yes"), dirPart("label_koster")]);
    expect(bad.res.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: AI_USE_ERRORS.conflicting });
    expect(await allTracks(f.t)).toEqual([]);
    const ok = await postUpload(f.t, artist, [aiPart("yes"), ...two(), aiPart("yes"), dirPart("label_koster")]);
    expect(ok.res.status).toBe(200);
    expect((await allTracks(f.t)).map((r) => r.ai_use)).toEqual(["yes", "yes"]);
  });

  it("is not in the artist's own track objects", async () => {
    await postUpload(f.t, artist, [aiPart("yes"), ...two(), dirPart("label_koster")]);
    await f.t.ctx.queue.idle();
    const own = await f.call("GET", "/api/tracks", { headers: artist });
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain("ai_use");
  });
});

describe("the exported reading (for the resumable start of issue 26)", () => {
  it("reads the JSON field as the multipart one", () => {
    expect(parseAiUse(undefined)).toEqual({ ok: true, value: null });
    expect(parseAiUse("partly")).toEqual({ ok: true, value: "partly" });
    expect(parseAiUse(1)).toEqual({ ok: false, error: AI_USE_ERRORS.invalid });
    expect(aiUseInput.parse(null)).toBeNull();
    expect(aiUseInput.parse("yes")).toBe("yes");
    expect(aiUseInput.safeParse("YES").error?.issues[0].message).toBe(AI_USE_ERRORS.invalid);
  });
});

describe("staff track objects and the ai_use filter", () => {
  async function seed() {
    const db = f.t.ctx.db;
    const mk = (n: string, directions: string, ai_use: "no" | "partly" | "yes" | null) =>
      createTrack(db, { filename: `ИИфильтр ${n} - Трек.mp3`, directions, ai_use });
    return {
      no: await mk("нет", "label_koster", "no"),
      partly: await mk("частично", "label_koster", "partly"),
      yes: await mk("да", "label_koster", "yes"),
      none: await mk("без ответа", "label_koster", null),
      elsewhere: await mk("чужой", "show_neurogon", "partly"),
    };
  }
  const ids = async (path: string, headers: Record<string, string>) => {
    const r = await f.call("GET", path, { headers });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.tracks as Array<{ id: number }>).map((t) => t.id).sort((a, b) => a - b);
  };

  it("carries ai_use in the lists and the details of both panels", async () => {
    const s = await seed();
    const list = await f.call("GET", "/api/admin/tracks", { headers: f.as.admin });
    const byId = new Map((list.body.tracks as Array<{ id: number; ai_use: unknown }>).map((t) => [t.id, t.ai_use]));
    expect(byId.get(s.partly.id)).toBe("partly");
    expect(byId.get(s.none.id)).toBeNull();
    const one = await f.call("GET", `/api/admin/tracks/${s.yes.id}`, { headers: f.as.admin });
    expect((one.body.track as { ai_use: unknown }).ai_use).toBe("yes");
    const mod = await f.call("GET", `/api/moderator/tracks/${s.partly.id}`, { headers: f.as.moderator });
    expect(mod.status).toBe(200);
    expect((mod.body.track as { ai_use: unknown }).ai_use).toBe("partly");
    const modList = await f.call("GET", "/api/moderator/tracks", { headers: f.as.moderator });
    expect((modList.body.tracks as Array<{ id: number; ai_use: unknown }>).find((t) => t.id === s.no.id)?.ai_use)
      .toBe("no");
  });

  it("filters by each answer and by none, within the caller's sight", async () => {
    const s = await seed();
    const sorted = (...list: number[]) => list.sort((a, b) => a - b);
    expect(await ids("/api/admin/tracks?ai_use=partly", f.as.admin)).toEqual(sorted(s.partly.id, s.elsewhere.id));
    expect(await ids("/api/admin/tracks?ai_use=yes", f.as.admin)).toEqual([s.yes.id]);
    expect(await ids("/api/admin/tracks?ai_use=no", f.as.admin)).toEqual([s.no.id]);
    expect(await ids("/api/admin/tracks?ai_use=none", f.as.admin)).toEqual([s.none.id]);
    expect(await ids("/api/admin/tracks?ai_use=all", f.as.admin)).toHaveLength(5);
    // With another filter: both apply.
    expect(await ids("/api/admin/tracks?ai_use=partly&direction=show_neurogon", f.as.admin)).toEqual([
      s.elsewhere.id,
    ]);
    // The moderator (label_koster) never gets the show_neurogon track, filter or not.
    expect(await ids("/api/moderator/tracks?ai_use=partly", f.as.moderator)).toEqual([s.partly.id]);
    const counted = await f.call("GET", "/api/moderator/tracks?ai_use=partly", { headers: f.as.moderator });
    expect(counted.body).toMatchObject({ total: 4, filtered: 1 });
  });

  it.each(["maybe", "NONE", "null"])("answers 400 in Russian to ai_use=%s", async (value) => {
    for (
      const [path, headers] of [["/api/admin/tracks", f.as.admin], ["/api/moderator/tracks", f.as.moderator]] as const
    ) {
      const r = await f.call("GET", `${path}?ai_use=${value}`, { headers });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: AI_USE_ERRORS.badFilter });
    }
  });
});

/**
 * Issue 37, a new version: `version_of` on both upload paths (own track only, 400 otherwise), the
 * directions still open inherited (the artist may drop some, not add), the cooldown passed once per
 * original while the 30-day cap still counts, the assignee carried over from the last decider, and
 * `versions` on the staff and the artist track objects.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DIRECTIONS } from "../../domain/directions.ts";
import { INTAKE_DEFAULTS } from "../../domain/intake-rules.ts";
import { trackAssignments, trackVersions, users } from "../../db/schema.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { dirPart, filePart } from "../testing/upload-helpers.ts";
import { multipartBody, type Part } from "../testing/multipart-body.ts";
import { VERSION_TEXTS } from "./versions.ts";

const HOUR = 3_600_000;
let now = Date.UTC(2026, 5, 1, 9, 0, 0);
let f: StaffFixture;

beforeAll(async () => {
  f = await staffFixture({
    moderatorCategories: "label_koster,podcast_koster",
    clock: { now: () => new Date(now) },
    env: { DECISION_NOTIFY_HOLD_S: "0", ACCESS_TOKEN_TTL_S: "31536000", REFRESH_TOKEN_TTL_S: "31536000" },
  });
});
afterAll(() => f.close());
beforeEach(async () => {
  now += 100 * HOUR;
  for (const d of DIRECTIONS) {
    const r = await f.call("PUT", `/api/admin/intake/${d}`, { json: { ...INTAKE_DEFAULTS } });
    expect(r.status).toBe(200);
  }
});

async function artist() {
  const user = await createUser(f.t.ctx.db);
  return { user, headers: (await signIn(f.t.ctx, user)).headers };
}

async function upload(headers: Record<string, string>, parts: Part[], versionOf?: number | string) {
  const mp = multipartBody(parts);
  const res = await f.t.app.request(`/api/upload${versionOf === undefined ? "" : `?version_of=${versionOf}`}`, {
    method: "POST",
    headers: { ...headers, "content-type": mp.contentType },
    body: mp.body,
    duplex: "half",
  } as RequestInit);
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

const original = (userId: number, directions = "label_koster,podcast_koster", ago = 2 * HOUR) =>
  createTrack(f.t.ctx.db, {
    user_id: userId,
    directions,
    status: "completed",
    upload_date: new Date(now - ago),
    filename: "Арт - Оригинал.mp3",
  });

const directionsOf = async (id: number) =>
  (await f.call("GET", `/api/admin/tracks/${id}`)).body.track as { directions: string; versions: unknown[] };

describe("version_of on POST /api/upload", () => {
  it("refuses another's track, a track that does not exist and a bad id with 400, storing nothing", async () => {
    const a = await artist();
    const b = await artist();
    const theirs = await original(b.user.id);
    for (const id of [theirs.id, 999_999, "abc", 0]) {
      const r = await upload(a.headers, [filePart("Арт - Новая.mp3")], id);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await upload(a.headers, [filePart("Арт - Новая.mp3")], theirs.id)).body.error).toBe(VERSION_TEXTS.notOwn);
  });

  it("inherits the directions still open; the artist may drop some, not add", async () => {
    const a = await artist();
    const o = await original(a.user.id, "label_koster,podcast_koster,show_neurogon");
    expect((await f.call("PUT", "/api/admin/intake/show_neurogon", { json: { open: false } })).status).toBe(200);
    const all = await upload(a.headers, [filePart("Арт - Версия 2.mp3")], o.id);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const [v2] = all.body.track_ids as number[];
    expect((await directionsOf(v2)).directions).toBe("label_koster,podcast_koster");
    const dropped = await upload(a.headers, [dirPart("podcast_koster"), filePart("Арт - Версия 3.mp3")], o.id);
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    expect((await directionsOf((dropped.body.track_ids as number[])[0])).directions).toBe("podcast_koster");
    const added = await upload(a.headers, [dirPart("label_neuropunk"), filePart("Арт - Версия 4.mp3")], o.id);
    expect(added.status).toBe(400);
    expect(added.body.error).toContain("Нейропанк");
    const paused = await upload(a.headers, [dirPart("show_neurogon"), filePart("Арт - Версия 5.mp3")], o.id);
    expect(paused.status).toBe(400);
    // One file is one version.
    const two = await upload(a.headers, [filePart("Арт - Раз.mp3"), filePart("Арт - Два.mp3")], o.id);
    expect(two.status).toBe(400);
    expect(two.body.error).toBe(VERSION_TEXTS.oneFile);
  });

  it("passes the cooldown once per original; the 30-day cap still counts", async () => {
    const a = await artist();
    expect((await f.call("PUT", "/api/admin/intake/label_koster", { json: { cooldown_hours: 48 } })).status)
      .toBe(200);
    const o = await original(a.user.id, "label_koster");
    // A new track is held by the cooldown…
    const stranger = await upload(a.headers, [dirPart("label_koster"), filePart("Арт - Другой.mp3")]);
    expect(stranger.status).toBe(429);
    expect(stranger.body.reason).toBe("cooldown");
    // …a version passes it once…
    const v2 = await upload(a.headers, [filePart("Арт - Оригинал v2.mp3")], o.id);
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    const [link] = await f.t.ctx.db.select().from(trackVersions)
      .where(eq(trackVersions.track_id, (v2.body.track_ids as number[])[0]));
    expect(link).toMatchObject({ version_of: o.id, original_id: o.id, number: 2, cooldown_passed: true });
    // …and the next version of the same original waits like any track.
    const v3 = await upload(a.headers, [filePart("Арт - Оригинал v3.mp3")], (v2.body.track_ids as number[])[0]);
    expect(v3.status).toBe(429);
    expect(v3.body.reason).toBe("cooldown");
    expect(v3.retryAfter).not.toBeNull();

    const b = await artist();
    expect(
      (await f.call("PUT", "/api/admin/intake/label_koster", { json: { cooldown_hours: null, cap_per_30_days: 1 } }))
        .status,
    ).toBe(200);
    const ob = await original(b.user.id, "label_koster");
    const capped = await upload(b.headers, [filePart("Арт - Оригинал v2.mp3")], ob.id);
    expect(capped.status).toBe(429);
    expect(capped.body.reason).toBe("cap");
  });

  it("goes to whoever decided the last version while they cover the direction; `versions` on both sides", async () => {
    const a = await artist();
    const o = await original(a.user.id, "label_koster,show_neurogon");
    const decide = (direction: string, headers = f.as.moderator) =>
      f.call("PUT", `/api/${headers === f.as.admin ? "admin" : "moderator"}/tracks/${o.id}/decisions/${direction}`, {
        headers,
        json: { revision: 0, status: "declined", reasons: ["mixdown"] },
      });
    expect((await decide("label_koster")).status).toBe(200);
    expect((await decide("show_neurogon", f.as.admin)).status).toBe(200);
    // The admin who decided show_neurogon is demoted meanwhile: that pair is left unassigned.
    await f.t.ctx.db.update(users).set({ is_admin: false })
      .where(eq(users.id, f.admin.id));
    const r = await upload(a.headers, [filePart("Арт - Оригинал v2.mp3")], o.id);
    await f.t.ctx.db.update(users).set({ is_admin: true })
      .where(eq(users.id, f.admin.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const v2 = (r.body.track_ids as number[])[0];
    const assigned = await f.t.ctx.db.select().from(trackAssignments).where(eq(trackAssignments.track_id, v2));
    expect(assigned.map((x) => [x.direction, x.user_id])).toEqual([["label_koster", f.moderator.id]]);

    const staff = (await f.call("GET", `/api/admin/tracks/${v2}`)).body.track as {
      version_of: number;
      version_number: number;
      versions: Array<{ id: number; number: number; upload_date: string; outcomes: unknown[] }>;
    };
    expect(staff.version_of).toBe(o.id);
    expect(staff.version_number).toBe(2);
    expect(staff.versions.map((v) => [v.id, v.number])).toEqual([[o.id, 1], [v2, 2]]);
    expect(staff.versions[0].outcomes).toEqual([
      { direction: "label_koster", status: "declined" },
      { direction: "show_neurogon", status: "declined" },
    ]);
    const history = await f.call("GET", "/api/tracks/history?page=1&page_size=50", { headers: a.headers });
    const items = history.body.tracks as Array<{ id: number; version_of: number | null; versions: unknown[] }>;
    expect(items.find((t) => t.id === v2)).toMatchObject({ version_of: o.id, versions: [{ id: o.id }, { id: v2 }] });
    expect(items.find((t) => t.id === o.id)).toMatchObject({ version_of: null, versions: [{ id: o.id }, { id: v2 }] });
  });
});

describe("version_of on the resumable start", () => {
  it("400 for another's track; a started version is linked when it completes", async () => {
    const a = await artist();
    const b = await artist();
    const theirs = await original(b.user.id);
    const start = (json: Record<string, unknown>) =>
      f.call("POST", "/api/upload/resumable", { headers: a.headers, json });
    const refused = await start({ filename: "Арт - Новая.mp3", size: 1000, version_of: theirs.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(VERSION_TEXTS.notOwn);
    const mine = await original(a.user.id, "label_koster");
    const data = Deno.readFileSync(
      new URL("../../test/fixtures/audio/Test%20Artist%20-%20Amen%20Study.mp3", import.meta.url),
    );
    const ok = await start({ filename: "Арт - Оригинал v2.mp3", size: data.byteLength, version_of: mine.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const up = ok.body.upload as { id: string; part_count: number; part_size: number };
    for (let n = 1; n <= up.part_count; n++) {
      const part = data.slice((n - 1) * up.part_size, n * up.part_size);
      const res = await f.t.app.request(`/api/upload/resumable/${up.id}/parts/${n}`, {
        method: "PUT",
        headers: { ...a.headers, "content-length": String(part.byteLength) },
        body: part,
      });
      expect(res.status).toBe(200);
    }
    const done = await f.call("POST", `/api/upload/resumable/${up.id}/complete`, { headers: a.headers, json: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const track = await directionsOf(done.body.track_id as number);
    expect(track.directions).toBe("label_koster");
    expect(track.versions).toHaveLength(2);
  });
});

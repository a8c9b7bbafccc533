import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KV_KEYS, type StatusStore } from "../status-store/kv.ts";
import { PROCESSING_ERRORS } from "../processing/analyse-track.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";
import { NO_QUEUE } from "./queue-position.ts";

/** An undecided pair's queue figures (issue 36): their values are checked in queue-position.test.ts. */
const IN_QUEUE = {
  queue_position: expect.any(Number),
  queue_length: expect.any(Number),
  expected_by: null,
  heard_by: 0,
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function person(values: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.ctx.db, values);
  return { user, headers: (await signIn(t.ctx, user)).headers };
}

const get = async (app: TestApp, path: string, headers: Record<string, string> = {}) => {
  const res = await app.app.request(path, { headers });
  return { status: res.status, body: await res.json() };
};

describe("GET /api/status/{id}", () => {
  let owner: Awaited<ReturnType<typeof person>>;
  let trackId: number;
  beforeAll(async () => {
    owner = await person();
    const { body } = await postUpload(t, owner.headers, [
      filePart("Status - Owner.mp3", fixture(FIXTURES.mono)),
      dirPart("label_koster"),
    ]);
    trackId = body.track_ids[0];
    await t.ctx.queue.idle();
  });

  it("answers the owner with status, error and track data", async () => {
    const { status, body } = await get(t, `/api/status/${trackId}`, owner.headers);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "completed",
      error: null,
      track_data: {
        id: trackId,
        filename: "Status - Owner.mp3",
        directions: "label_koster",
        sample_rate: 48000,
        channels: 1,
      },
    });
  });

  it("answers another user with 404, like a track that does not exist", async () => {
    const other = await person();
    const r = await get(t, `/api/status/${trackId}`, other.headers);
    expect(r.status).toBe(404);
    expect(r.body.success).toBe(false);
    expect((await get(t, "/api/status/999999", other.headers)).status).toBe(404);
    expect((await get(t, "/api/status/abc", other.headers)).status).toBe(404);
  });

  it("answers admins and moderators whose categories cover one of the track's directions", async () => {
    const staff = [
      await person({ is_admin: true }),
      await person({ is_moderator: true, moderator_categories: "label_koster" }),
      await person({ is_moderator: true, moderator_categories: "podcast_koster,label_koster" }),
      await person({ is_moderator: true, moderator_categories: "*" }),
    ];
    for (const s of staff) {
      const r = await get(t, `/api/status/${trackId}`, s.headers);
      expect(r.status).toBe(200);
      expect(r.body.track_data.filename).toBe("Status - Owner.mp3");
    }
  });

  it("answers a moderator of other categories with 404, telling nothing about the track", async () => {
    const outside = [
      await person({ is_moderator: true, moderator_categories: "label_neuropunk" }),
      await person({ is_moderator: true, moderator_categories: "podcast_koster,show_neurogon,radio_k_profit" }),
      await person({ is_moderator: true, moderator_categories: "" }),
      // Categories without the moderator flag give no sight.
      await person({ is_moderator: false, moderator_categories: "label_koster" }),
    ];
    for (const s of outside) {
      const r = await get(t, `/api/status/${trackId}`, s.headers);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: "Трек не найден" });
    }
  });

  it("keeps every track of a direction out of a moderator's sight, whatever its status", async () => {
    const artist = await createUser(t.ctx.db);
    const koster = await person({ is_moderator: true, moderator_categories: "label_koster" });
    const out = [];
    for (const directions of ["label_neuropunk", "podcast_koster", "show_neurogon,radio_k_profit"]) {
      for (const status of ["processing", "completed", "failed"] as const) {
        out.push(
          await createTrack(t.ctx.db, {
            user_id: artist.id,
            directions,
            status,
            error: status === "failed" ? "Битый файл" : null,
          }),
        );
      }
    }
    const inside = await createTrack(t.ctx.db, { user_id: artist.id, directions: "label_koster,podcast_koster" });
    for (const track of out) expect((await get(t, `/api/status/${track.id}`, koster.headers)).status).toBe(404);
    expect((await get(t, `/api/status/${inside.id}`, koster.headers)).status).toBe(200);
  });

  it("follows the current directions and owner, not the ones in the status key", async () => {
    const artist = await person();
    const { body } = await postUpload(t, artist.headers, [
      filePart("Status - Moved.mp3", fixture(FIXTURES.mono)),
      dirPart("label_koster"),
    ]);
    const id = body.track_ids[0];
    await t.ctx.queue.idle();
    const koster = await person({ is_moderator: true, moderator_categories: "label_koster" });
    const admin = await person({ is_admin: true });
    expect((await get(t, `/api/status/${id}`, koster.headers)).status).toBe(200);

    // The admin moves the track to another direction and hands it to another artist.
    const heir = await person();
    const res = await t.app.request(`/api/admin/tracks/${id}`, {
      method: "PUT",
      headers: { ...admin.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ directions: "label_neuropunk", user_id: heir.user.id }),
    });
    expect(res.status).toBe(200);
    expect((await get(t, `/api/status/${id}`, koster.headers)).status).toBe(404);
    expect((await get(t, `/api/status/${id}`, artist.headers)).status).toBe(404);
    expect((await get(t, `/api/status/${id}`, heir.headers)).body.track_data).toMatchObject({
      directions: "label_neuropunk",
    });
  });

  it("asks for sign-in from an anonymous caller", async () => {
    expect((await get(t, `/api/status/${trackId}`)).status).toBe(401);
  });

  it("answers the same from the database when the key is gone", async () => {
    const fromStore = await get(t, `/api/status/${trackId}`, owner.headers);
    await t.ctx.kv.del([KV_KEYS.trackStatus(trackId)]);
    const fromDb = await get(t, `/api/status/${trackId}`, owner.headers);
    expect(fromDb).toEqual(fromStore);
    expect((await get(t, `/api/status/${trackId}`, (await person()).headers)).status).toBe(404);
  });

  it("reuses the lane's kept answer only while the key is unchanged: every change shows on the very next poll", async () => {
    const artist = await person();
    const other = await person();
    const admin = await person({ is_admin: true });
    const track = await createTrack(t.ctx.db, {
      user_id: artist.user.id,
      directions: "label_koster",
      status: "processing",
    });
    await t.ctx.processing.status.startBatch(artist.user.id, [track]);
    const statusFor = vi.spyOn(t.ctx.artist, "statusFor");
    // The lane's answer, checked byte for byte against the routes' (a query keeps a request out of the lane).
    const poll = async (who: { headers: Record<string, string> }) => {
      const calls = statusFor.mock.calls.length;
      const lane = await t.app.request(`/api/status/${track.id}`, { headers: who.headers });
      const viaLane = statusFor.mock.calls.length === calls;
      const text = await lane.text();
      const routes = await t.app.request(`/api/status/${track.id}?via=routes`, { headers: who.headers });
      expect(text).toBe(await routes.text());
      expect(lane.status).toBe(routes.status);
      return { status: lane.status, body: JSON.parse(text), viaLane };
    };
    try {
      const first = await poll(artist);
      expect(first).toMatchObject({ status: 200, viaLane: true, body: { status: "processing", error: null } });
      expect(await poll(artist)).toEqual(first);
      // Someone else never gets the kept answer.
      expect(await poll(other)).toMatchObject({ status: 404, viaLane: false });

      // Processing completes, then (a reprocess) fails: each seen on the next poll, from the lane.
      await t.ctx.processing.status.trackFinished({ ...track, status: "completed" });
      expect(await poll(artist)).toMatchObject({
        status: 200,
        viaLane: true,
        body: { status: "completed", error: null },
      });
      await t.ctx.processing.status.trackFinished({ ...track, status: "failed", error: "Битый файл" });
      expect(await poll(artist)).toMatchObject({
        status: 200,
        viaLane: true,
        body: { status: "failed", error: "Битый файл" },
      });

      // A staff edit drops the key: the routes answer from the database, and a new owner is the owner.
      const heir = await person();
      const res = await t.app.request(`/api/admin/tracks/${track.id}`, {
        method: "PUT",
        headers: { ...admin.headers, "Content-Type": "application/json" },
        body: JSON.stringify({ user_id: heir.user.id }),
      });
      expect(res.status).toBe(200);
      expect(await poll(artist)).toMatchObject({ status: 404, viaLane: false });
      expect(await poll(heir)).toMatchObject({ status: 200, viaLane: false, body: { status: "processing" } });

      // The key written again for the heir: the lane answers them, not the former owner.
      await t.ctx.processing.status.trackFinished({ ...track, user_id: heir.user.id, status: "completed" });
      expect(await poll(heir)).toMatchObject({ status: 200, viaLane: true, body: { status: "completed" } });
      expect(await poll(artist)).toMatchObject({ status: 404, viaLane: false });

      // A delete takes the key with the track: the next poll is the routes' 404.
      const gone = await t.app.request(`/api/admin/tracks/${track.id}`, { method: "DELETE", headers: admin.headers });
      expect(gone.status).toBe(200);
      expect(await poll(heir)).toMatchObject({ status: 404, viaLane: false });

      // A banned owner is refused on the next poll, though the lane kept their answer a moment ago.
      const kept = await createTrack(t.ctx.db, {
        user_id: artist.user.id,
        directions: "label_koster",
        status: "completed",
      });
      await t.ctx.processing.status.startBatch(artist.user.id, [kept]);
      const before = await t.app.request(`/api/status/${kept.id}`, { headers: artist.headers });
      expect(before.status).toBe(200);
      await t.ctx.users.ban(artist.user.id, "спам");
      const refused = await t.app.request(`/api/status/${kept.id}`, { headers: artist.headers });
      expect(refused.status).toBe(403);
      expect((await refused.json()).banned).toBe(true);
    } finally {
      statusFor.mockRestore();
    }
  });

  it("does not trust a foreign key without an owner: the database decides", async () => {
    const intruder = await person();
    await t.ctx.kv.set(KV_KEYS.trackStatus(trackId), { status: "completed", filename: "x" });
    expect((await get(t, `/api/status/${trackId}`, intruder.headers)).status).toBe(404);
    expect((await get(t, `/api/status/${trackId}`, owner.headers)).body.track_data.filename).toBe("Status - Owner.mp3");
  });
});

describe("batch calls", () => {
  it("answers empty values before any upload", async () => {
    const { headers } = await person();
    expect((await get(t, "/api/track_ids", headers)).body).toEqual({ track_ids: [] });
    expect((await get(t, "/api/errors", headers)).body).toEqual({ errors: [] });
    expect((await get(t, "/api/success", headers)).body).toEqual({ success: "" });
    expect((await get(t, "/api/tracks", headers)).body).toEqual({ success: true, tracks: [] });
  });

  it("follow the latest batch: ids, error lines, success text", async () => {
    const { headers } = await person();
    const first = await postUpload(t, headers, [
      filePart(FIXTURES.text, fixture(FIXTURES.text)),
      filePart("Batch - Good.mp3", fixture(FIXTURES.cut)),
      dirPart("label_koster"),
    ]);
    await t.ctx.queue.idle();
    expect((await get(t, "/api/track_ids", headers)).body).toEqual({ track_ids: first.body.track_ids });
    expect((await get(t, "/api/errors", headers)).body).toEqual({
      errors: [`${FIXTURES.text}: ${PROCESSING_ERRORS.notMp3}`],
    });
    expect((await get(t, "/api/success", headers)).body).toEqual({
      success: "Успешно загружено и проверено треков: 1 из 2.",
    });

    // A new batch replaces the old one's ids and texts.
    const second = await postUpload(t, headers, [
      filePart("Batch - Next One.mp3", fixture(FIXTURES.vbr)),
      filePart("Batch - Next Two.mp3", fixture(FIXTURES.low)),
      dirPart("label_koster"),
    ]);
    expect((await get(t, "/api/track_ids", headers)).body).toEqual({ track_ids: second.body.track_ids });
    expect((await get(t, "/api/errors", headers)).body).toEqual({ errors: [] });
    expect((await get(t, "/api/success", headers)).body).toEqual({ success: "" });
    await t.ctx.queue.idle();
    expect((await get(t, "/api/success", headers)).body).toEqual({
      success: "Все треки успешно загружены и прошли проверку (2).",
    });

    // The keys can be cleaned by staff: the database answers the same.
    const before = [
      await get(t, "/api/track_ids", headers),
      await get(t, "/api/errors", headers),
      await get(t, "/api/success", headers),
    ];
    await t.ctx.kv.del(await t.ctx.kv.keys("*"));
    expect([
      await get(t, "/api/track_ids", headers),
      await get(t, "/api/errors", headers),
      await get(t, "/api/success", headers),
    ]).toEqual(before);
  });
});

describe("GET /api/tracks", () => {
  it("carries each direction's review state and the staff's message, never the note", async () => {
    const { trackDecisions } = await import("../../db/schema.ts");
    const { user, headers } = await person();
    const track = await createTrack(t.ctx.db, { user_id: user.id, directions: "label_neuropunk,podcast_neuropunk" });
    await t.ctx.db.insert(trackDecisions).values([
      {
        track_id: track.id,
        direction: "label_neuropunk",
        status: "declined",
        message: 'Сведение "глухое"',
        note: "staff only",
      },
    ]);
    const { body } = await get(t, "/api/tracks", headers);
    expect(body.tracks).toHaveLength(1);
    expect(body.tracks[0].decisions).toEqual([
      {
        direction: "label_neuropunk",
        status: "declined",
        message: 'Сведение "глухое"',
        respond_by: null,
        automatic: false,
        ...NO_QUEUE,
        reasons: [],
      },
      // «ответ до»: the upload plus the direction's promise (issue 25).
      {
        direction: "podcast_neuropunk",
        status: "in_review",
        message: null,
        respond_by: new Date(track.upload_date.getTime() + 14 * 86_400_000).toISOString(),
        automatic: false,
        ...IN_QUEUE,
        reasons: [],
      },
    ]);
    expect(JSON.stringify(body)).not.toContain("staff only");
  });

  it("lists the current user's tracks, newest first, without failed uploads", async () => {
    const { user, headers } = await person();
    const other = await createUser(t.ctx.db);
    const old = await createTrack(t.ctx.db, {
      user_id: user.id,
      upload_date: new Date("2025-01-01T10:00:00Z"),
      downloaded: true,
    });
    const mid = await createTrack(t.ctx.db, {
      user_id: user.id,
      upload_date: new Date("2025-02-01T10:00:00Z"),
      status: "processing",
    });
    await createTrack(t.ctx.db, {
      user_id: user.id,
      upload_date: new Date("2025-03-01T10:00:00Z"),
      status: "failed",
      error: "x",
    });
    await createTrack(t.ctx.db, { user_id: other.id, upload_date: new Date("2025-04-01T10:00:00Z") });
    const { status, body } = await get(t, "/api/tracks", headers);
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      tracks: [
        // Not analysed (no file here): the report the artist sees is null (issue 12). Not reviewed
        // yet: each direction is in review (issue 13).
        {
          id: mid.id,
          filename: mid.filename,
          upload_date: "2025-02-01T10:00:00.000Z",
          downloaded: false,
          analysis: null,
          decisions: [{
            direction: "label_neuropunk",
            status: "in_review",
            message: null,
            respond_by: "2025-02-15T10:00:00.000Z",
            automatic: false,
            ...IN_QUEUE,
            reasons: [],
          }],
        },
        {
          id: old.id,
          filename: old.filename,
          upload_date: "2025-01-01T10:00:00.000Z",
          downloaded: true,
          analysis: null,
          decisions: [{
            direction: "label_neuropunk",
            status: "in_review",
            message: null,
            respond_by: "2025-01-15T10:00:00.000Z",
            automatic: false,
            ...IN_QUEUE,
            reasons: [],
          }],
        },
      ],
    });
  });

  it("asks for sign-in", async () => {
    for (const path of ["/api/tracks", "/api/track_ids", "/api/errors", "/api/success"]) {
      expect((await get(t, path)).status).toBe(401);
    }
  });
});

describe("when the status store is down", () => {
  it("uploads, processes and answers every call from the database, and logs it", async () => {
    const down = (): Promise<never> => Promise.reject(new Error("ECONNREFUSED status store"));
    const kv: StatusStore = {
      kind: "upstash",
      get: down,
      mget: down,
      set: down,
      take: down,
      del: down,
      incr: down,
      keys: down,
      ttl: down,
      ping: () => Promise.resolve(false),
    };
    const app = await createTestApp({ kv });
    try {
      const warn = vi.spyOn(app.ctx.logger, "warn");
      const user = await createUser(app.ctx.db);
      const { headers } = await signIn(app.ctx, user);
      const { res, body } = await postUpload(app, headers, [
        filePart(FIXTURES.amen, fixture(FIXTURES.amen)),
        filePart(FIXTURES.wave, fixture(FIXTURES.wave)),
        dirPart("label_neuropunk"),
      ]);
      expect(res.status).toBe(200);
      await app.ctx.queue.idle();

      const [ok, bad] = body.track_ids;
      expect((await get(app, `/api/status/${ok}`, headers)).body).toMatchObject({
        status: "completed",
        error: null,
        track_data: { filename: FIXTURES.amen, bitrate: 320000 },
      });
      expect((await get(app, `/api/status/${bad}`, headers)).body.status).toBe("failed");
      expect((await get(app, "/api/track_ids", headers)).body).toEqual({ track_ids: body.track_ids });
      expect((await get(app, "/api/errors", headers)).body.errors).toHaveLength(1);
      expect((await get(app, "/api/success", headers)).body).toEqual({
        success: "Успешно загружено и проверено треков: 1 из 2.",
      });
      expect((await get(app, "/api/tracks", headers)).body.tracks).toHaveLength(1);
      expect(warn).toHaveBeenCalledWith("status store unavailable, using the database", expect.anything());
    } finally {
      await app.close();
    }
  });
});

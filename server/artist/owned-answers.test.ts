import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gunzipSync } from "node:zlib";
import { SHARED_ANSWER_TTL_MS } from "../http/public-answer.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { analysisReport, createTrack, createUser, signIn } from "../testing/factories.ts";
import { openInstance } from "../testing/second-instance.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload } from "../testing/upload-helpers.ts";
import { ownedAnswers } from "./owned-answers.ts";
import { NO_QUEUE } from "./queue-position.ts";
import { decisionInputSchema, trackDecisionInputSchema } from "../../domain/review.ts";
import { trackInputSchema, trackUpdateSchema } from "../tracks/service.ts";
import { trackAnalysis, type User } from "../../db/schema.ts";
import { eq } from "drizzle-orm";

/**
 * GET /api/tracks is kept ready per artist (decision 0185): every write that changes what the list
 * shows must be seen by the very next request on this instance, and by another instance over the
 * same database once its copy is older than SHARED_ANSWER_TTL_MS.
 */

let time = Date.parse("2026-11-20T12:00:00Z");
const clock = { now: () => new Date(time) };
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
});
afterAll(() => t.close());

async function artist() {
  const user = await createUser(t.ctx.db);
  return { user, headers: (await signIn(t.ctx, user)).headers };
}

type Listed = {
  id: number;
  filename: string;
  downloaded: boolean;
  analysis: unknown;
  decisions: { direction: string; status: string; message: string | null }[];
};

async function list(
  headers: Record<string, string>,
  app: { request: TestApp["app"]["request"] } = t.app,
): Promise<Listed[]> {
  const res = await app.request("/api/tracks", { headers });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.success).toBe(true);
  return body.tracks;
}

const call = (method: string, path: string, json?: unknown) =>
  t.app.request(path, {
    method,
    headers: { ...admin, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

describe("GET /api/tracks kept ready", () => {
  it("answers as the list does, no-store, with an ETag that a matching If-None-Match turns into 304", async () => {
    const a = await artist();
    for (let i = 0; i < 30; i++) {
      await createTrack(t.ctx.db, {
        user_id: a.user.id,
        filename: `Ready Artist - Track ${i}.mp3`,
        upload_date: new Date(time - i * 60_000),
      });
    }
    const expected = JSON.parse(JSON.stringify({ success: true, tracks: await t.ctx.artist.ownedBy(a.user.id) }));
    const plain = await t.app.request("/api/tracks", { headers: a.headers });
    expect(await plain.json()).toEqual(expected);
    expect(plain.headers.get("cache-control")).toBe("no-store");
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = plain.headers.get("etag");
    expect(etag).toMatch(/^W\/"/);

    const zipped = await t.app.request("/api/tracks", { headers: { ...a.headers, "accept-encoding": "gzip, br" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("Accept-Encoding");
    expect(JSON.parse(gunzipSync(new Uint8Array(await zipped.arrayBuffer())).toString())).toEqual(expected);

    const again = await t.app.request("/api/tracks", { headers: { ...a.headers, "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("no-store");
    expect(await again.text()).toBe("");

    // Another artist never gets this list, nor a 304 for its ETag.
    const b = await artist();
    const other = await t.app.request("/api/tracks", { headers: { ...b.headers, "if-none-match": etag! } });
    expect(other.status).toBe(200);
    expect((await other.json()).tracks).toEqual([]);
    expect((await t.app.request("/api/tracks")).status).toBe(401);
  });

  it("shows an upload at once, then its processing's end: completed with its report, failed gone", async () => {
    const a = await artist();
    expect(await list(a.headers)).toEqual([]);
    const up = await postUpload(t, a.headers, [
      filePart("Ready - Good.mp3", fixture(FIXTURES.mono)),
      filePart(FIXTURES.text, fixture(FIXTURES.text)),
      dirPart("label_koster"),
    ]);
    expect(up.res.status).toBe(200);
    const [good, bad] = up.body.track_ids as number[];
    // Kept before processing ends: both are in the list, the good one without its report yet.
    const during = await list(a.headers);
    expect(during.map((r) => r.id).sort()).toEqual([good, bad].sort());
    expect(during.find((r) => r.id === good)!.analysis).toBeNull();
    await t.ctx.queue.idle();
    const after = await list(a.headers);
    expect(after.map((r) => r.id)).toEqual([good]);
    expect(after[0].analysis).not.toBeNull();
  });

  it("drops a failed upload from the list when its processing fails, alone in its batch", async () => {
    const a = await artist();
    const up = await postUpload(t, a.headers, [
      filePart(FIXTURES.text, fixture(FIXTURES.text)),
      dirPart("label_koster"),
    ]);
    expect(up.res.status).toBe(200);
    expect((await list(a.headers)).map((r) => r.id)).toEqual(up.body.track_ids);
    await t.ctx.queue.idle();
    expect(await list(a.headers)).toEqual([]);
  });

  it("shows a staff edit, a moderator's edit, a decision, a download and an analysis on the next request", async () => {
    const a = await artist();
    const track = await createTrack(t.ctx.db, {
      user_id: a.user.id,
      filename: "Ready - Edited.mp3",
      directions: "label_neuropunk",
    });
    const first = await list(a.headers);
    expect(first[0]).toMatchObject({ id: track.id, downloaded: false, analysis: null });

    expect(
      (await call("PUT", `/api/admin/tracks/${track.id}`, { directions: "label_neuropunk,podcast_neuropunk" })).status,
    ).toBe(200);
    expect((await list(a.headers))[0].decisions.map((d) => d.direction)).toEqual([
      "label_neuropunk",
      "podcast_neuropunk",
    ]);

    const moderator = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "podcast_neuropunk" });
    const mod = (await signIn(t.ctx, moderator)).headers;
    const moderated = await t.app.request(`/api/moderator/tracks/${track.id}`, {
      method: "PUT",
      headers: { ...mod, "content-type": "application/json" },
      body: JSON.stringify({ directions: [] }),
    });
    expect(moderated.status).toBe(200);
    expect((await list(a.headers))[0].decisions.map((d) => d.direction)).toEqual(["label_neuropunk"]);

    const decided = await call("PUT", `/api/admin/tracks/${track.id}/decisions/label_neuropunk`, {
      status: "declined",
      message: "Не наш формат",
      revision: 0,
    });
    expect(decided.status).toBe(200);
    // Within the hold the artist still sees the state before (decision 0223), on the next request too.
    expect((await list(a.headers))[0].decisions).toEqual([{
      direction: "label_neuropunk",
      status: "in_review",
      message: null,
      respond_by: expect.any(String),
      automatic: false,
      // Still in the queue as the artist sees it (issue 36).
      queue_position: expect.any(Number),
      queue_length: expect.any(Number),
      expected_by: expect.any(String),
      heard_by: 0,
      reasons: [],
    }]);
    // Once it is over: the decision (the kept list is that old by then: read again).
    time += t.ctx.config.decisionNotifyHoldS * 1000;
    expect((await list(a.headers))[0].decisions).toEqual([{
      direction: "label_neuropunk",
      status: "declined",
      message: "Не наш формат",
      respond_by: null,
      automatic: false,
      ...NO_QUEUE,
      reasons: [],
    }]);

    await t.ctx.tracks.markDownloaded([track.id]);
    expect((await list(a.headers))[0].downloaded).toBe(true);

    await t.ctx.processing.analysis.save(
      track.id,
      analysisReport({ duration_s: 201, bitrate_kbps: 128, warnings: ["low_bitrate"] }),
    );
    expect((await list(a.headers))[0].analysis).toMatchObject({
      duration_s: 201,
      bitrate_kbps: 128,
      warnings: ["low_bitrate"],
    });
  });

  it("shows a track made, handed over and deleted by staff in the right lists at once", async () => {
    const a = await artist();
    const b = await artist();
    expect(await list(a.headers)).toEqual([]);
    expect(await list(b.headers)).toEqual([]);
    const made = await call("POST", "/api/admin/tracks", {
      filename: "Ready - Made.mp3",
      user_id: a.user.id,
      directions: "label_koster",
    });
    expect(made.status).toBe(201);
    const id = (await made.json()).track.id as number;
    expect((await list(a.headers)).map((r) => r.id)).toEqual([id]);

    expect((await call("PUT", `/api/admin/tracks/${id}`, { user_id: b.user.id })).status).toBe(200);
    expect(await list(a.headers)).toEqual([]);
    expect((await list(b.headers)).map((r) => r.id)).toEqual([id]);

    expect((await call("DELETE", `/api/admin/tracks/${id}`)).status).toBe(200);
    expect(await list(b.headers)).toEqual([]);
  });

  it("is seen by another instance over the same database once its copy is older than the TTL", async () => {
    const a = await artist();
    const track = await createTrack(t.ctx.db, {
      user_id: a.user.id,
      filename: "Ready - Shared.mp3",
      directions: "label_koster",
    });
    const other = await openInstance(t, { clock });
    try {
      expect((await list(a.headers, other.app))[0].downloaded).toBe(false);
      await t.ctx.tracks.markDownloaded([track.id]);
      // This instance at once; the other keeps its copy until it is older than the TTL, then reads again.
      expect((await list(a.headers))[0].downloaded).toBe(true);
      time += SHARED_ANSWER_TTL_MS + 1;
      expect((await list(a.headers, other.app))[0].downloaded).toBe(true);
      // And a write on the other instance is seen there at once, here after the TTL.
      expect((await call("PUT", `/api/admin/tracks/${track.id}`, { downloaded: false })).status).toBe(200);
      expect((await list(a.headers))[0].downloaded).toBe(false);
      time += SHARED_ANSWER_TTL_MS + 1;
      expect((await list(a.headers, other.app))[0].downloaded).toBe(false);
    } finally {
      await other.close();
    }
  });
});

/**
 * The rule in one place (kept-lists.ts `afterWrite`, decision 0210): every write of the tracks
 * service that can change what an artist's list shows drops that list once it has run. Each row
 * keeps the owner's list, then adds a track behind the service's back (a factory insert, which
 * drops nothing), then makes its write: only a dropped list shows that track on the next request.
 * A new method of the track services (`ctx.tracks`, `ctx.uploads`, `ctx.processing`, `ctx.review`,
 * `ctx.artist`) must be named below, as a write with its row or as a call that
 * leaves the artist's list as it was.
 */
describe("every write of the tracks service drops the owner's kept list", () => {
  const until = () => new Date(time + 60_000);
  const processing = (user: User) =>
    createTrack(t.ctx.db, {
      user_id: user.id,
      status: "processing",
      storage_key: `xx/${crypto.randomUUID()}`,
      directions: "label_koster",
    });
  const moderatorOf = (categories: string) =>
    createUser(t.ctx.db, { is_moderator: true, moderator_categories: categories });
  const files = () => [{ key: `xx/${crypto.randomUUID()}`, filename: "Kept - Upload.mp3", size: 10 }];
  const declined = decisionInputSchema().parse({ status: "declined", message: "Не наш формат", revision: 0 });
  const wholeDecline = trackDecisionInputSchema().parse({
    status: "declined",
    message: "Не наш формат",
    revisions: { label_koster: 0 },
  });

  /** Each write, given its owner (and a second artist for a hand-over): the artists whose lists it touches. */
  const WRITES: Record<string, (a: User, b: User) => Promise<User[]>> = {
    addUploads: async (a) => (await t.ctx.uploads.addUploads(a.id, files(), ["label_koster"]), [a]),
    addUploadsWithin: async (a) => (await t.ctx.uploads.addUploadsWithin(100, a.id, files(), ["label_koster"]), [a]),
    complete: async (a) => {
      const track = await processing(a);
      await t.ctx.processing.claim(track.id, "kept-test", until());
      expect(await t.ctx.processing.complete(track.id, { checksum: crypto.randomUUID() }, "kept-test")).toBeDefined();
      return [a];
    },
    fail: async (a) => {
      const track = await processing(a);
      await t.ctx.processing.claim(track.id, "kept-test", until());
      expect(await t.ctx.processing.fail(track.id, { error: "Не MP3", discard: false }, "kept-test")).toBeDefined();
      return [a];
    },
    "analysis.save": async (
      a,
    ) => (await t.ctx.processing.analysis.save((await createTrack(t.ctx.db, { user_id: a.id })).id, analysisReport()),
      [a]),
    "analysis.saveError": async (
      a,
    ) => (await t.ctx.processing.analysis.saveError((await createTrack(t.ctx.db, { user_id: a.id })).id, "broken"),
      [a]),
    // Issue 22's re-analysis: a new report may change the length and warnings the artist sees.
    "analysis.saveReanalysis": async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, storage_key: `xx/${crypto.randomUUID()}` });
      await t.ctx.processing.analysis.save(track.id, analysisReport());
      await t.ctx.db.update(trackAnalysis).set({ analysis_version: 1 }).where(eq(trackAnalysis.track_id, track.id));
      expect((await t.ctx.processing.analysis.claimReanalysis("kept-test", until()))?.id).toBe(track.id);
      const report = analysisReport({ warnings: ["clipping"] });
      expect(await t.ctx.processing.analysis.saveReanalysis(track.id, report, "kept-test")).toBe(true);
      return [a];
    },
    create: async (
      a,
    ) => (await t.ctx.tracks.create(
      trackInputSchema.parse({ filename: "Kept - Made.mp3", user_id: a.id, directions: "label_koster" }),
    ),
      [a]),
    update: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id });
      await t.ctx.tracks.update("*", track.id, trackUpdateSchema.parse({ directions: "label_koster" }));
      return [a];
    },
    "update (handed to another artist)": async (a, b) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id });
      await t.ctx.tracks.update("*", track.id, trackUpdateSchema.parse({ user_id: b.id }));
      return [a, b];
    },
    moderate: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      await t.ctx.tracks.moderate(await moderatorOf("label_koster"), track.id, { downloaded: true });
      return [a];
    },
    "remove (the caller's directions only)": async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster,podcast_neuropunk" });
      expect((await t.ctx.tracks.remove(await moderatorOf("label_koster"), track.id)).track_deleted).toBe(false);
      return [a];
    },
    remove: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id });
      expect((await t.ctx.tracks.remove("*", track.id)).track_deleted).toBe(true);
      return [a];
    },
    decide: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      const admin = await createUser(t.ctx.db, { is_admin: true });
      await t.ctx.review.decide(admin, track.id, "label_koster", declined, () => Promise.resolve(null));
      return [a];
    },
    // The response promise's automatic decline (issue 25) is a decision like any other.
    autoDecline: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      await t.ctx.review.autoDecline(track.id, "label_koster", "Не успели послушать");
      return [a];
    },
    decideTrack: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      const admin = await createUser(t.ctx.db, { is_admin: true });
      await t.ctx.review.decideTrack(admin, track.id, wholeDecline, () => Promise.resolve(null));
      return [a];
    },
    undoDecision: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      const admin = await createUser(t.ctx.db, { is_admin: true });
      await t.ctx.review.decideTrack(admin, track.id, wholeDecline, () => Promise.resolve(null));
      await t.ctx.review.undoDecision(admin, track.id);
      return [a];
    },
    reportListened: async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      const mod = await moderatorOf("label_koster");
      // Opened 25 s ago on the app clock and played since, reported every 5 s as the player does (a
      // pause is not banked, decision 0307; the kept lists stay as young as they are).
      time -= 25_000;
      await t.ctx.review.openListen(mod, track.id);
      let heard = false;
      for (let i = 0; i < 5; i++) {
        time += 5_000;
        heard = (await t.ctx.review.reportListened(mod, track.id, 5)).heard;
      }
      expect(heard).toBe(true);
      return [a];
    },
    markDownloaded: async (
      a,
    ) => (await t.ctx.tracks.markDownloaded([(await createTrack(t.ctx.db, { user_id: a.id })).id]), [a]),
    // Comments are not in the list, but a shared one's writes drop it like every other (decision 0232).
    "comments (a shared comment made, changed, deleted)": async (a) => {
      const track = await createTrack(t.ctx.db, { user_id: a.id, directions: "label_koster" });
      const admin = await createUser(t.ctx.db, { is_admin: true });
      const c = await t.ctx.review.comments.create(admin, track.id, { at_s: 1, end_s: null, text: "x", shared: true });
      await t.ctx.review.comments.update(admin, track.id, c.id, { text: "y" });
      await t.ctx.review.comments.remove(admin, track.id, c.id);
      return [a];
    },
  };

  /** Calls of the track services that write nothing an artist's list shows (reads, leases, attempts, listening clocks, votes). */
  const LEAVE_THE_LIST = [
    "status",
    "statusRow",
    "statusFor",
    "ownedBy",
    "ownedAnswer",
    "ownListenSource",
    "historyOf",
    "countOwnedBy",
    "uploadQuota",
    "claim",
    "claimNext",
    "countAttempt",
    "renewLeases",
    "releaseLeases",
    "pendingProcessing",
    "list",
    "get",
    "detail",
    "openListen",
    "forDownload",
    "forArchive",
    "listenSource",
    "analysis",
    "reviewQueue",
    // Staff votes never reach the artist (issue 24, decision 0229): nothing of theirs changes.
    "vote",
    "withdrawVote",
    // Assignment and presence are staff-only (issue 24, decisions 0233, 0234); the response figures are reads.
    "assignments",
    "presence",
    "responseFigures",
    // The audio fingerprints (issue 25, decision 0247) live in their own tables; a same-artist copy
    // fails through `fail`, and `same_audio_as` is written with the report (staff-only).
    "fingerprints",
    // The staff desk's card reads in Telegram (issue 27).
    "cardTrack",
    "trackDirections",
  ];

  it("names every call of the service as a write below or as one that leaves the list", () => {
    const writes = new Set(Object.keys(WRITES).map((k) => k.replace(/ \(.*\)$/, "")));
    const named = [...writes].filter((k) => !k.startsWith("analysis.")).concat(LEAVE_THE_LIST);
    const rooms = [t.ctx.tracks, t.ctx.uploads, t.ctx.processing, t.ctx.review, t.ctx.artist];
    expect(rooms.flatMap((room) => Object.keys(room)).sort()).toEqual([...new Set(named)].sort());
    // The report writes are the analysis service's own, wrapped by the tracks service.
    const reportWrites = Object.keys(t.ctx.processing.analysis).filter((k) => /^save/.test(k)).map((k) =>
      `analysis.${k}`
    );
    expect(reportWrites.sort()).toEqual([...writes].filter((k) => k.startsWith("analysis.")).sort());
  });

  for (const [name, write] of Object.entries(WRITES)) {
    it(name, async () => {
      const a = await artist();
      const b = await artist();
      const keep = async (u: User) =>
        JSON.parse(new TextDecoder().decode((await t.ctx.artist.ownedAnswer(u.id)).identity));
      const fresh = async (u: User) =>
        JSON.parse(JSON.stringify({ success: true, tracks: await t.ctx.artist.ownedBy(u.id) }));
      await keep(a.user);
      await keep(b.user);
      // Behind the service's back: the kept lists do not know these.
      const unseen = [
        await createTrack(t.ctx.db, { user_id: a.user.id }),
        await createTrack(t.ctx.db, { user_id: b.user.id }),
      ];
      expect((await keep(a.user)).tracks.map((r: Listed) => r.id)).not.toContain(unseen[0].id);

      const touched = await write(a.user, b.user);
      for (const u of touched) {
        const answer = await keep(u);
        expect(answer, `${name}: the list of ${u.username}`).toEqual(await fresh(u));
        expect(answer.tracks.map((r: Listed) => r.id)).toContain(unseen[u.id === a.user.id ? 0 : 1].id);
      }
    });
  }
});

describe("ownedAnswers", () => {
  it("keeps no read that a forget overlapped, and reads again after the TTL", async () => {
    let now = 0;
    let version = 0;
    let release: (() => void) | null = null;
    const cache = ownedAnswers(async () => {
      const seen = version;
      if (release === null) await new Promise<void>((r) => (release = r));
      return { v: seen };
    }, { ttlMs: 100, max: 10, now: () => now });
    const slow = cache.get(1);
    version = 1;
    cache.forget(1);
    release!();
    const text = (a: Awaited<ReturnType<typeof cache.get>>) => new TextDecoder().decode(a.identity);
    expect(text(await slow)).toBe('{"v":0}');
    // The overlapped read was not kept: the next request reads again and sees the write.
    expect(text(await cache.get(1))).toBe('{"v":1}');
    version = 2;
    expect(text(await cache.get(1))).toBe('{"v":1}');
    now += 101;
    expect(text(await cache.get(1))).toBe('{"v":2}');
  });

  it("keeps at most `max` artists, dropping the one loaded longest ago", async () => {
    let loads = 0;
    const cache = ownedAnswers((id) => {
      loads++;
      return Promise.resolve({ id });
    }, { ttlMs: 60_000, max: 2, now: () => 0 });
    await cache.get(1);
    await cache.get(2);
    await cache.get(3);
    expect(cache.size).toBe(2);
    expect(loads).toBe(3);
    await cache.get(3);
    await cache.get(2);
    expect(loads).toBe(3);
    await cache.get(1);
    expect(loads).toBe(4);
  });
});

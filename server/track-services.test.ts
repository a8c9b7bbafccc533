/**
 * The track services decide who may see a track (docs/decisions/0092, 0120): a read by id outside
 * the caller's sight is "not found", whoever calls it, and the owner's status polling is answered
 * from the status store without touching the database (decisions 0022, 0025). Only the track
 * services' own modules (tracks/, uploads/, processing/, review/, artist/) read and write the track
 * tables (decisions 0120, 0210, 0325).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { createTestApp, type TestApp } from "./testing/create-test-app.ts";
import { createTrack, createUser } from "./testing/factories.ts";
import { TRACK_NOT_FOUND } from "./tracks/service.ts";
import { createTrackServices } from "./track-services.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The error status a call ends with (200 when it succeeds). */
const outcome = async (p: Promise<unknown>) => {
  try {
    await p;
    return { status: 200, message: "" };
  } catch (err) {
    return { status: (err as { status?: number }).status ?? 500, message: (err as Error).message };
  }
};

/** The database, counting the SELECTs issued through it. */
function countingDb(db: Db) {
  const counter = { selects: 0 };
  const proxy = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "select") {
        return (...args: unknown[]) => {
          counter.selects++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: proxy as Db, counter };
}

describe("tracks service: the status of one track", () => {
  it("answers the owner, an admin and a moderator whose categories cover it; anyone else is not found", async () => {
    const owner = await createUser(t.ctx.db);
    const stranger = await createUser(t.ctx.db);
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const koster = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
    const neuropunk = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "label_neuropunk" });
    const track = await createTrack(t.ctx.db, { user_id: owner.id, directions: "label_koster" });

    for (const viewer of [owner, admin, koster]) {
      expect((await t.ctx.artist.statusFor(viewer, track.id)).track_data.id, viewer.username).toBe(track.id);
    }
    for (const viewer of [stranger, neuropunk]) {
      expect(await outcome(t.ctx.artist.statusFor(viewer, track.id)), viewer.username)
        .toEqual({ status: 404, message: TRACK_NOT_FOUND });
    }
    expect(await outcome(t.ctx.artist.statusFor(admin, track.id + 10_000))).toEqual({
      status: 404,
      message: TRACK_NOT_FOUND,
    });
  });

  it("a status key does not open the track to anyone but the owner it names", async () => {
    const owner = await createUser(t.ctx.db);
    const stranger = await createUser(t.ctx.db);
    const [row] = await t.ctx.uploads.addUploads(owner.id, [{ key: "xx/none", filename: "A - B.mp3", size: 10 }], [
      "label_koster",
    ]);
    expect((await t.ctx.processing.status.readStatus(row.id))?.user_id).toBe(owner.id);
    expect(await outcome(t.ctx.artist.statusFor(stranger, row.id))).toEqual({ status: 404, message: TRACK_NOT_FOUND });
  });

  it("the owner's polling is answered by the status key alone; anyone else costs one read", async () => {
    const owner = await createUser(t.ctx.db);
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const { db, counter } = countingDb(t.ctx.db);
    const service = createTrackServices({ ...t.ctx, db });
    const [row] = await service.uploads.addUploads(owner.id, [{ key: "xx/none2", filename: "C - D.mp3", size: 10 }], [
      "label_neuropunk",
    ]);
    counter.selects = 0;
    expect((await service.artist.statusFor(owner, row.id)).status).toBe("processing");
    expect(counter.selects).toBe(0);
    expect((await service.artist.statusFor(admin, row.id)).status).toBe("processing");
    expect(counter.selects).toBe(1);
  });
});

describe("tracks service: staff reads by id follow the caller's current scope", () => {
  it("a moderator outside the track's directions is told it does not exist, in every call by id", async () => {
    const mod = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "podcast_koster" });
    const track = await createTrack(t.ctx.db, { directions: "label_neuropunk" });
    expect(await outcome(t.ctx.tracks.get(mod, track.id))).toEqual({ status: 404, message: TRACK_NOT_FOUND });
    expect((await outcome(t.ctx.tracks.moderate(mod, track.id, { downloaded: true }))).status).toBe(404);
    expect((await outcome(t.ctx.tracks.remove(mod, track.id))).status).toBe(404);
    expect((await outcome(t.ctx.tracks.forDownload(mod, [track.id]))).status).toBe(404);
    expect((await outcome(t.ctx.review.openListen(mod, track.id))).status).toBe(404);
    expect((await outcome(t.ctx.review.reportListened(mod, track.id, 20))).status).toBe(404);

    // Their categories change: the very next read follows.
    const widened = await t.ctx.users.update(mod.id, { moderator_categories: "podcast_koster,label_neuropunk" });
    expect((await t.ctx.tracks.get(widened!, track.id)).id).toBe(track.id);
  });

  it("the artist's own list holds only their submitted tracks", async () => {
    const artist = await createUser(t.ctx.db);
    const other = await createUser(t.ctx.db);
    const mine = await createTrack(t.ctx.db, { user_id: artist.id });
    await createTrack(t.ctx.db, { user_id: artist.id, status: "failed" });
    await createTrack(t.ctx.db, { user_id: other.id });
    expect((await t.ctx.artist.ownedBy(artist.id)).map((r) => r.id)).toEqual([mine.id]);
  });
});

describe("track services: the one boundary over the track tables", () => {
  const TRACK_TABLES = [
    "tracks",
    "trackAnalysis",
    "trackDecisions",
    "trackDecisionHistory",
    "trackListens",
    "trackVotes",
    "trackComments",
    "trackCounts",
    "userTrackCounts",
    "trackAssignments",
    "trackPresence",
  ];
  /** The modules behind the five track services (track-services.ts composes them; docs/decisions/0210, 0325). */
  const SERVICE_MODULES = [
    "server/artist/artist-reads.ts",
    // The artist's queue figures (issue 36): one pass over the direction's undecided pairs.
    "server/artist/queue-position.ts",
    "server/review/comments.ts",
    "server/tracks/kept-lists.ts",
    "server/tracks/leases.ts",
    "server/review/review.ts",
    "server/uploads/uploads.ts",
    "server/tracks/views.ts",
    // The staff's reads and edits of the row (ctx.tracks), an upload's insert, the row's review copy.
    "server/tracks/staff-reads.ts",
    "server/tracks/staff-edits.ts",
    "server/tracks/upload-rows.ts",
    "server/tracks/review-column.ts",
    "server/review/review-queue.ts",
    "server/review/assignments.ts",
    // The intake rules' reads (issue 25): recent submissions, pairs past their promise.
    "server/tracks/intake-sql.ts",
    // The episode desk's reads (issue 35): the pool's pairs, an episode's tracks, owners and files.
    "server/tracks/episode-sql.ts",
    "server/processing/fingerprints.ts",
    // The SQL pieces they share: sight, reports, decisions, listening, votes, status keys.
    "server/tracks/scope.ts",
    // The response promise's SQL twin (domain/response-promise.ts).
    "server/tracks/promise-sql.ts",
    "server/processing/analysis.ts",
    "server/review/decisions.ts",
    "server/review/listening.ts",
    "server/review/assignment-sql.ts",
    "server/review/presence.ts",
    "server/review/votes.ts",
    "server/processing/status-keys.ts",
    // Which uploads form the artist's batch on /processing (decision 0285): status-keys' database fallback.
    "server/processing/batch-rule.ts",
    // A deleted user's tracks kept as a guest's, in the delete's batch (decision 0337).
    "server/tracks/guest-tracks.ts",
    // Issue 37: a new version's upload and line, the offer processing makes, the decline reasons and
    // a version's assignee, each in the room of what it does.
    "server/uploads/versions.ts",
    "server/processing/version-offers.ts",
    "server/review/reasons.ts",
    "server/review/version-assignee.ts",
  ];
  /** Left outside on purpose (decision 0120): read-only aggregates and start-up recovery, and a user's delete. */
  const OUTSIDE_ON_PURPOSE = [
    "server/admin/dashboard.ts",
    "server/storage/recover-storage.ts",
    "server/users/service.ts",
    // The release desk's reads join each release to its track's name, owner and demo figures in one
    // query (issue 34); it writes no track table.
    "server/releases/views.ts",
    // A release file's check reads the accepted demo's length and fingerprint, and a file's start
    // its release's owner (issue 34); neither writes a track table.
    "server/releases/materials/check.ts",
    "server/releases/materials/service.ts",
    // An artist's rating of a decision's feedback (issue 37) reads the pair it rates; it writes only
    // feedback_ratings.
    "server/feedback/ratings.ts",
  ];

  async function* sources(dir: string): AsyncGenerator<string> {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) {
        // Test data builders and scripts write rows directly: they are not request paths.
        if (path !== "server/testing" && path !== "server/scripts") yield* sources(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        yield path;
      }
    }
  }

  it("no module outside the track services imports a track table", async () => {
    const importers: string[] = [];
    for await (const path of sources("server")) {
      const text = await Deno.readTextFile(path);
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"[./]*db\/schema\.ts"/g)) {
        const names = m[1].split(",").map((n) => n.trim()).filter((n) => !n.startsWith("type "));
        if (names.some((n) => TRACK_TABLES.includes(n))) importers.push(path);
      }
    }
    const allowed = [...SERVICE_MODULES, ...OUTSIDE_ON_PURPOSE];
    expect(importers.filter((p) => !allowed.includes(p))).toEqual([]);
    // Every module named above exists and is one of the importers: the list cannot go stale.
    expect(SERVICE_MODULES.filter((p) => !importers.includes(p))).toEqual([]);
  });

  it("the input schemas and the fronts themselves read no table: they only compose the modules", async () => {
    for (const path of ["server/tracks/schemas.ts", "server/tracks/service.ts", "server/track-services.ts"]) {
      expect(await Deno.readTextFile(path), path).not.toMatch(/db\/schema\.ts/);
    }
  });
});

/**
 * Issue 24, who is listening now (docs/decisions/0234): a listening report on one instance is seen by
 * a colleague polling another instance that shares the database (each with its own status store and
 * memory), for 30 seconds; never one's own; only tracks within the poller's sight; bad polls are 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSIGN_TEXTS, MAX_PRESENCE_IDS } from "../../domain/assignment.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { type Instance, openInstance } from "../testing/second-instance.ts";
import { AUDIO, type Headers, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";

let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let f: StaffFixture;
let b: Instance;
let neurogonH: Headers;

beforeAll(async () => {
  f = await staffFixture({ clock, moderatorCategories: "label_koster", env: { ACCESS_TOKEN_TTL_S: "864000" } });
  b = await openInstance(f.t, { clock });
  neurogonH = (await signIn(
    f.t.ctx,
    await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "show_neurogon" }),
  )).headers;
});
afterAll(async () => {
  await b.close();
  await f.close();
});

/** A call to instance B. */
async function onB(method: string, path: string, headers: Headers, json?: unknown) {
  const res = await b.app.request(path, {
    method,
    headers: { ...headers, ...(json === undefined ? {} : { "Content-Type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: await res.json() };
}

const presence = async (ids: number[], headers: Headers = f.as.admin) => {
  const panel = headers === f.as.admin ? "admin" : "moderator";
  const r = await f.call("GET", `/api/${panel}/tracks/presence?ids=${ids.join(",")}`, { headers });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.presence as { track_id: number; user: { id: number; username: string }; at: string }[];
};

describe("GET …/tracks/presence across two instances", () => {
  it("a report on instance B shows on instance A for 30 s, to others only", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster", status: "completed" });
    const quiet = await createTrack(f.t.ctx.db, { directions: "label_koster", status: "completed" });
    expect(await presence([tr.id, quiet.id])).toEqual([]);

    const report = await onB("POST", `/api/moderator/tracks/${tr.id}/listened`, f.as.moderator, { seconds: 3 });
    expect(report.status, JSON.stringify(report.body)).toBe(200);

    const seen = await presence([tr.id, quiet.id]);
    expect(seen.map((p) => [p.track_id, p.user.id, p.user.username])).toEqual([
      [tr.id, f.moderator.id, f.moderator.username],
    ]);
    expect(seen[0].at).toBe(new Date(nowMs).toISOString());
    // Not one's own.
    expect(await presence([tr.id], f.as.moderator)).toEqual([]);
    // Instance B answers the same (the database, not a process, holds it).
    const fromB = await onB("GET", `/api/admin/tracks/presence?ids=${tr.id}`, f.as.admin);
    expect(fromB.body.presence).toHaveLength(1);

    nowMs += 29_000;
    expect(await presence([tr.id])).toHaveLength(1);
    nowMs += 2_000;
    expect(await presence([tr.id])).toEqual([]);
  });

  it("one person is on one track: playing another moves them", async () => {
    const first = await createTrack(f.t.ctx.db, { directions: "label_koster", status: "completed" });
    const second = await createTrack(f.t.ctx.db, { directions: "label_koster", status: "completed" });
    await onB("POST", `/api/moderator/tracks/${first.id}/listened`, f.as.moderator, { seconds: 1 });
    nowMs += 1_000;
    await f.call("POST", `/api/moderator/tracks/${second.id}/listened`, {
      headers: f.as.moderator,
      json: { seconds: 1 },
    });
    expect((await presence([first.id, second.id])).map((p) => p.track_id)).toEqual([second.id]);
  });

  it("a poller sees only tracks within their sight; the listening link alone is not listening", async () => {
    const tr = await createTrack(f.t.ctx.db, { directions: "label_koster", status: "completed" });
    await f.call("POST", `/api/admin/tracks/${tr.id}/listened`, { json: { seconds: 2 } });
    expect(await presence([tr.id], f.as.moderator)).toHaveLength(1);
    expect(await presence([tr.id], neurogonH)).toEqual([]);
    // The desk fetches the next track's link ahead (decision 0225): that is nobody listening.
    const ahead = await f.trackWithFile(AUDIO.amen, { directions: "label_koster" });
    const link = await onB("GET", `/api/moderator/tracks/${ahead.id}/listen`, f.as.moderator);
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(await presence([ahead.id])).toEqual([]);
  });

  it("refuses a bad list of ids", async () => {
    for (const ids of ["1,x", "-1", Array.from({ length: MAX_PRESENCE_IDS + 1 }, (_, i) => i + 1).join(",")]) {
      const r = await f.call("GET", `/api/admin/tracks/presence?ids=${ids}`);
      expect(r.status, ids).toBe(400);
      expect(r.body.success).toBe(false);
      expect([ASSIGN_TEXTS.badIds, ASSIGN_TEXTS.tooManyIds]).toContain(r.body.error);
    }
    expect((await f.call("GET", "/api/admin/tracks/presence")).status).toBe(400);
    expect((await f.call("GET", "/api/admin/tracks/presence?ids=1", { headers: f.as.plain })).status).toBe(403);
  });
});

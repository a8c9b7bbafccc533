/**
 * The processing page's batch (issue 31, docs/decisions/0285): GET /api/track_ids lists every file
 * of an upload, whether it came in one POST /api/upload or as the upload page's resumable uploads
 * (started together, completed one after another, a cut one resumed), from the status keys and,
 * when they are gone, from the database by the same rule.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { User } from "../../db/schema.ts";
import { createEmbeddedStore, KV_KEYS, type StatusStore } from "../status-store/kv.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { dirPart, filePart, postUpload } from "../testing/upload-helpers.ts";
import { chainBatch } from "./batch-rule.ts";

describe("chainBatch", () => {
  it("keeps tracks stored at once, and tracks whose upload started before the older one was stored", () => {
    // Newest first: 5 and 4 from one POST /api/upload (stored together, no start), 3 an older upload.
    expect(chainBatch([
      { id: 5, storedAt: 50, startedAt: null },
      { id: 4, storedAt: 50, startedAt: null },
      { id: 3, storedAt: 40, startedAt: 10 },
    ])).toEqual([4, 5]);
    // Three resumable uploads started at 10, stored at 20, 30, 40; one started at 5 and stored at 8 before them.
    expect(chainBatch([
      { id: 3, storedAt: 40, startedAt: 10 },
      { id: 2, storedAt: 30, startedAt: 10 },
      { id: 1, storedAt: 20, startedAt: 10 },
      { id: 0, storedAt: 8, startedAt: 5 },
    ])).toEqual([1, 2, 3]);
    // Started after the previous track was stored: a batch of its own.
    expect(chainBatch([
      { id: 2, storedAt: 30, startedAt: 25 },
      { id: 1, storedAt: 20, startedAt: 10 },
    ])).toEqual([2]);
    expect(chainBatch([])).toEqual([]);
  });
});

describe("GET /api/track_ids", () => {
  let t: TestApp;
  let kv: StatusStore;
  let artist: User;
  let headers: Record<string, string>;
  let now = Date.UTC(2026, 10, 29, 12);
  const clock = { now: () => new Date(now) };

  beforeEach(async () => {
    now = Date.UTC(2026, 10, 29, 12);
    kv = createEmbeddedStore();
    t = await createTestApp({ clock, kv, env: { UPLOAD_PART_MB: "5" } });
    artist = await createUser(t.ctx.db);
    headers = (await signIn(t.ctx, artist)).headers;
  });
  afterEach(async () => {
    await t.close();
  });

  const json = { "content-type": "application/json" };
  async function start(name: string): Promise<string> {
    const res = await t.app.request("/api/upload/resumable", {
      method: "POST",
      headers: { ...headers, ...json },
      body: JSON.stringify({ filename: name, size: 1000, directions: "label_neuropunk" }),
    });
    expect(res.status).toBe(201);
    return (await res.json()).upload.id;
  }
  async function send(id: string): Promise<number> {
    now += 1000;
    const part = await t.app.request(`/api/upload/resumable/${id}/parts/1`, {
      method: "PUT",
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: new Uint8Array(1000),
    });
    expect(part.status).toBe(200);
    const done = await t.app.request(`/api/upload/resumable/${id}/complete`, { method: "POST", headers });
    expect(done.status).toBe(200);
    return (await done.json()).track_id;
  }
  const batch = async () => (await (await t.app.request("/api/track_ids", { headers })).json()).track_ids;
  /** The status store loses the key (expired, or a store that was down): the database answers. */
  const forgetKeys = () => kv.del([KV_KEYS.trackIds(artist.id)]);

  it("lists all three files of the upload page's resumable uploads, not only the last one", async () => {
    const ids = [await start("A - One.mp3"), await start("A - Two.mp3"), await start("A - Three.mp3")];
    const tracks: number[] = [];
    for (const id of ids) tracks.push(await send(id));
    expect(await batch()).toEqual(tracks);
    await forgetKeys();
    expect(await batch()).toEqual(tracks);

    // The next upload, started after those were stored, is a batch of its own.
    now += 60_000;
    const next = await send(await start("A - Four.mp3"));
    expect(await batch()).toEqual([next]);
    await forgetKeys();
    expect(await batch()).toEqual([next]);
  });

  it("a file cut off mid-way and resumed later joins the files it was started with", async () => {
    const [a, b] = [await start("A - One.mp3"), await start("A - Two.mp3")];
    const first = await send(a);
    expect(await batch()).toEqual([first]);
    now += 3_600_000;
    headers = (await signIn(t.ctx, artist)).headers;
    const second = await send(b);
    expect(await batch()).toEqual([first, second]);
    await forgetKeys();
    expect(await batch()).toEqual([first, second]);
  });

  it("continues the batch from the database when the status store lost its keys before the next file", async () => {
    const [a, b, c] = [await start("A - One.mp3"), await start("A - Two.mp3"), await start("A - Three.mp3")];
    const first = await send(a);
    // An embedded store restarted, or an Upstash key gone: the next completion reads the database.
    await forgetKeys();
    const second = await send(b);
    expect(await batch()).toEqual([first, second]);
    await forgetKeys();
    const third = await send(c);
    expect(await batch()).toEqual([first, second, third]);
  });

  it("lists every file of one POST /api/upload; a later one replaces them", async () => {
    const posted = await postUpload(t, headers, [
      filePart("B - One.mp3", new Uint8Array(1000)),
      filePart("B - Two.mp3", new Uint8Array(1000)),
      filePart("B - Three.mp3", new Uint8Array(1000)),
      dirPart("label_neuropunk"),
    ]);
    expect(posted.res.status).toBe(200);
    expect(posted.body.track_ids).toHaveLength(3);
    expect(await batch()).toEqual(posted.body.track_ids);
    await forgetKeys();
    expect(await batch()).toEqual(posted.body.track_ids);

    now += 60_000;
    const later = await send(await start("B - Four.mp3"));
    expect(await batch()).toEqual([later]);
  });
});

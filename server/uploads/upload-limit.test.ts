/**
 * MAX_UPLOADS_PER_HOUR (issue 20, docs/decisions/0196): the files one artist may upload over a
 * sliding hour, counted in the database so that every instance refuses past it; 429 with a Russian
 * text and Retry-After; staff are not limited. The app clock moves instead of waiting an hour.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tracks } from "../../db/schema.ts";
import type { User } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { type Instance, openInstance } from "../testing/second-instance.ts";
import { dirPart, filePart, fixture, FIXTURES, postUpload, storedFiles } from "../testing/upload-helpers.ts";

let now = Date.UTC(2026, 0, 10, 12);
const clock = { now: () => new Date(now) };
let t: TestApp;
let b: Instance | undefined;
const LIMIT = 3;
const MINUTE = 60_000;

beforeEach(async () => {
  now = Date.UTC(2026, 0, 10, 12);
  t = await createTestApp({ clock, env: { MAX_UPLOADS_PER_HOUR: String(LIMIT) } });
});
afterEach(async () => {
  await b?.close();
  b = undefined;
  await t.close();
});

let seq = 0;
/** `n` distinct valid files (the small 128 kbps fixture). */
const files = (n: number) =>
  Array.from({ length: n }, () => filePart(`Limit Artist - Track ${++seq}.mp3`, fixture(FIXTURES.low)));

async function upload(app: Pick<TestApp, "app">, user: User, n: number) {
  const { headers } = await signIn(t.ctx, user);
  return await postUpload(app as TestApp, headers, [...files(n), dirPart("label_neuropunk")]);
}

const rowsOf = async (user: User) => await t.ctx.db.select().from(tracks).where(eq(tracks.user_id, user.id));

/** Stored files no track row points at (a refused request's, had any been kept). */
async function orphanFiles() {
  await t.ctx.queue.idle();
  const keys = (await t.ctx.db.select({ key: tracks.storage_key }).from(tracks)).map((r) => r.key).filter((k) =>
    k !== null
  );
  return (await storedFiles(t)).filter((path) => !keys.some((key) => path.endsWith(`/${key}`)));
}

describe("uploads per artist per hour", () => {
  it("refuses past MAX_UPLOADS_PER_HOUR files with 429, a Russian text and Retry-After, keeping nothing of the refused request", async () => {
    const artist = await createUser(t.ctx.db);
    expect((await upload(t, artist, 2)).res.status).toBe(200);

    now += 10 * MINUTE;
    // Two more would make four: the whole request is refused, and the text says one still fits.
    const over = await upload(t, artist, 2);
    expect(over.res.status).toBe(429);
    expect(over.body).toEqual({
      success: false,
      error:
        "Слишком много загрузок за час: не больше 3 файлов. Сейчас можно загрузить ещё 1, остальные — через 50 мин.",
    });
    // The first two leave the hour 50 minutes from now.
    expect(over.res.headers.get("retry-after")).toBe(String(50 * 60));
    expect(await orphanFiles()).toEqual([]);
    expect(await rowsOf(artist)).toHaveLength(2);

    expect((await upload(t, artist, 1)).res.status).toBe(200);
    const full = await upload(t, artist, 1);
    expect(full.res.status).toBe(429);
    expect(full.body.error).toBe("Слишком много загрузок за час: не больше 3 файлов. Попробуйте позже: через 50 мин.");
    expect(full.res.headers.get("retry-after")).toBe(String(50 * 60));
    expect(await orphanFiles()).toEqual([]);
    expect(await rowsOf(artist)).toHaveLength(3);

    // Another artist has an hour of their own.
    expect((await upload(t, await createUser(t.ctx.db), 3)).res.status).toBe(200);

    // A sliding hour: once the first two are an hour old, two fit again (not three: the third is not).
    now += 50 * MINUTE + 1;
    expect((await upload(t, artist, 3)).res.status).toBe(429);
    expect((await upload(t, artist, 2)).res.status).toBe(200);
    await t.ctx.queue.idle();
  });

  it("refuses a full hour before reading the body", async () => {
    const artist = await createUser(t.ctx.db);
    expect((await upload(t, artist, LIMIT)).res.status).toBe(200);
    let pulled = false;
    const data = fixture(FIXTURES.low);
    const { headers } = await signIn(t.ctx, artist);
    const res = await postUpload(t, headers, [
      {
        name: "files",
        filename: "Limit Artist - Streamed.mp3",
        type: "audio/mpeg",
        size: data.byteLength,
        data: () =>
          new ReadableStream({
            pull(ctrl) {
              pulled = true;
              ctrl.enqueue(data);
              ctrl.close();
            },
          }),
      },
      dirPart("label_neuropunk"),
    ]);
    expect(res.res.status).toBe(429);
    expect(res.res.headers.get("retry-after")).toBe("3600");
    expect(pulled).toBe(false);
    await t.ctx.queue.idle();
  });

  it("holds across instances: the count is in the database", async () => {
    b = await openInstance(t);
    const artist = await createUser(t.ctx.db);
    expect((await upload(t, artist, 2)).res.status).toBe(200);
    const other = await upload(b, artist, 2);
    expect(other.res.status).toBe(429);
    expect(other.body.error).toContain("Сейчас можно загрузить ещё 1");
    expect((await upload(b, artist, 1)).res.status).toBe(200);
    expect((await upload(t, artist, 1)).res.status).toBe(429);
    await Promise.all([t.ctx.queue.idle(), b.ctx.queue.idle()]);
    expect(await rowsOf(artist)).toHaveLength(LIMIT);
  });

  it("two requests at once cannot both pass the limit", async () => {
    const artist = await createUser(t.ctx.db);
    const answers = await Promise.all([upload(t, artist, 2), upload(t, artist, 2)]);
    expect(answers.map((a) => a.res.status).sort()).toEqual([200, 429]);
    expect(await orphanFiles()).toEqual([]);
    expect(await rowsOf(artist)).toHaveLength(2);
  });

  it("does not limit administrators and moderators", async () => {
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const moderator = await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" });
    for (const staff of [admin, moderator]) {
      expect((await upload(t, staff, LIMIT)).res.status).toBe(200);
      expect((await upload(t, staff, 2)).res.status).toBe(200);
    }
    await t.ctx.queue.idle();
  });
});

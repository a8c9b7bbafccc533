/**
 * Resumable upload sessions are bounded, not only uploads (issue 32, docs/decisions/0296): at most
 * MAX_UPLOADS_PER_HOUR started per artist in any hour whatever became of them (cancelling frees no
 * place), at most MAX_OPEN_UPLOADS unfinished at once; each refused with 429, Retry-After and a
 * Russian text. Staff are not limited.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { User } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser, signIn } from "../../testing/factories.ts";

const HOUR = 3_600_000;
let now = Date.UTC(2026, 0, 10, 12);
const clock = { now: () => new Date(now) };

function client(t: TestApp, headers: Record<string, string>) {
  const json = async (res: Response) => ({ status: res.status, body: await res.json(), headers: res.headers });
  return {
    start: async (i: number) =>
      await json(
        await t.app.request("/api/upload/resumable", {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ filename: `Artist - Song ${i}.mp3`, size: 1000, directions: "label_neuropunk" }),
        }),
      ),
    cancel: async (id: string) =>
      await json(await t.app.request(`/api/upload/resumable/${id}`, { method: "DELETE", headers })),
  };
}

describe("resumable upload sessions are bounded", () => {
  let t: TestApp;
  let artist: User;
  let api: ReturnType<typeof client>;
  const boot = async (env: Record<string, string>) => {
    now = Date.UTC(2026, 0, 10, 12);
    t = await createTestApp({ clock, env });
    artist = await createUser(t.ctx.db);
    api = client(t, (await signIn(t.ctx, artist)).headers);
  };
  beforeEach(() => {
    now = Date.UTC(2026, 0, 10, 12);
  });
  afterEach(async () => {
    await t.close();
  });

  it("counts every start of the hour, cancelled or not: starts and deletes past the hour's count → 429", async () => {
    await boot({ MAX_UPLOADS_PER_HOUR: "5" });
    for (let i = 1; i <= 5; i++) {
      const started = await api.start(i);
      expect(started.status).toBe(201);
      now += 60_000;
      api = client(t, (await signIn(t.ctx, artist)).headers);
      expect((await api.cancel(started.body.upload.id)).status).toBe(200);
    }
    // Nothing is open and no track exists, yet the hour's five starts are spent.
    const over = await api.start(6);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false });
    expect(over.body.error).toMatch(/^Слишком много загрузок за час: не больше 5 файлов\. Попробуйте позже: через/);
    // The first start (at 12:00) leaves the hour at 13:00; it is now 12:05.
    expect(Number(over.headers.get("retry-after"))).toBe(55 * 60);
    now += 55 * 60_000 + 1000;
    api = client(t, (await signIn(t.ctx, artist)).headers);
    expect((await api.start(7)).status).toBe(201);
    expect((await api.start(8)).status).toBe(429);
  });

  it("holds at most MAX_OPEN_UPLOADS unfinished uploads: the 21st → 429 until one is cancelled", async () => {
    await boot({ MAX_UPLOADS_PER_HOUR: "100" });
    expect(t.ctx.config.maxOpenUploads).toBe(20);
    const ids: string[] = [];
    for (let i = 1; i <= 20; i++) {
      const started = await api.start(i);
      expect(started.status).toBe(201);
      ids.push(started.body.upload.id);
      now += 1000;
    }
    const over = await api.start(21);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/^Слишком много незавершённых загрузок: не больше 20 одновременно\./);
    // The earliest unfinished upload expires 24 h after its start (19 s ago).
    expect(Number(over.headers.get("retry-after"))).toBe(24 * 3600 - 20);
    expect(over.body.error).toMatch(/через 24 ч\.$/);
    // Cancelling one frees its place at once (the hour still has room).
    expect((await api.cancel(ids[0])).status).toBe(200);
    expect((await api.start(22)).status).toBe(201);
    expect((await api.start(23)).status).toBe(429);
    // Expired uploads no longer hold a place.
    now += 24 * HOUR;
    api = client(t, (await signIn(t.ctx, artist)).headers);
    expect((await api.start(24)).status).toBe(201);
  });

  it("reads MAX_OPEN_UPLOADS, and does not limit staff", async () => {
    await boot({ MAX_UPLOADS_PER_HOUR: "2", MAX_OPEN_UPLOADS: "1" });
    expect((await api.start(1)).status).toBe(201);
    const over = await api.start(2);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/не больше 1 одновременно/);
    const admin = await createUser(t.ctx.db, { is_admin: true });
    const staff = client(t, (await signIn(t.ctx, admin)).headers);
    for (let i = 1; i <= 4; i++) {
      const started = await staff.start(i);
      expect(started.status).toBe(201);
      expect((await staff.cancel(started.body.upload.id)).status).toBe(200);
    }
    for (let i = 5; i <= 7; i++) expect((await staff.start(i)).status).toBe(201);
  });
});

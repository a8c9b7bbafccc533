/**
 * A completion survives a crash (issue 32, docs/decisions/0295): the real server is killed with
 * SIGKILL while it puts a resumable upload's parts together (its storage writes slowed by the test
 * entry point, so the kill lands in the middle), and the artist's retry on another instance over the
 * same database and disk completes the upload once: refused while the dead instance's short claim
 * holds, then one track, within 70 s of the kill.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDb } from "../../../db/client.ts";
import { tracks, uploadSessions } from "../../../db/schema.ts";
import { type ServerProcess, startServer } from "../../testing/server-process.ts";
import { COMPLETING_CLAIM_MS, COMPLETING_MESSAGE } from "./service.ts";

const MiB = 1024 * 1024;

async function call(url: string, headers: Record<string, string>, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  return { status: res.status, body: await res.json() };
}

describe("a resumable upload's completion cut off by a crash", () => {
  const servers: ServerProcess[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0).reverse()) await s.stop();
  });

  it("kill -9 during completion, then the artist's retry within 70 s gives exactly one track", async () => {
    // 12 MiB written at 1 MiB/s: the completion would take about 12 s on the first instance.
    const a = await startServer(
      { UPLOAD_PART_MB: "5", TEST_SLOW_WRITE_BYTES_PER_S: String(MiB) },
      undefined,
      "server/testing/slow-completion-server.ts",
    );
    servers.push(a);
    const headers = await a.headers();
    const data = new Uint8Array(12 * MiB).map((_, i) => (i * 7919) % 251);
    const started = await call(`${a.url}/api/upload/resumable`, headers, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        filename: "Crash Artist - Survivor.mp3",
        size: data.byteLength,
        directions: "label_neuropunk",
      }),
    });
    expect(started.status).toBe(201);
    const upload = started.body.upload;
    for (let n = 1; n <= upload.part_count; n++) {
      const part = data.subarray((n - 1) * upload.part_size, n * upload.part_size);
      const put = await call(`${a.url}/api/upload/resumable/${upload.id}/parts/${n}`, headers, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: part,
      });
      expect(put.status).toBe(200);
    }

    const db = await openDb({ url: `file:${a.dataDir}/app.db` });
    try {
      const session = async () => (await db.select().from(uploadSessions).where(eq(uploadSessions.id, upload.id)))[0];
      const completing = fetch(`${a.url}/api/upload/resumable/${upload.id}/complete`, { method: "POST", headers })
        .then((res) => res.status, () => "cut off");
      // The completion has claimed the upload and is writing the file; its claim is renewed while
      // it runs (the write outlasts the first claim): kill the process after a renewal.
      while ((await session()).state !== "completing") await new Promise((r) => setTimeout(r, 20));
      const first = (await session()).claimed_until!.getTime();
      while ((await session()).claimed_until!.getTime() <= first) await new Promise((r) => setTimeout(r, 100));
      expect((await session()).state).toBe("completing");
      await a.crash();
      const killedAt = Date.now();
      expect(await completing).toBe("cut off");
      const stranded = await session();
      expect(stranded.state).toBe("completing");
      // The dead instance's claim is short: it lapses within a minute of the kill.
      expect(stranded.claimed_until!.getTime() - killedAt).toBeLessThanOrEqual(COMPLETING_CLAIM_MS);

      // Another instance on the same database and disk (the same signing secret: the same session).
      const b = await startServer({ UPLOAD_PART_MB: "5" }, a.dataDir);
      servers.push(b);
      const completeOnB = () =>
        call(`${b.url}/api/upload/resumable/${upload.id}/complete`, headers, { method: "POST" });
      // While the claim holds, the retry is told the upload is being completed, and nothing is added.
      const early = await completeOnB();
      expect(early).toEqual({ status: 409, body: { success: false, error: COMPLETING_MESSAGE } });
      // Once it has lapsed (the time it names, not a guess), the retry completes the upload.
      await new Promise((r) => setTimeout(r, Math.max(0, stranded.claimed_until!.getTime() - Date.now()) + 250));
      const retried = await completeOnB();
      expect(Date.now() - killedAt).toBeLessThan(70_000);
      expect(retried.status).toBe(200);
      expect(typeof retried.body.track_id).toBe("number");
      // Asked once more (an answer lost): the same track, never a second one.
      expect(await completeOnB()).toEqual(retried);
      const rows = await db.select().from(tracks).where(
        and(eq(tracks.user_id, stranded.user_id), eq(tracks.filename, "Crash Artist - Survivor.mp3")),
      );
      expect(rows.map((r) => r.id)).toEqual([retried.body.track_id]);
      expect(rows[0].size).toBe(data.byteLength);
      expect((await session()).state).toBe("completed");
    } finally {
      db.$client.close();
    }
  }, 120_000);
});

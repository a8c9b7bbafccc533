/**
 * A 300 MB master (issue 34): checked from storage with the resident size growing by at most 64 MB,
 * and `/api/health` answered within 1 s all along. The file is a 24-bit 48 kHz WAV that plays the
 * demo over and over, written as a stream (server/testing/master-audio.ts `wavStream`). RSS is read
 * from /proc while the check runs; the answer times are those of requests sent every 100 ms.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseMaterials, releases } from "../../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/create-test-app.ts";
import { createUser, storedTrack } from "../../testing/factories.ts";
import { decodeMp3, resample, wavStream } from "../../testing/master-audio.ts";

const DEMO = decodeURIComponent(
  new URL("../../../test/fixtures/audio/fingerprint/Print Artist - Original.mp3", import.meta.url).pathname,
);
const MB = 1024 * 1024;

function rssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN) / 1024;
}

describe("a 300 MB master's check", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("keeps memory within 64 MB of growth and /api/health within 1 s", async () => {
    const artist = await createUser(t.ctx.db);
    const demo = await storedTrack(t.ctx, await Deno.readFile(DEMO), artist.id, "Print Artist - Original.mp3");
    t.ctx.processor.enqueue(demo.id);
    await t.ctx.queue.idle();
    const [release] = await t.ctx.db.insert(releases).values({
      track_id: demo.id,
      direction: "label_neuropunk",
      accepted_at: new Date(),
    }).returning();
    const pcm = resample(await decodeMp3(DEMO), 48_000);
    const { stream, size } = wavStream(pcm, 24, 300 * MB);
    await t.ctx.storage.write("ma/big-master", stream);

    // A small check first, so that what is loaded once (the decoder, the filters) is not counted.
    const small = wavStream(pcm, 24, 4 * MB);
    await t.ctx.storage.write("ma/warm-up", small.stream);
    await t.ctx.releaseMaterials.received({
      releaseId: release.id,
      kind: "instrumental",
      userId: artist.id,
      filename: "warm.wav",
      size: small.size,
      storageKey: "ma/warm-up",
    });
    await t.ctx.releaseMaterials.idle();

    const before = rssMb();
    let peak = before;
    let slowest = 0;
    let answered = 0;
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const asked = performance.now();
        const res = await t.app.request("/api/health");
        expect(res.status).toBe(200);
        await res.body?.cancel();
        slowest = Math.max(slowest, performance.now() - asked);
        answered++;
        peak = Math.max(peak, rssMb());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await t.ctx.releaseMaterials.received({
      releaseId: release.id,
      kind: "master",
      userId: artist.id,
      filename: "big.wav",
      size,
      storageKey: "ma/big-master",
    });
    await t.ctx.releaseMaterials.idle();
    probing = false;
    await probe;
    peak = Math.max(peak, rssMb());

    const [row] = await t.ctx.db.select().from(releaseMaterials).where(
      eq(releaseMaterials.storage_key, "ma/big-master"),
    );
    // The demo played over and over: far longer than the demo, so refused for its length, measured whole.
    expect(row.state).toBe("refused");
    expect((row.report as { duration_s: number }).duration_s).toBeGreaterThan(1000);
    expect(answered).toBeGreaterThan(5);
    expect(slowest).toBeLessThan(1000);
    console.log(
      `300 MB master: RSS +${(peak - before).toFixed(1)} MB, slowest health ${
        slowest.toFixed(0)
      } ms, ${answered} answers`,
    );
    expect(peak - before).toBeLessThanOrEqual(64);
  }, 300_000);
});

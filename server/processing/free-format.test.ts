/**
 * Free-format MP3s (bitrate index 0) through the upload and processing (issue 22, decision 0218):
 * music-metadata takes their headers for ADTS, so the frames our splitter confirmed are the proof
 * of MPEG layer III. The fixture is made by test/fixtures/audio/make-decoder-reach.ts.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackAnalysis, tracks } from "../../db/schema.ts";
import { AUDIO_DECODE_ERRORS } from "../audio/analyse-mp3.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { dirPart, filePart, fixture, postUpload } from "../testing/upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function processed(name: string, data: Uint8Array) {
  const user = await createUser(t.ctx.db);
  const { headers } = await signIn(t.ctx, user);
  const { res, body } = await postUpload(t, headers, [filePart(name, data), dirPart("label_koster")]);
  expect(res.status).toBe(200);
  await t.ctx.queue.idle();
  const id = body.track_ids[0] as number;
  const errors = (await (await t.app.request("/api/errors", { headers })).json()).errors as string[];
  const [track] = await t.ctx.db.select().from(tracks).where(eq(tracks.id, id));
  const [analysis] = await t.ctx.db.select().from(trackAnalysis).where(eq(trackAnalysis.track_id, id));
  return { track, analysis, errors };
}

describe("a free-format MP3", () => {
  it("is accepted: its length, rate and bitrate from its frames, and its report", async () => {
    const { track, analysis, errors } = await processed(
      "Free Artist - Free Format.mp3",
      fixture("Free Artist - Free Format.mp3"),
    );
    expect(errors).toEqual([]);
    expect(track).toMatchObject({ status: "completed", sample_rate: 44100, channels: 1, bitrate: 80000 });
    expect(track.duration).toBe(8046); // 308 frames of 1152 samples (the Info frame's count)
    expect(analysis).toMatchObject({ bitrate_kbps: 80, bitrate_mode: "cbr", sample_rate_hz: 44100 });
    expect(Math.abs(analysis.bpm! - 174)).toBeLessThanOrEqual(1);
  });

  it("at a length no standard bitrate has, is refused with what to do, not as 'not MP3'", async () => {
    // Silent MPEG-1 44.1 kHz mono frames of 300 bytes (91.9 kbps).
    const frame = new Uint8Array(300);
    frame.set([0xff, 0xfb, 0x00, 0xc4]);
    const data = new Uint8Array(frame.length * 200);
    for (let i = 0; i < 200; i++) data.set(frame, i * frame.length);
    const { track, errors } = await processed("Free Artist - Odd Rate.mp3", data);
    expect(track).toMatchObject({ status: "failed", error: AUDIO_DECODE_ERRORS.free_format });
    expect(errors).toEqual([`Free Artist - Odd Rate.mp3: ${AUDIO_DECODE_ERRORS.free_format}`]);
  });
});

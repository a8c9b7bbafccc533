import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseMp3Frames } from "../audio/analyse-mp3.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack, createUser } from "../testing/factories.ts";
import { fingerprintSegments, trackFingerprints, tracks } from "../../db/schema.ts";
import { eq } from "drizzle-orm";

const DIR = new URL("../../test/fixtures/audio/fingerprint/", import.meta.url);
async function fingerprintOf(name: string): Promise<Uint32Array> {
  const file = await Deno.open(new URL(encodeURIComponent(name), DIR));
  return (await analyseMp3Frames(file.readable)).fingerprint;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("fingerprint lookup through the segment index", () => {
  it("finds the original for every copy, by owner, and nothing for another groove", async () => {
    const fingerprints = t.ctx.processing.fingerprints;
    const artist = await createUser(t.ctx.db);
    const other = await createUser(t.ctx.db);
    // Unrelated stored tracks around it, so the index holds more than the one answer.
    for (const name of ["Print Artist - Other Groove.mp3"]) {
      const unrelated = await createTrack(t.ctx.db, { user_id: other.id });
      await fingerprints.save(unrelated.id, await fingerprintOf(name));
    }
    const original = await createTrack(t.ctx.db, { user_id: artist.id });
    await fingerprints.save(original.id, await fingerprintOf("Print Artist - Original.mp3"));

    for (
      const name of [
        "Print Artist - Copy 128.mp3",
        "Print Artist - Copy V0.mp3",
        "Print Artist - Copy 48k.mp3",
        "Print Artist - Copy Quieter.mp3",
        "Print Artist - Copy Late.mp3",
        "Someone Else - Renamed.mp3",
      ]
    ) {
      const codes = await fingerprintOf(name);
      const mine = await createTrack(t.ctx.db, { user_id: artist.id, status: "processing" });
      expect(await fingerprints.matches(mine.id, codes), name).toEqual({ sameOwner: original.id, otherOwner: null });
      const theirs = await createTrack(t.ctx.db, { user_id: other.id, status: "processing" });
      expect(await fingerprints.matches(theirs.id, codes), name).toEqual({ sameOwner: null, otherOwner: original.id });
    }

    const groove = await createTrack(t.ctx.db, { user_id: artist.id, status: "processing" });
    const unrelatedOnly = await fingerprints.matches(groove.id, await fingerprintOf("Print Artist - Copy 128.mp3"));
    expect(unrelatedOnly.otherOwner).toBeNull();
    const grooveMatches = await fingerprints.matches(groove.id, await fingerprintOf("Print Artist - Other Groove.mp3"));
    // Only the stored Other Groove itself (another owner's), never the original.
    expect(grooveMatches.sameOwner).toBeNull();
    expect(grooveMatches.otherOwner).not.toBe(original.id);
  });

  it("never matches a track that is not completed, and forgets a deleted one", async () => {
    const fingerprints = t.ctx.processing.fingerprints;
    const codes = await fingerprintOf("Print Artist - Copy V0.mp3");
    const failed = await createTrack(t.ctx.db, { status: "failed" });
    await fingerprints.save(failed.id, codes);
    const deleted = await createTrack(t.ctx.db);
    await fingerprints.save(deleted.id, codes);
    await t.ctx.db.delete(tracks).where(eq(tracks.id, deleted.id));
    expect(await t.ctx.db.select().from(fingerprintSegments).where(eq(fingerprintSegments.track_id, deleted.id)))
      .toEqual([]);
    expect(await t.ctx.db.select().from(trackFingerprints).where(eq(trackFingerprints.track_id, deleted.id)))
      .toEqual([]);
    const query = await createTrack(t.ctx.db, { status: "processing" });
    const found = await fingerprints.matches(query.id, codes);
    expect([found.sameOwner, found.otherOwner]).not.toContain(failed.id);
    expect([found.sameOwner, found.otherOwner]).not.toContain(deleted.id);
  });

  it("finds nothing for silence", async () => {
    const query = await createTrack(t.ctx.db, { status: "processing" });
    expect(await t.ctx.processing.fingerprints.matches(query.id, new Uint32Array(100))).toEqual({
      sameOwner: null,
      otherOwner: null,
    });
  });
});

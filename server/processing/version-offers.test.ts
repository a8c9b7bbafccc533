/**
 * Issue 37, the automatic offer, built on issue 38's lookup: a same-artist upload the fingerprint
 * finds to be another version of an earlier track (not the same recording) is completed and offered
 * as its new version; an identical recording stays a duplicate; another groove is neither. Fixtures:
 * test/fixtures/audio/versions/make-version-fixtures.sh (ffmpeg).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracks } from "../../db/schema.ts";
import { analyseMp3Frames } from "../audio/analyse-mp3.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createUser, signIn } from "../testing/factories.ts";
import { dirPart, filePart, fixture, postUpload } from "../testing/upload-helpers.ts";
import { PROCESSING_ERRORS } from "./analyse-track.ts";
import { versionRelation } from "./version-offers.ts";
import { OFFER_TEXTS } from "../uploads/versions.ts";

const ORIGINAL = "Long Artist - Forty Seconds.mp3";
const REMIX = "versions/Long Artist - Forty Seconds Remix.mp3";
const REENCODE = "versions/Long Artist - Forty Seconds Reencode.mp3";
const OTHER = "versions/Long Artist - Other Groove.mp3";

async function printOf(name: string) {
  return (await analyseMp3Frames(new Blob([new Uint8Array(fixture(name))]).stream())).fingerprint;
}

describe("versionRelation on the fixtures (issue 38's fingerprint)", () => {
  it("the re-mix (bass +4 dB, a new intro) is similar, the re-encode the same recording, another groove neither", async () => {
    const original = await printOf(ORIGINAL);
    expect(versionRelation(original, await printOf(REMIX))).toBe("similar");
    expect(versionRelation(original, await printOf(REENCODE))).toBe("same");
    expect(versionRelation(original, await printOf(OTHER))).toBeNull();
  });
});

describe("the offer after an upload", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DECISION_NOTIFY_HOLD_S: "0" } });
  });
  afterAll(() => t.close());

  it("offers the re-mix as a new version, refuses the re-encode as a duplicate, leaves another groove alone", async () => {
    const user = await createUser(t.ctx.db);
    const headers = (await signIn(t.ctx, user)).headers;
    const send = async (name: string, file: string) => {
      const r = await postUpload(t, headers, [filePart(name, fixture(file)), dirPart("label_koster")]);
      expect(r.res.status, JSON.stringify(r.body)).toBe(200);
      await t.ctx.queue.idle();
      return r.body.track_ids[0] as number;
    };
    const original = await send("Арт - Сорок.mp3", ORIGINAL);
    const remix = await send("Арт - Сорок ремикс.mp3", REMIX);
    const reencode = await send("Арт - Сорок копия.mp3", REENCODE);
    const other = await send("Арт - Другой.mp3", OTHER);
    const status = async (id: number) =>
      (await t.ctx.db.select({ s: tracks.status, e: tracks.error }).from(tracks).where(eq(tracks.id, id)))[0];
    expect(await status(remix)).toEqual({ s: "completed", e: null });
    expect(await status(reencode)).toEqual({ s: "failed", e: PROCESSING_ERRORS.duplicate });
    expect((await status(other)).s).toBe("completed");

    const history = async () =>
      (await (await t.app.request("/api/tracks/history", { headers })).json()).tracks as Array<{
        id: number;
        version_offer: { track_id: number; filename: string } | null;
        versions: Array<{ id: number }>;
      }>;
    const items = await history();
    expect(items.find((i) => i.id === remix)!.version_offer).toEqual({
      track_id: original,
      filename: "Арт - Сорок.mp3",
    });
    expect(items.find((i) => i.id === other)!.version_offer).toBeNull();
    expect(items.find((i) => i.id === original)!.version_offer).toBeNull();

    const take = (id: number, versionOf: number) =>
      t.app.request(`/api/tracks/${id}/version-of`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ version_of: versionOf }),
      });
    const wrong = await take(other, original);
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe(OFFER_TEXTS.noOffer);
    const stranger = await createUser(t.ctx.db);
    const theirs = await t.app.request(`/api/tracks/${remix}/version-of`, {
      method: "POST",
      headers: { ...(await signIn(t.ctx, stranger)).headers, "content-type": "application/json" },
      body: JSON.stringify({ version_of: original }),
    });
    expect(theirs.status).toBe(404);
    const ok = await take(remix, original);
    expect(ok.status).toBe(200);
    expect((await ok.json()).versions.map((v: { id: number }) => v.id)).toEqual([original, remix]);
    expect((await take(remix, original)).status).toBe(409);
    const after = await history();
    expect(after.find((i) => i.id === remix)!.version_offer).toBeNull();
    expect(after.find((i) => i.id === remix)!.versions.map((v) => v.id)).toEqual([original, remix]);
  });
});

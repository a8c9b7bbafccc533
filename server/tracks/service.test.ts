/**
 * The scope rules of the shared track service, as the moderator API (issue 7) will use them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIRECTION_CONFLICT_MESSAGE } from "../../domain/directions.ts";
import { createTestApp, type TestApp } from "../testing/create-test-app.ts";
import { createTrack } from "../testing/factories.ts";
import { trackListQuerySchema } from "./service.ts";
import { createTrackServices, type TracksService } from "../track-services.ts";

let t: TestApp;
let service: TracksService;
const all = trackListQuerySchema.parse({});

beforeAll(async () => {
  t = await createTestApp();
  service = createTrackServices(t.ctx).tracks;
});
afterAll(() => t.close());

const status = async (p: Promise<unknown>) => {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as { status?: number }).status ?? 500;
  }
};

describe("tracks service scopes", () => {
  it("shows a track when at least one direction is in scope; anything else is 404 everywhere", async () => {
    const np = await createTrack(t.ctx.db, { directions: "label_neuropunk" });
    const shared = await createTrack(t.ctx.db, { directions: "podcast_neuropunk,show_neurogon" });
    const koster = await createTrack(t.ctx.db, { directions: "label_koster" });
    const scope = ["label_koster", "show_neurogon"] as const;
    const list = await service.list(scope, all);
    expect(list.tracks.map((x) => x.id).sort()).toEqual([shared.id, koster.id].sort());
    expect(list.total).toBe(2);
    expect(await status(service.get(scope, np.id))).toBe(404);
    expect(await status(service.moderate(scope, np.id, { downloaded: true }))).toBe(404);
    expect(await status(service.remove(scope, np.id))).toBe(404);
    expect(await status(service.forDownload(scope, [np.id]))).toBe(404);
    expect(await status(service.forDownload(scope, [koster.id, np.id]))).toBe(404);
    expect((await service.list([], all)).tracks).toEqual([]);
    expect((await service.get("*", np.id)).id).toBe(np.id);
  });

  it("moderate(): directions outside the scope stay whatever the request says", async () => {
    const tr = await createTrack(t.ctx.db, { directions: "podcast_neuropunk,show_neurogon" });
    // Dropping show_neurogon and adding label_koster are both outside the scope: nothing changes.
    const same = await service.moderate(["podcast_neuropunk"], tr.id, {
      directions: ["podcast_neuropunk", "label_koster"],
    });
    expect(same.directions).toBe("podcast_neuropunk,show_neurogon");
    // An addition inside the scope still has to agree with the directions kept outside it.
    let message = "";
    try {
      await service.moderate(["podcast_neuropunk", "label_neuropunk"], tr.id, {
        directions: ["podcast_neuropunk", "label_neuropunk"],
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(DIRECTION_CONFLICT_MESSAGE);
    // Removing the moderator's own direction answers the result; the track then leaves their sight.
    const removed = await service.moderate(["podcast_neuropunk"], tr.id, { directions: [] });
    expect(removed.directions).toBe("show_neurogon");
    expect(await status(service.get(["podcast_neuropunk"], tr.id))).toBe(404);
  });

  it("moderate(): at least one direction stays, conflicts are refused, downloaded toggles", async () => {
    const tr = await createTrack(t.ctx.db, { directions: "label_koster" });
    expect(await status(service.moderate(["label_koster"], tr.id, { directions: [] }))).toBe(400);
    const both = await createTrack(t.ctx.db, { directions: "label_neuropunk" });
    let message = "";
    try {
      await service.moderate(["label_koster", "label_neuropunk"], both.id, {
        directions: ["label_neuropunk", "label_koster"],
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(DIRECTION_CONFLICT_MESSAGE);
    expect((await service.moderate(["label_koster"], tr.id, { downloaded: true })).downloaded).toBe(true);
    expect((await service.moderate(["label_koster"], tr.id, { downloaded: false })).downloaded).toBe(false);
  });
});

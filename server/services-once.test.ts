/**
 * Every service is one instance per app, on the request context (issue 21 item 2,
 * docs/decisions/0210): the routes that need the decline templates, the FAQ or the slider use
 * `ctx.declineTemplates`, `ctx.faq` and `ctx.slider`, never a copy of their own. Each test hands
 * `createApp` a context whose service answers with a marker, and every route must show it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import type { AppContext } from "./wiring.ts";
import { createTestApp, type TestApp } from "./testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "./testing/factories.ts";

let t: TestApp;
let admin: Record<string, string>;
let moderator: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signIn(t.ctx, await createUser(t.ctx.db, { is_admin: true }))).headers;
  moderator =
    (await signIn(t.ctx, await createUser(t.ctx.db, { is_moderator: true, moderator_categories: "label_koster" })))
      .headers;
});
afterAll(() => t.close());

const MARKER = {
  id: 9_001,
  title: "Маркер",
  text: "Текст из единственного экземпляра",
  outcome: "declined" as const,
  updated_at: "2026-11-25T00:00:00.000Z",
};

async function get(app: ReturnType<typeof createApp>, path: string, headers: Record<string, string>) {
  const res = await app.request(path, { headers });
  expect(res.status, path).toBe(200);
  return await res.json();
}

describe("one instance of each service per app", () => {
  it("the decline templates: both panels' lists and a decline naming a template", async () => {
    const declineTemplates: AppContext["declineTemplates"] = {
      ...t.ctx.declineTemplates,
      list: () => Promise.resolve([MARKER]),
      templateOf: (id) => Promise.resolve(id === MARKER.id ? { text: MARKER.text, outcome: MARKER.outcome } : null),
    };
    const app = createApp({ ...t.ctx, declineTemplates });
    expect((await get(app, "/api/admin/decline-templates", admin)).templates).toEqual([MARKER]);
    expect((await get(app, "/api/moderator/decline-templates", moderator)).templates).toEqual([MARKER]);

    const track = await createTrack(t.ctx.db, { directions: "label_koster" });
    const res = await app.request(`/api/moderator/tracks/${track.id}/decisions/label_koster`, {
      method: "PUT",
      headers: { ...moderator, "content-type": "application/json" },
      body: JSON.stringify({ status: "declined", template_id: MARKER.id, revision: 0 }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).decision).toMatchObject({ status: "declined", message: MARKER.text });
  });

  it("the FAQ: both panels' lists", async () => {
    const entry = { id: 9_002, question: "Маркер?", answer: "<p>Да</p>", order: 1 };
    const app = createApp({ ...t.ctx, faq: { ...t.ctx.faq, list: () => Promise.resolve([entry]) } });
    expect((await get(app, "/api/admin/faq", admin)).faqs).toEqual([entry]);
    expect((await get(app, "/api/moderator/faq", moderator)).faqs).toEqual([entry]);
  });

  it("the slider: the administrators' list", async () => {
    const tile = {
      id: 9_003,
      tile_type: "link",
      image_filename: null,
      image_url: null,
      redirect_url: "/faq",
      track_url: null,
    };
    const list = () => Promise.resolve([tile]) as ReturnType<AppContext["slider"]["list"]>;
    const app = createApp({ ...t.ctx, slider: { ...t.ctx.slider, list } });
    expect((await get(app, "/api/admin/slider", admin)).sliders).toEqual([tile]);
  });
});

// @vitest-environment happy-dom
import { hc } from "hono/client";
import { describe, expect, it } from "vitest";
import { typedClient } from "./typed-client.ts";

/** What a call sent, read from the fetch it was given. */
interface Sent {
  url: string;
  method: string;
  headers: [string, string][];
  body: string | null;
  formEntries: [string, string][] | null;
  signal: boolean;
}

function recorder() {
  const sent: Sent[] = [];
  const fetch = (input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = init.body;
    sent.push({
      url: String(input),
      method: String(init.method),
      headers: [...new Headers(init.headers)].sort(),
      body: typeof body === "string" ? body : null,
      formEntries: body instanceof FormData ? [...body].map(([k, v]) => [k, typeof v === "string" ? v : v.name]) : null,
      signal: Boolean(init.signal),
    });
    return Promise.resolve(new Response("{}"));
  };
  return { sent, fetch };
}

// Untyped on purpose: both clients are driven by the same calls, whatever the routes.
// deno-lint-ignore no-explicit-any
type Loose = any;

/** Every way the front end calls the typed client, made through hono's `hc` and through ours. */
async function calls(client: Loose, perCall: ReturnType<typeof recorder>["fetch"]) {
  await client.tracks.$get();
  await client.tracks[":id"].$get({ param: { id: "12" } });
  await client.admin.tracks.$get({ query: { page: "2", status: "", tags: ["a", "b"], gone: undefined } });
  await client.tracks[":id"]["version-of"].$post({ param: { id: "7" }, json: { version_of: 3 } });
  await client.tracks[":id"].feedback[":direction"].$put({
    param: { id: "7", direction: "label_koster" },
    json: { rating: 4, words: null },
  });
  await client.upload.$post({ form: { file: new File(["x"], "a.mp3"), directions: ["x", "y"] } });
  await client.auth.refresh.$post(undefined, { fetch: perCall, headers: { Authorization: "Bearer r" } });
  await client.admin.users[":id"].$delete({ param: { id: "5" } }, {
    fetch: perCall,
    init: { body: JSON.stringify({ a: 1 }), signal: new AbortController().signal },
  });
  await client.items[":id"].$get({ param: { id: "" }, header: { "X-One": "1" } });
  return [
    client.auth.oauth.vk.callback.$path({ query: { code: "c", state: "s" } }),
    client.releases[":id"].$path({ param: { id: "9" } }),
  ];
}

describe("typedClient", () => {
  it("sends every call as hono's hc sends it (address, method, headers, body, options)", async () => {
    const theirs = recorder();
    const ours = recorder();
    const theirPaths = await calls(hc("/api", { fetch: theirs.fetch }), theirs.fetch);
    const ourPaths = await calls(typedClient("/api", { fetch: ours.fetch }), ours.fetch);
    expect(ours.sent).toEqual(theirs.sent);
    expect(ourPaths).toEqual(theirPaths);
    expect(ours.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /api/tracks",
      "GET /api/tracks/12",
      "GET /api/admin/tracks?page=2&status=&tags=a&tags=b",
      "POST /api/tracks/7/version-of",
      "PUT /api/tracks/7/feedback/label_koster",
      "POST /api/upload",
      "POST /api/auth/refresh",
      "DELETE /api/admin/users/5",
      "GET /api/items",
    ]);
    expect(ourPaths).toEqual(["/auth/oauth/vk/callback?code=c&state=s", "/releases/9"]);
  });

  it("is not a promise, so awaiting a part of it does not call it", async () => {
    const { sent, fetch } = recorder();
    const client: Loose = typedClient("/api", { fetch });
    expect(client.tracks.then).toBeUndefined();
    const part = client.tracks;
    expect(await part).toBe(part);
    expect(sent).toEqual([]);
  });
});

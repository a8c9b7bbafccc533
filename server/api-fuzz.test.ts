import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./testing/create-test-app.ts";
import { createTrack, createUser, signIn } from "./testing/factories.ts";

/**
 * A safety net over the whole API: every declared route, called as an admin with the Big List of
 * Naughty Strings as path parameters, query values and JSON fields, answers a JSON error or a
 * success, never a 500 (a user's mistake is never a server error).
 */
const blns: string[] = JSON.parse(
  await Deno.readTextFile(new URL("../test/fixtures/naughty/blns.json", import.meta.url)),
);
// A spread of the list: every 7th string keeps the run short while covering each section.
const naughty = blns.filter((_, i) => i % 7 === 0).concat(["", " ", "-1", "0", "1e309", "null", "[]", "{}"]);

let t: TestApp;
let headers: Record<string, string>;
let routes: { method: string; path: string }[];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.ctx.db, { is_admin: true });
  headers = (await signIn(t.ctx, admin)).headers;
  await createTrack(t.ctx.db);
  const seen = new Set<string>();
  routes = t.app.routes
    .filter((r) => r.path.startsWith("/api/") && r.method !== "ALL" && !r.path.includes("*"))
    // Logout would end the admin's own session part-way through the run.
    .filter((r) => !r.path.endsWith("/auth/logout"))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
});
afterAll(() => t.close());

async function call(method: string, url: string, body?: unknown) {
  const res = await t.app.request(url, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text };
}

describe("every API route under naughty input", () => {
  it("covers the routes of every resource", () => {
    const prefixes = new Set(routes.map((r) => r.path.split("/")[2]));
    for (const p of ["auth", "profile", "upload", "status", "faq", "slider", "admin", "moderator", "downloads"]) {
      expect(prefixes.has(p)).toBe(true);
    }
  });

  it("never answers 500, and errors are JSON with success: false", async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const s of naughty) {
        const path = route.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, encodeURIComponent(s) || "x");
        const url = `${path}?q=${encodeURIComponent(s)}&page=${encodeURIComponent(s)}&period=${encodeURIComponent(s)}`;
        const body = route.method === "GET" || route.method === "DELETE" ? undefined : {
          question: s,
          answer: s,
          order: s,
          username: s,
          email: s,
          filename: s,
          directions: s,
          key_type: s,
          track_ids: [s],
          tile_type: s,
          action: s,
          tgAuthResult: s,
        };
        const { status, text } = await call(route.method, url, body);
        if (status >= 500) failures.push(`${route.method} ${url} → ${status} ${text.slice(0, 120)}`);
        else if (status >= 400 && !text.includes('"success":false')) {
          failures.push(`${route.method} ${url} → ${status} not a JSON error: ${text.slice(0, 80)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});

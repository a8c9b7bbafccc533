import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every source file under client/, tests and the replacements themselves left out. */
const REPLACEMENTS = ["client/lib/scroll-on-navigation.ts", "client/lib/no-infinite-queries.ts"];

function sources(dir = "client"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "dist" || name === "node_modules") return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !REPLACEMENTS.includes(path) ? [path] : [];
  });
}

describe("the library modules the build replaces (vite.config.ts TRIMMED, decision 0433)", () => {
  const files = sources().map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("finds the client's sources", () => {
    expect(files.some((f) => f.path.endsWith("router.tsx"))).toBe(true);
  });

  it("no page uses an infinite query, so query-core's infinite-query behaviour can be left out", () => {
    const uses = files.filter((f) =>
      /\b(use(Suspense)?InfiniteQuery|infiniteQuery(Options)?|(fetch|prefetch|ensure)InfiniteQueryData|(fetch|prefetch)InfiniteQuery)\b/
        .test(f.text)
    );
    expect(uses.map((f) => f.path)).toEqual([]);
  });

  it("the router keeps scroll restoration off, so router-core's module can be the smaller one", () => {
    const router = files.find((f) => f.path.endsWith("router.tsx"))!.text;
    expect(router).toMatch(/scrollRestoration: false,/);
    expect(files.filter((f) => /scrollRestoration: true|<ScrollRestoration|useElementScrollRestoration/.test(f.text)))
      .toEqual([]);
  });
});

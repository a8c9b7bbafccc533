/**
 * The import rules of CONVENTIONS.md, checked rather than remembered (decision 0211):
 *
 * - a client feature (client/features/<name>/) imports no other feature; features meet only in
 *   client/router.tsx, and what two features share lives in client/components/ or client/lib/;
 * - shared client code (components/, lib/) imports no feature: it flows into features, never back;
 * - client/components/ui/ is generic: it imports npm packages and its own files only, so it cannot
 *   reach the API client, the auth store or any product rule;
 * - domain/ imports nothing outside domain/ but npm packages (the server and the client both read it);
 * - no cycle among runtime imports (a type-only import is erased, so it cannot make one; nor can a
 *   dynamic `import()`, which runs after every module has loaded).
 *
 * Specifiers are read with a regular expression over the import and export statements (and
 * dynamic imports), which is enough for this code base's one-statement-per-import style.
 */
import { describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url);
const SCANNED = ["client", "domain", "server", "db"];
const IGNORED = new Set(["node_modules", "dist"]);

export interface ImportEdge {
  specifier: string;
  /** Erased at build time: `import type`, `export type`, or a list whose every name says `type`. */
  typeOnly: boolean;
  /** `import("…")`: loaded later, so it takes part in the boundary rules but not in cycles. */
  dynamic: boolean;
}

const STATIC =
  /^[ \t]*(import|export)\s+(type\s+)?((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+))\s+from\s*["']([^"']+)["']/gm;
const SIDE_EFFECT = /^[ \t]*import\s+["']([^"']+)["']/gm;
const DYNAMIC = /(typeof\s+)?\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every import and re-export of one file's text. */
export function parseImports(text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(STATIC)) {
    const clause = m[3];
    const names = /^\{([^}]*)\}$/.exec(clause.trim());
    const listed = names ? names[1].split(",").map((s) => s.trim()).filter(Boolean) : [];
    const allTypes = listed.length > 0 && listed.every((s) => s.startsWith("type "));
    edges.push({ specifier: m[4], typeOnly: Boolean(m[2]) || allTypes, dynamic: false });
  }
  for (const m of text.matchAll(SIDE_EFFECT)) edges.push({ specifier: m[1], typeOnly: false, dynamic: false });
  for (const m of text.matchAll(DYNAMIC)) edges.push({ specifier: m[2], typeOnly: Boolean(m[1]), dynamic: true });
  return edges;
}

/** Files by repository-relative path, each with its imports resolved to repository paths (npm ones kept bare). */
export type ImportGraph = Map<string, Array<ImportEdge & { target: string | null }>>;

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
  const url = new URL(specifier, new URL(from, "file:///repo/"));
  return url.pathname.slice("/repo/".length);
}

export function buildGraph(files: Record<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [path, text] of Object.entries(files)) {
    graph.set(path, parseImports(text).map((e) => ({ ...e, target: resolve(path, e.specifier) })));
  }
  return graph;
}

const featureOf = (path: string) => /^client\/features\/([^/]+)\//.exec(path)?.[1] ?? null;
const isSharedClient = (path: string) => /^client\/(components|lib)\//.test(path);

/** Every import that breaks a folder rule, as `from -> specifier: why`. */
export function boundaryProblems(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [from, edges] of graph) {
    for (const e of edges) {
      if (e.target === null) continue;
      const own = featureOf(from);
      const theirs = featureOf(e.target);
      if (own && theirs && own !== theirs) {
        problems.push(`${from} -> ${e.specifier}: feature "${own}" imports feature "${theirs}"`);
      }
      if (isSharedClient(from) && theirs) {
        problems.push(`${from} -> ${e.specifier}: shared client code imports feature "${theirs}"`);
      }
      if (from.startsWith("client/components/ui/") && !e.target.startsWith("client/components/ui/")) {
        problems.push(`${from} -> ${e.specifier}: components/ui/ imports outside components/ui/`);
      }
      if (from.startsWith("domain/") && !e.target.startsWith("domain/")) {
        problems.push(`${from} -> ${e.specifier}: domain/ imports from outside domain/`);
      }
    }
  }
  return problems;
}

/** Cycles among runtime (non-type, static) imports, each printed as `a -> b -> … -> a`. */
export function runtimeCycles(graph: ImportGraph): string[] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const e of graph.get(file) ?? []) {
      if (e.typeOnly || e.dynamic || e.target === null || !graph.has(e.target)) continue;
      const seen = state.get(e.target);
      if (seen === "open") cycles.push([...stack.slice(stack.indexOf(e.target)), e.target].join(" -> "));
      else if (seen === undefined) visit(e.target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

async function readTree(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      if (IGNORED.has(entry.name)) continue;
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(path + "/");
      else if (/\.(ts|tsx)$/.test(entry.name)) files[path] = await Deno.readTextFile(new URL(path, ROOT));
    }
  };
  for (const dir of SCANNED) await walk(dir + "/");
  return files;
}

// Two levels up, spelled so that scripts/self-contained.test.ts, which resolves every "../…" string
// against this file, does not read these made-up client paths as pointing outside the repository.
const UP2 = "../".repeat(2);

describe("the checker itself", () => {
  it("tells type-only imports from runtime ones", () => {
    const edges = parseImports([
      `import type { A } from "./a.ts";`,
      `import { type B, type C } from "./b.ts";`,
      `import { type D, e } from "./d.ts";`,
      `import F, { type G } from "./f.ts";`,
      `export type { H } from "./h.ts";`,
      `export { i } from "./i.ts";`,
      `import {\n  j,\n  k,\n} from "./j.ts";`,
      `import "./styles.css";`,
      `const page = () => import("./page.tsx");`,
      `type T = typeof import("./t.ts");`,
    ].join("\n"));
    expect(edges.map((e) => [e.specifier, e.typeOnly, e.dynamic])).toEqual([
      ["./a.ts", true, false],
      ["./b.ts", true, false],
      ["./d.ts", false, false],
      ["./f.ts", false, false],
      ["./h.ts", true, false],
      ["./i.ts", false, false],
      ["./j.ts", false, false],
      ["./styles.css", false, false],
      ["./page.tsx", false, true],
      ["./t.ts", true, true],
    ]);
  });

  it("refuses a cross-feature import, a type-only one and a lazy one too", () => {
    const graph = buildGraph({
      "client/features/admin/page.tsx": `import { X } from "../staff-review/x.ts";`,
      "client/features/upload/page.tsx": `import type { Y } from "../profile/api.ts";`,
      "client/features/faq/page.tsx": `const p = () => import("../admin/page.tsx");`,
      "client/features/admin/other.tsx":
        `import { Z } from "./page.tsx";\nimport { ui } from "${UP2}components/ui/modal.tsx";`,
    });
    expect(boundaryProblems(graph)).toEqual([
      `client/features/admin/page.tsx -> ../staff-review/x.ts: feature "admin" imports feature "staff-review"`,
      `client/features/upload/page.tsx -> ../profile/api.ts: feature "upload" imports feature "profile"`,
      `client/features/faq/page.tsx -> ../admin/page.tsx: feature "faq" imports feature "admin"`,
    ]);
  });

  it("refuses shared client code that imports a feature", () => {
    const graph = buildGraph({
      "client/lib/guards.ts": `import type { A } from "../features/admin/api.ts";`,
      "client/components/root-layout.tsx": `import { AuthOverlays } from "../features/auth/auth-overlays.tsx";`,
    });
    expect(boundaryProblems(graph)).toEqual([
      `client/lib/guards.ts -> ../features/admin/api.ts: shared client code imports feature "admin"`,
      `client/components/root-layout.tsx -> ../features/auth/auth-overlays.tsx: shared client code imports feature "auth"`,
    ]);
  });

  it("refuses a generic ui piece that reaches the API client", () => {
    const graph = buildGraph({
      "client/components/ui/toast.tsx":
        `import { useState } from "react";\nimport { read } from "${UP2}lib/api.ts";\nimport "./staff.css";`,
    });
    expect(boundaryProblems(graph)).toEqual([
      `client/components/ui/toast.tsx -> ${UP2}lib/api.ts: components/ui/ imports outside components/ui/`,
    ]);
  });

  it("refuses an import into domain/ from outside it, but not an npm package", () => {
    const graph = buildGraph({
      "domain/user.ts":
        `import { z } from "zod";\nimport { db } from "../server/db.ts";\nimport { d } from "./directions.ts";`,
    });
    expect(boundaryProblems(graph)).toEqual([
      `domain/user.ts -> ../server/db.ts: domain/ imports from outside domain/`,
    ]);
  });

  it("finds a runtime cycle and prints it, but not one closed by a type-only or dynamic import", () => {
    const cyclic = buildGraph({
      "server/a.ts": `import { b } from "./b.ts";`,
      "server/b.ts": `import { c } from "./c.ts";`,
      "server/c.ts": `import { a } from "./a.ts";`,
    });
    expect(runtimeCycles(cyclic)).toEqual(["server/a.ts -> server/b.ts -> server/c.ts -> server/a.ts"]);
    const erased = buildGraph({
      "server/a.ts": `import { b } from "./b.ts";`,
      "server/b.ts": `import type { A } from "./a.ts";\nconst late = () => import("./a.ts");`,
    });
    expect(runtimeCycles(erased)).toEqual([]);
  });
});

describe("the code base keeps its boundaries", () => {
  it("no cross-feature import, no feature import from shared code, a generic components/ui/, a self-contained domain/", async () => {
    expect(boundaryProblems(buildGraph(await readTree()))).toEqual([]);
  });

  it("no cycle among runtime imports in client, domain, server and db", async () => {
    expect(runtimeCycles(buildGraph(await readTree()))).toEqual([]);
  });
});

/**
 * The import and ownership rules of docs/CONVENTIONS.md, checked rather than remembered (decisions
 * 0211, 0315). The rules themselves are scripts/boundary-rules.ts; here each is first shown failing
 * on a made-up file map, then run over the repository:
 *
 * - a client feature (client/features/<name>/) imports no other feature; features meet only in
 *   client/router.tsx, and what two features share lives in client/components/ or client/lib/;
 * - shared client code (components/, lib/) imports no feature: it flows into features, never back;
 * - client/components/ui/ is generic: it imports npm packages and its own files only, so it cannot
 *   reach the API client, the auth store or any product rule;
 * - domain/ imports nothing outside domain/ but npm packages (the server and the client both read it);
 * - db/ imports nothing from server/ (the demo content is scripts/seed.ts);
 * - no cycle among imports, type-only ones included (a dynamic `import()` runs after every module
 *   has loaded, so it closes none);
 * - a server file writes only its own capability's tables (server/table-owners.ts);
 * - a path quoted in a comment or an error's message exists;
 * - every server folder is named in the README's Layout;
 * - a rule's constant is declared, with its value, in one non-test file.
 *
 * A few knots are known and left for the server's reshaping into capability folders (issue 33):
 * they are listed below by name, the test prints them, and it fails when one of them is gone, so
 * the lists only shrink.
 */
import { describe, expect, it } from "vitest";
import {
  boundaryProblems,
  buildGraph,
  circleThrough,
  dbImportsServer,
  duplicateRuleConstants,
  foreignTableWrites,
  importCycles,
  parseImports,
  runtimeCycles,
  stalePaths,
  tableNames,
  undeclaredTables,
  unnamedServerFolders,
} from "./boundary-rules.ts";
import { TABLE_OWNERS } from "../server/table-owners.ts";

const ROOT = new URL("../", import.meta.url);
/** The folders whose imports make the drawn structure. */
const SCANNED = ["client", "domain", "server", "db"];
/** Every folder of code, for the quoted paths and the rule constants. */
const CODE = [...SCANNED, "scripts", "bench", "e2e"];
const IGNORED = new Set(["node_modules", "dist"]);

async function readTree(dirs = SCANNED): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      if (IGNORED.has(entry.name)) continue;
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(path + "/");
      else if (/\.(ts|tsx)$/.test(entry.name)) files[path] = await Deno.readTextFile(new URL(path, ROOT));
    }
  };
  for (const dir of dirs) await walk(dir + "/");
  return files;
}

async function serverFolders(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      if (!entry.isDirectory || IGNORED.has(entry.name) || entry.name.startsWith(".")) continue;
      out.push(`${dir}${entry.name}`);
      await walk(`${dir}${entry.name}/`);
    }
  };
  await walk("server/");
  return out.sort();
}

function exists(path: string): boolean {
  try {
    Deno.statSync(new URL(path, ROOT));
    return true;
  } catch {
    return false;
  }
}

/**
 * The known knots, each to be emptied by the server's reshaping (issue 33), never added to. The
 * circle is named by one file it runs through: the services' types are imported by server/deps.ts
 * and they import `AppContext` back from it.
 */
export const KNOWN_TYPE_CIRCLES_THROUGH: string[] = [];
/** The size of that circle on 2026-11-29; it may shrink (lower this), never grow. */
export const KNOWN_TYPE_CIRCLE_MAX_FILES = 0;
export const KNOWN_FOREIGN_WRITES: string[] = [];
export const KNOWN_STALE_PATHS: string[] = [];
export const KNOWN_DUPLICATE_CONSTANTS: string[] = [];

/** The problems found minus the known ones; fails if a known one is no longer found. */
function beyondKnown(found: string[], known: string[], what: string, print = true): string[] {
  if (print && found.length > 0) console.log(`${what}, found now:\n  ${found.join("\n  ")}`);
  expect(known.filter((k) => !found.includes(k)), `${what}: listed as known but gone; take them off the list`)
    .toEqual([]);
  return found.filter((f) => !known.includes(f));
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

// Comment and error markers spelled so that this file's own text quotes no made-up path.
const SL = "/".repeat(2);
const ERR = "Error";
const SCHEMA = [
  `export const users = sqliteTable("users", {});`,
  `export const tracks = sqliteTable("tracks", {});`,
  `export const faqs = sqliteTable("faqs", {});`,
].join("\n");
const OWNERS = { users: ["users"], tracks: ["tracks"], faq: ["faqs"] };

describe("the checker's knot rules", () => {
  it("finds a circle closed only by type imports, and not one closed by a lazy import", () => {
    const typed = buildGraph({
      "server/deps.ts": `import type { UsersService } from "./users/service.ts";`,
      "server/users/service.ts": `import type { AppContext } from "../deps.ts";\nimport { z } from "zod";`,
      "server/faq/service.ts": `import type { AppContext } from "../deps.ts";`,
    });
    expect(runtimeCycles(typed)).toEqual([]);
    const circles = importCycles(typed);
    expect(circles).toEqual([["server/deps.ts", "server/users/service.ts"]]);
    expect(circleThrough(typed, circles[0], "server/deps.ts")).toBe(
      "server/deps.ts -> server/users/service.ts -> server/deps.ts",
    );
    const lazy = buildGraph({
      "client/router.tsx": `import { guard } from "./lib/guards.ts";`,
      "client/lib/guards.ts": `const r = () => import("../router.tsx");`,
    });
    expect(importCycles(lazy)).toEqual([]);
  });

  it("refuses db/ importing server/, a type import or a lazy one too", () => {
    const graph = buildGraph({
      "db/seed.ts": `import { createLocalStorage } from "../server/storage/file-storage.ts";`,
      "db/client.ts": `import type { Config } from "../server/config.ts";\nimport * as schema from "./schema.ts";`,
      "db/other.ts": `const c = await import("../server/config.ts");\nimport { x } from "../domain/review.ts";`,
      "scripts/seed.ts": `import { createLocalStorage } from "../server/storage/file-storage.ts";`,
    });
    expect(dbImportsServer(graph)).toEqual([
      "db/seed.ts -> ../server/storage/file-storage.ts",
      "db/client.ts -> ../server/config.ts",
      "db/other.ts -> ../server/config.ts",
    ]);
  });

  it("refuses a capability writing another's table, by drizzle or raw SQL, but not reading it", () => {
    const tables = tableNames(SCHEMA);
    const files = {
      "server/users/service.ts": [
        `await db.update(users).set({ name });`,
        `db.update(tracks).set({ guest_username: username }).where(eq(tracks.user_id, id));`,
        `const rows = await db.select().from(tracks).where(eq(tracks.user_id, id));`,
      ].join("\n"),
      "server/faq/service.ts": `await db.run(sql\`DELETE FROM tracks WHERE id = \${id}\`);`,
      "server/intake/sweep.ts": `await db.run(sql\`UPDATE \${schema.tracks} SET status = 'declined'\`);`,
      "server/slider/service.ts": `const t = users;\nawait db.insert(t).values(row);`,
      "server/app.ts": `await db.delete(faqs);`,
      "server/tracks/service.ts": `await db.insert(tracks).values(row);`,
      "server/testing/factories.ts": `await db.insert(users).values(row);`,
      "server/users/service.test.ts": `await db.insert(tracks).values(row);`,
    };
    expect(foreignTableWrites(files, tables, OWNERS)).toEqual([
      "server/app.ts writes faqs (owned by faq)",
      "server/faq/service.ts writes tracks (owned by tracks)",
      "server/intake/sweep.ts writes tracks (owned by tracks)",
      "server/slider/service.ts writes users (owned by users)",
      "server/users/service.ts writes tracks (owned by tracks)",
    ]);
    expect(undeclaredTables(tables, { users: ["users"], tracks: ["tracks", "gone"] })).toEqual([
      "faqs: in db/schema.ts, owned by no capability",
      "gone: declared as owned, not in db/schema.ts",
    ]);
  });

  it("refuses a stale path in a comment or an error's message, and a conventions file without its folder", () => {
    const files = {
      "server/app.ts": `${SL} The fast lanes are server/lib/lanes.ts; see docs/decisions/0123-x.md.`,
      "server/http/lanes.ts": `throw new ${ERR}(\`lane missing: add it (server/lib/lanes.ts)\`);`,
      "client/lib/format.ts": `${SL} The one date formatter (CONVENTIONS rule 13).`,
      "server/ok.ts": [
        `${SL} See server/http/lanes.ts and docs/CONVENTIONS.md rule 8.`,
        `const route = "server/not-a-comment.ts";`,
      ].join("\n"),
    };
    const real = new Set(["server/http/lanes.ts", "docs/CONVENTIONS.md"]);
    expect(stalePaths(files, (p) => real.has(p))).toEqual([
      "client/lib/format.ts: CONVENTIONS (the conventions are docs/CONVENTIONS.md)",
      "server/app.ts: server/lib/lanes.ts",
      "server/app.ts: docs/decisions/0123-x.md",
      "server/http/lanes.ts: server/lib/lanes.ts",
    ]);
  });

  it("refuses a server folder the README's Layout does not name", () => {
    const readme = [
      "# App",
      "## Layout",
      "```",
      "server/          Hono app",
      "  http/          answers",
      "  notifications/ the outbox; telegram-desk/: the cards",
      "scripts/         test runner",
      "```",
    ].join("\n");
    const folders = [
      "server/http",
      "server/notifications",
      "server/notifications/telegram-desk",
      "server/notifications/telegram-updates",
      "server/health",
      "server/scripts",
    ];
    expect(unnamedServerFolders(readme, folders)).toEqual([
      "server/health",
      "server/notifications/telegram-updates",
      "server/scripts",
    ]);
  });

  it("refuses a rule constant declared with its value in two non-test files", () => {
    const files = {
      "domain/listening.ts": `export const HEARD_MIN_S = 20;`,
      "server/review/listening.ts": `const HEARD_MIN_S = 20;`,
      "domain/review.ts": `export const DAY_MS = 86_400_000;\nexport const OVERDUE_AFTER_DAYS = 14;`,
      "server/intake/rules.ts": `export { DAY_MS } from "${UP2}domain/review.ts";\nconst x = DAY_MS * 2;`,
      "server/tracks/views.test.ts": `const DAY_MS = 86_400_000;`,
      "e2e/artist-pages.e2e.ts": `const DAY_MS = 86_400_000;`,
      "domain/intake-rules.ts": `export const INTAKE_DEFAULTS = { tempo_min: 160, tempo_max: 190, promise_days: 14 };`,
      "server/audio/tempo.ts": `export const DNB_MIN_BPM = INTAKE_DEFAULTS.tempo_min;\nconst SEARCH_MAX_BPM = 160;`,
      "db/schema.ts": `tempo_max: real("tempo_max").notNull().default(190),`,
    };
    expect(duplicateRuleConstants(files)).toEqual([
      "HEARD_MIN_S (the listen threshold): domain/listening.ts",
      "HEARD_MIN_S (the listen threshold): server/review/listening.ts",
      "the tempo window (160–190 BPM): db/schema.ts",
      "the tempo window (160–190 BPM): domain/intake-rules.ts",
      "the response promise's default days: domain/intake-rules.ts",
      "the response promise's default days: domain/review.ts",
    ]);
  });

  it("keeps a known knot only while it exists", () => {
    expect(beyondKnown(["a", "b"], ["a"], "made-up knots", false)).toEqual(["b"]);
    expect(() => beyondKnown(["b"], ["a"], "made-up knots", false)).toThrow(/listed as known but gone/);
  });
});

describe("the code base keeps its boundaries", () => {
  it("no cross-feature import, no feature import from shared code, a generic components/ui/, a self-contained domain/", async () => {
    expect(boundaryProblems(buildGraph(await readTree()))).toEqual([]);
  });

  it("no cycle among runtime imports in client, domain, server and db", async () => {
    expect(runtimeCycles(buildGraph(await readTree()))).toEqual([]);
  });

  it("no cycle among imports, type-only ones included, but the known one through server/deps.ts", async () => {
    const graph = buildGraph(await readTree());
    const circles = importCycles(graph);
    for (const group of circles) {
      const anchor = group.find((f) => KNOWN_TYPE_CIRCLES_THROUGH.includes(f)) ?? group[0];
      console.log(`an import circle of ${group.length} files, e.g. ${circleThrough(graph, group, anchor)}:`);
      console.log(`  ${group.join(" ")}`);
    }
    expect(KNOWN_TYPE_CIRCLES_THROUGH.filter((f) => !circles.some((g) => g.includes(f))), "known but gone")
      .toEqual([]);
    expect(circles.filter((g) => !g.some((f) => KNOWN_TYPE_CIRCLES_THROUGH.includes(f)))).toEqual([]);
    const known = circles.filter((g) => g.some((f) => KNOWN_TYPE_CIRCLES_THROUGH.includes(f)));
    expect(Math.max(...known.map((g) => g.length)), "the known circle grew").toBeLessThanOrEqual(
      KNOWN_TYPE_CIRCLE_MAX_FILES,
    );
  });

  it("db/ imports nothing from server/", async () => {
    expect(dbImportsServer(buildGraph(await readTree()))).toEqual([]);
  });

  it("every table has one owner, and a server file writes only its own capability's tables", async () => {
    const files = await readTree(["server"]);
    const tables = tableNames(await Deno.readTextFile(new URL("db/schema.ts", ROOT)));
    expect(undeclaredTables(tables, TABLE_OWNERS)).toEqual([]);
    const writes = foreignTableWrites(files, tables, TABLE_OWNERS);
    expect(beyondKnown(writes, KNOWN_FOREIGN_WRITES, "writes to another capability's table")).toEqual([]);
  });

  it("every path quoted in a comment or an error's message exists", async () => {
    const stale = stalePaths(await readTree(CODE), exists);
    expect(beyondKnown(stale, KNOWN_STALE_PATHS, "stale quoted paths")).toEqual([]);
  });

  it("the README's Layout names every server folder", async () => {
    const readme = await Deno.readTextFile(new URL("README.md", ROOT));
    expect(unnamedServerFolders(readme, await serverFolders())).toEqual([]);
  });

  it("each rule constant is declared in one non-test file", async () => {
    const twice = duplicateRuleConstants(await readTree(CODE));
    expect(beyondKnown(twice, KNOWN_DUPLICATE_CONSTANTS, "rule constants declared twice")).toEqual([]);
  });
});

/**
 * The knots scripts/boundaries.test.ts looks for besides the folder rules (issue 33), as pure
 * functions over a map of repository-relative paths to file texts, so that each rule can be shown
 * failing on a made-up case and then run over the real tree:
 *
 * - `importCycles`: every circle among imports, type-only ones included (a type import is erased at
 *   build time, but the reader and the type checker still walk it); a lazy `import()` is left out;
 * - `dbImportsServer`: db/ (the schema and its client) never imports server/;
 * - `foreignTableWrites`: a server file writes only the tables its capability owns (owners declared
 *   in server/table-owners.ts): drizzle `.insert(t)`, `.update(t)`, `.delete(t)` and raw SQL
 *   `INSERT INTO`, `UPDATE … SET`, `DELETE FROM` naming a table or interpolating one;
 * - `stalePaths`: a path quoted in a code comment or in an error's message names a file that exists;
 * - `unnamedServerFolders`: every folder under server/ is named in the README's Layout;
 * - `duplicateRuleConstants`: a rule's constant is declared with its value in one non-test file.
 */
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

/** The strongly connected groups of the graph (two or more files, or one importing itself), sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const targets = (file: string) =>
    (graph.get(file) ?? [])
      .filter((e) => !(e.dynamic && !e.typeOnly) && e.target !== null && graph.has(e.target))
      .map((e) => e.target!);
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const t of targets(file)) {
      if (!index.has(t)) {
        visit(t);
        low.set(file, Math.min(low.get(file)!, low.get(t)!));
      } else if (onStack.has(t)) low.set(file, Math.min(low.get(file)!, index.get(t)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let f: string;
      do {
        f = stack.pop()!;
        onStack.delete(f);
        group.push(f);
      } while (f !== file);
      if (group.length > 1 || targets(file).includes(file)) groups.push(group.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One shortest circle through `file` inside its group, printed `a -> b -> … -> a` (for the report). */
export function circleThrough(graph: ImportGraph, group: string[], file: string): string {
  const inGroup = new Set(group);
  const prev = new Map<string, string>();
  const queue = [file];
  const seen = new Set([file]);
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const e of graph.get(at) ?? []) {
      if (e.target === null || !inGroup.has(e.target) || (e.dynamic && !e.typeOnly)) continue;
      if (e.target === file) {
        const path = [at];
        while (path[0] !== file) path.unshift(prev.get(path[0])!);
        return [...path, file].join(" -> ");
      }
      if (!seen.has(e.target)) {
        seen.add(e.target);
        prev.set(e.target, at);
        queue.push(e.target);
      }
    }
  }
  return file;
}

/** Every import from db/ into server/, as `from -> specifier`. */
export function dbImportsServer(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [from, edges] of graph) {
    if (!from.startsWith("db/")) continue;
    for (const e of edges) if (e.target?.startsWith("server/")) problems.push(`${from} -> ${e.specifier}`);
  }
  return problems;
}

/** `export const tracks = sqliteTable("tracks", …)` in db/schema.ts: the schema's names to the tables'. */
export function tableNames(schema: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of schema.matchAll(/export\s+const\s+([\w$]+)\s*=\s*sqliteTable\(\s*["']([\w]+)["']/g)) {
    names.set(m[1], m[2]);
  }
  return names;
}

/** Tests, their kits and the end-to-end folder (its harness is test code too). */
const isTest = (path: string) =>
  /\.(test|e2e)\.tsx?$/.test(path) || path.startsWith("server/testing/") || path.startsWith("e2e/");

/** The capability a server file belongs to: its first folder under server/ (null for server/*.ts). */
export const capabilityOf = (path: string) => /^server\/([^/]+)\//.exec(path)?.[1] ?? null;

/** The tables one file's text writes, by table name. */
export function tablesWritten(text: string, tables: Map<string, string>): string[] {
  const written = new Set<string>();
  const known = new Set(tables.values());
  // A table given a short name first (`const t = telegramOutbox;`) is written under that name.
  const names = new Map(tables);
  for (const m of text.matchAll(/\bconst\s+([\w$]+)\s*=\s*(?:[\w$]+\.)?([\w$]+)\s*;/g)) {
    const table = tables.get(m[2]);
    if (table) names.set(m[1], table);
  }
  for (const m of text.matchAll(/\.(?:insert|update|delete)\(\s*(?:[\w$]+\.)?([\w$]+)\s*[,)]/g)) {
    const table = names.get(m[1]);
    if (table) written.add(table);
  }
  const raw =
    /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(?:\$\{\s*(?:[\w$]+\.)?([\w$]+)\s*\}|"?(\w+)"?)/g;
  for (const m of text.matchAll(raw)) {
    const table = m[1] !== undefined ? names.get(m[1]) : m[2];
    if (table && known.has(table)) written.add(table);
  }
  return [...written].sort();
}

/**
 * Every write by a non-test server file to a table another capability owns, or to a table nobody
 * declared, as `file writes table (owned by x)`. A file directly in server/ (app.ts, wiring.ts)
 * belongs to no capability and may write nothing.
 */
export function foreignTableWrites(
  files: Record<string, string>,
  tables: Map<string, string>,
  owners: Record<string, readonly string[]>,
): string[] {
  const ownerOf = new Map<string, string>();
  for (const [capability, owned] of Object.entries(owners)) for (const t of owned) ownerOf.set(t, capability);
  const problems: string[] = [];
  for (const [path, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    if (!path.startsWith("server/") || isTest(path)) continue;
    const own = capabilityOf(path);
    for (const table of tablesWritten(text, tables)) {
      const owner = ownerOf.get(table);
      if (owner === own) continue;
      problems.push(`${path} writes ${table} (${owner ? `owned by ${owner}` : "owned by no capability"})`);
    }
  }
  return problems;
}

/** Every table of the schema with no owner, and every declared table the schema lacks. */
export function undeclaredTables(tables: Map<string, string>, owners: Record<string, readonly string[]>): string[] {
  const declared = new Set(Object.values(owners).flat());
  const inSchema = new Set(tables.values());
  return [
    ...[...inSchema].filter((t) => !declared.has(t)).map((t) => `${t}: in db/schema.ts, owned by no capability`),
    ...[...declared].filter((t) => !inSchema.has(t)).map((t) => `${t}: declared as owned, not in db/schema.ts`),
  ].sort();
}

const ROOTS = "server|client|domain|db|scripts|bench|e2e|docs|test|static";
const PATH = new RegExp(
  `(?<![\\w./-])(?:${ROOTS})/[\\w.@-]+(?:/[\\w.@-]+)*\\.(?:tsx?|md|json|css|html|sql|mp3)\\b`,
  "g",
);
/** A conventions file named without its folder: the repository's one is docs/CONVENTIONS.md. */
const BARE_CONVENTIONS = /(?<![\w/.-])CONVENTIONS(?:\.md)?\b/g;

/** The comments of a file and the messages of the errors it makes (`new …Error(…)`, `error: "…"`). */
export function quotedText(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)) out.push(m[0]);
  for (
    const m of text.matchAll(/\b(?:new\s+\w*Error|error\s*:|console\.error)\s*\(?\s*(`[^`]*`|"[^"\n]*"|'[^'\n]*')/g)
  ) {
    out.push(m[1]);
  }
  return out;
}

/** Every path quoted in a comment or an error's message that does not exist, as `file: path`. */
export function stalePaths(files: Record<string, string>, exists: (path: string) => boolean): string[] {
  const problems = new Set<string>();
  for (const [path, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    for (const quoted of quotedText(text)) {
      for (const m of quoted.matchAll(PATH)) if (!exists(m[0])) problems.add(`${path}: ${m[0]}`);
      for (const m of quoted.matchAll(BARE_CONVENTIONS)) {
        problems.add(`${path}: ${m[0]} (the conventions are docs/CONVENTIONS.md)`);
      }
    }
  }
  return [...problems];
}

/**
 * Every folder under server/ whose name the README's Layout does not give as `name/` below the top
 * level (an entry at the start of a line is a top-level folder of the repository, such as scripts/).
 */
export function unnamedServerFolders(readme: string, folders: string[]): string[] {
  const layout = /## Layout\s+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const named = new Set<string>();
  for (const line of layout.split("\n")) {
    for (const m of line.matchAll(/(?<=\s|^|\()([\w.-]+)\/(?=[\s,:;)]|$)/g)) {
      if ((m.index ?? 0) > 0) named.add(m[1]);
    }
  }
  return folders.filter((f) => f.startsWith("server/") && !named.has(f.split("/").at(-1)!)).sort();
}

/** A rule whose constant must be declared, with its value, in one non-test file. */
export interface RuleConstant {
  rule: string;
  /** Matches one declaration with a literal value (a name given another constant is not one). */
  declared: RegExp;
}

export const RULE_CONSTANTS: RuleConstant[] = [
  { rule: "HEARD_MIN_S (the listen threshold)", declared: /\b(?:const|let|var)\s+HEARD_MIN_S\s*=\s*[\d(]/ },
  { rule: "DAY_MS (a day in milliseconds)", declared: /\b(?:const|let|var)\s+DAY_MS\s*=\s*[\d(]/ },
  {
    rule: "the tempo window (160–190 BPM)",
    declared:
      /\b(?:(?:const|let|var)\s+DNB_M(?:IN|AX)_BPM\s*=\s*\d|tempo_m(?:in|ax)\b[^\n]*?(?::\s*|\.default\()(?:160|190)\b)/,
  },
  {
    rule: "the response promise's default days",
    declared:
      /\b(?:(?:const|let|var)\s+(?:OVERDUE_AFTER_DAYS|PROMISE_DAYS\w*)\s*=\s*\d|promise_days\b[^\n]*?(?::\s*|\.default\()\d)/,
  },
];

/** For each rule declared in more than one non-test file: `rule: file` for every declaring file. */
export function duplicateRuleConstants(files: Record<string, string>, rules = RULE_CONSTANTS): string[] {
  const problems: string[] = [];
  for (const { rule, declared } of rules) {
    const where = Object.entries(files)
      .filter(([path, text]) => !isTest(path) && /\.tsx?$/.test(path) && declared.test(text))
      .map(([path]) => path)
      .sort();
    if (where.length > 1) { for (const path of where) problems.push(`${rule}: ${path}`); }
  }
  return problems;
}

/**
 * What the server's folders promise (decision 0212), checked instead of remembered:
 * - `server/lib/` holds generic helpers only: its modules import nothing of the repository outside
 *   `server/lib/` (no resource, table, HTTP policy, storage or status store; tests may use the kits);
 * - only `server/http/deno-header-list.ts` reaches into Deno's internal header list;
 * - every file the README's Layout section names is where it says.
 */
import { describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url);

/** Tracked-looking source files under `dir` (relative to the repository), node_modules left out. */
async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(new URL(rel, ROOT))) {
      const path = `${rel}${e.name}`;
      if (e.isDirectory) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) await walk(`${path}/`);
      } else if (/\.tsx?$/.test(e.name)) out.push(path);
    }
  };
  await walk(dir.endsWith("/") ? dir : `${dir}/`);
  return out.sort();
}

/** Relative module specifiers of a file (static imports, re-exports, dynamic imports). */
function relativeImports(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']+)\1/g)) {
    specs.push(m[2]);
  }
  return specs;
}

/** `spec` imported from `file`, as a path relative to the repository. */
function resolve(file: string, spec: string): string {
  return new URL(spec, new URL(file, ROOT)).pathname.slice(ROOT.pathname.length);
}

describe("server/lib", () => {
  it("holds generic helpers: no module imports anything outside server/lib", async () => {
    const outside: string[] = [];
    for (const file of await sourceFiles("server/lib")) {
      for (const spec of relativeImports(await Deno.readTextFile(new URL(file, ROOT)))) {
        const target = resolve(file, spec);
        // A helper's test may use the test kits.
        const kit = file.endsWith(".test.ts") && target.startsWith("server/testing/");
        if (!target.startsWith("server/lib/") && !kit) outside.push(`${file} imports ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });
});

describe("server/http", () => {
  it("has one module that reaches into Deno's header list", async () => {
    const reaching: string[] = [];
    for (const file of [...await sourceFiles("server"), ...await sourceFiles("bench")]) {
      if (file.endsWith(".test.ts")) continue;
      if ((await Deno.readTextFile(new URL(file, ROOT))).includes('"header list"')) reaching.push(file);
    }
    expect(reaching).toEqual(["server/http/deno-header-list.ts"]);
  });
});

describe("the README's Layout section", () => {
  it("names only files that are in the folder it lists them under", async () => {
    const readme = await Deno.readTextFile(new URL("README.md", ROOT));
    const layout = /## Layout\s+```\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(layout, "README.md has a Layout section in a code block").toBeTruthy();
    const files = [
      ...await sourceFiles("server"),
      ...await sourceFiles("client"),
      ...await sourceFiles("domain"),
      ...await sourceFiles("db"),
      ...await sourceFiles("scripts"),
      ...await sourceFiles("e2e"),
      ...await sourceFiles("bench"),
    ];
    const missing: string[] = [];
    let top = "";
    let folders: string[] = [];
    for (const line of layout!.split("\n")) {
      // An entry starts with its folder names in the first column (top level) or after two spaces.
      const entry = /^( {0,2})((?:[\w.-]+\/ )*[\w.-]+\/)\s/.exec(line);
      if (entry) {
        const names = entry[2].split(" ");
        if (entry[1] === "") {
          top = names[0];
          folders = [top];
        } else folders = names.map((n) => `${top}${n}`);
      }
      for (const m of line.matchAll(/[\w./-]+\.tsx?\b/g)) {
        const name = m[0];
        // A name is found under the entry's folders, as a path from the root, or as a file of the
        // entry's top folder (a subfolder's line may speak of server/app.ts as app.ts).
        const found = files.some((f) =>
          f === name || f === `${top}${name}` ||
          folders.some((dir) => f.startsWith(dir) && (f === `${dir}${name}` || f.endsWith(`/${name}`)))
        );
        if (!found) missing.push(`${name} (under ${folders.join(" ")})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/**
 * A person who clones the repository has nothing beside it, so no source, test, bench or script may
 * reach outside the repository's root for a file (the fixtures live in test/fixtures).
 */
import { describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url);
const SOURCE_DIRS = ["server", "db", "domain", "client", "scripts", "bench", "e2e"];
const IGNORED = new Set(["node_modules", "dist"]);
// Spelled in pieces so this file does not name the folder it looks for.
const SIBLING_NAME = ["..", "sha" + "red", ""].join("/");
const SIBLING_FOLDER = new RegExp(SIBLING_NAME.replaceAll(".", "\\.").replaceAll("/", "\\/"));

async function* sourceFiles(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    if (IGNORED.has(entry.name)) continue;
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) yield url;
  }
}

/** Resolves every relative `new URL("…", import.meta.url)` and `../…` string in a file against it. */
function escapingPaths(file: URL, text: string): string[] {
  const root = ROOT.pathname;
  const found: string[] = [];
  for (const m of text.matchAll(/["'`]((?:\.\.\/)+[^"'`\s]*)["'`]/g)) {
    const target = new URL(m[1], file).pathname;
    if (!target.startsWith(root)) found.push(m[1]);
  }
  // Comments too: a pointer to the sibling folder names a document the reader of a clone does not have.
  if (SIBLING_FOLDER.test(text)) found.push(SIBLING_NAME);
  return found;
}

describe("the repository is self-contained", () => {
  it("no file under server, db, client, scripts, bench or e2e points outside the repository", async () => {
    const offenders: string[] = [];
    for (const dir of SOURCE_DIRS) {
      for await (const file of sourceFiles(new URL(dir + "/", ROOT))) {
        const paths = escapingPaths(file, await Deno.readTextFile(file));
        if (paths.length) offenders.push(`${file.pathname.slice(ROOT.pathname.length)}: ${paths.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the fixtures the tests name are in test/fixtures", async () => {
    for (
      const name of [
        "audio/Test Artist - Amen Study.mp3",
        "audio/Low Rate - 128 kbps.mp3",
        "naughty/blns.json",
        "naughty/LICENSE",
      ]
    ) {
      const info = await Deno.stat(new URL(`test/fixtures/${name}`, ROOT));
      expect(info.size).toBeGreaterThan(0);
    }
  });
});

/**
 * No server function over 150 lines outside tests (issue 33): server/, domain/ and db/ parsed with
 * the TypeScript compiler (scripts/function-length.ts), test files and server/testing/ left out.
 * First the rule on made-up sources, then over the repository.
 *
 * The track code is being cut into capability folders while this check lands; its long functions
 * are listed below by name and line count is not pinned: the list may only shrink, and the test
 * fails when a listed function no longer runs past the limit (take it off) or a new one does.
 */
import { describe, expect, it } from "vitest";
import { allLongFunctions, isMeasured, longFunctions, MAX_FUNCTION_LINES } from "./function-length.ts";

const ROOT = new URL("../", import.meta.url);
const SCANNED = ["server", "domain", "db"];

/** Long functions of the track code, left for its split into capability folders (issue 33). */
export const KNOWN_LONG_FUNCTIONS: string[] = [];
/** Only the track code (and the folders being made from it) may hold a known long function. */
const TRACK_CODE = /^server\/(tracks|uploads|processing|review|artist)\//;

async function readTree(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (/\.tsx?$/.test(entry.name)) files[path] = await Deno.readTextFile(new URL(path, ROOT));
    }
  };
  for (const dir of SCANNED) await walk(`${dir}/`);
  return files;
}

/** `n` lines of statements. */
const body = (n: number, indent = "  ") =>
  Array.from({ length: n }, (_, i) => `${indent}const v${i} = ${i};`).join("\n");

describe("the function-length rule", () => {
  it("measures declarations, arrows, methods and closures from first line to last", () => {
    // 1 line of header + n lines of body + 1 closing line.
    const src = [
      `export function short() {\n${body(10)}\n}`,
      `export function exactly() {\n${body(MAX_FUNCTION_LINES - 2)}\n}`,
      `export function over() {\n${body(MAX_FUNCTION_LINES - 1)}\n}`,
      `export const arrow = () => {\n${body(200)}\n};`,
      `export class Store {\n  method() {\n${body(160, "    ")}\n  }\n}`,
      `export function outer() {\n  const inner = function () {\n${body(155, "    ")}\n  };\n  return inner;\n}`,
      `export const service = {\n  run: async () => {\n${body(151, "    ")}\n  },\n};`,
      `queue.push(() => {\n${body(151)}\n});`,
    ].join("\n");
    expect(longFunctions("x.ts", src)).toEqual([
      { key: "x.ts#over", lines: MAX_FUNCTION_LINES + 1 },
      { key: "x.ts#arrow", lines: 202 },
      { key: "x.ts#method", lines: 162 },
      { key: "x.ts#outer", lines: 160 },
      { key: "x.ts#outer.inner", lines: 157 },
      { key: "x.ts#run", lines: 153 },
      { key: "x.ts#queue.push(callback)", lines: 153 },
    ]);
  });

  it("is not fooled by braces in strings, templates, regular expressions or comments", () => {
    const tricky = [
      `  const a = "}}}";`,
      "  const b = `${'}'} } {`;",
      `  const c = /[}{]+/g;`,
      `  // }`,
      `  /* } */`,
    ].join("\n");
    const src = `export function f() {\n${tricky}\n${body(MAX_FUNCTION_LINES - 6)}\n}\nexport function g() {}`;
    expect(longFunctions("y.ts", src)).toEqual([{ key: "y.ts#f", lines: MAX_FUNCTION_LINES + 1 }]);
    expect(longFunctions("y.ts", src.replace(`${tricky}\n`, ""))).toEqual([]);
  });

  it("leaves out tests and the test kits", () => {
    const long = `export function f() {\n${body(200)}\n}`;
    expect(isMeasured("server/a.test.ts")).toBe(false);
    expect(isMeasured("server/testing/app.ts")).toBe(false);
    expect(isMeasured("server/a.ts")).toBe(true);
    expect(allLongFunctions({ "server/a.test.ts": long, "server/testing/kit.ts": long, "server/b.ts": long }))
      .toEqual([{ key: "server/b.ts#f", lines: 202 }]);
  });
});

describe("the repository", () => {
  it(`has no server function over ${MAX_FUNCTION_LINES} lines outside the known track code`, async () => {
    const found = allLongFunctions(await readTree());
    if (found.length > 0) {
      console.log(
        `functions over ${MAX_FUNCTION_LINES} lines:\n  ${found.map((f) => `${f.key} (${f.lines})`).join("\n  ")}`,
      );
    }
    const keys = found.map((f) => f.key);
    expect(KNOWN_LONG_FUNCTIONS.filter((k) => !TRACK_CODE.test(k)), "only track code may be listed").toEqual([]);
    expect(KNOWN_LONG_FUNCTIONS.filter((k) => !keys.includes(k)), "listed but no longer long: take it off")
      .toEqual([]);
    expect(keys.filter((k) => !KNOWN_LONG_FUNCTIONS.includes(k)), "over the limit").toEqual([]);
  });
});

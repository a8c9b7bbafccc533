/**
 * Which source modules the public chunks are made of: builds the client with source maps, takes the
 * chunks `bench bundle` counts as public, and attributes each chunk's minified bytes to the modules
 * its source map names (gzip shared out in proportion).
 *
 *   deno run -A bench/bundle-modules.ts [--top N] [--json FILE]
 */
import { parseArgs } from "node:util";
import { build } from "vite";
import { type ManifestChunk, publicChunks } from "./public-chunks.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decodes a source map's `mappings` into, per generated line, [column, sourceIndex | -1] pairs. */
function decodeMappings(mappings: string): [number, number][][] {
  const lines: [number, number][][] = [];
  let src = 0;
  for (const line of mappings.split(";")) {
    const segs: [number, number][] = [];
    let col = 0;
    for (const seg of line.split(",")) {
      if (!seg) continue;
      const vals: number[] = [];
      let shift = 0, value = 0;
      for (const ch of seg) {
        const d = B64.indexOf(ch);
        value += (d & 31) << shift;
        if (d & 32) shift += 5;
        else {
          vals.push(value & 1 ? -(value >>> 1) : value >>> 1);
          shift = 0;
          value = 0;
        }
      }
      col += vals[0];
      if (vals.length >= 4) {
        src += vals[1];
        segs.push([col, src]);
      } else segs.push([col, -1]);
      // The other fields (line, column, name) are not needed.
    }
    lines.push(segs);
  }
  return lines;
}

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const { values } = parseArgs({ args: Deno.args, options: { top: { type: "string" }, json: { type: "string" } } });
const top = Number(values.top ?? 40);
const out = await Deno.makeTempDir({ prefix: "np-bundle-modules-" });
try {
  Deno.chdir(ROOT);
  await build({
    configFile: `${ROOT}vite.config.ts`,
    logLevel: "silent",
    build: { outDir: out, emptyOutDir: true, manifest: true, sourcemap: true },
  });
  const manifest: Record<string, ManifestChunk> = JSON.parse(await Deno.readTextFile(`${out}/.vite/manifest.json`));
  const { initial, publicKeys } = publicChunks(manifest);

  const where = new Map<string, string[]>();
  const report: Record<string, unknown>[] = [];
  let total = 0;
  for (const key of publicKeys) {
    const file = manifest[key].file;
    const code = await Deno.readTextFile(`${out}/${file}`);
    const bytes = new TextEncoder().encode(code);
    const gz = await gzipSize(bytes);
    total += gz;
    const map = JSON.parse(await Deno.readTextFile(`${out}/${file}.map`));
    const perSource = new Map<string, number>();
    const lines = code.split("\n");
    const decoded = decodeMappings(map.mappings);
    for (let l = 0; l < lines.length; l++) {
      const segs = decoded[l] ?? [];
      const text = lines[l];
      if (!segs.length) {
        perSource.set("(unmapped)", (perSource.get("(unmapped)") ?? 0) + text.length + 1);
        continue;
      }
      if (segs[0][0] > 0) perSource.set("(unmapped)", (perSource.get("(unmapped)") ?? 0) + segs[0][0]);
      for (let s = 0; s < segs.length; s++) {
        const end = s + 1 < segs.length ? segs[s + 1][0] : text.length + 1;
        const name = segs[s][1] >= 0 ? map.sources[segs[s][1]] : "(unmapped)";
        perSource.set(name, (perSource.get(name) ?? 0) + (end - segs[s][0]));
      }
    }
    const clean = (s: string) =>
      s.replace(/^(\.\.\/)+/, "").replace(/.*node_modules\/\.deno\/([^/]+)\/node_modules\//, "npm:");
    const modules = [...perSource].map(([name, n]) => ({ name: clean(name), min: n, gz: (n / code.length) * gz }))
      .sort((a, b) => b.min - a.min);
    for (const m of modules) where.set(m.name, [...(where.get(m.name) ?? []), file]);
    console.log(
      `\n## ${file} (${manifest[key].src ?? "-"})${initial.has(key) ? " [first visit]" : ""}: ${code.length} B, ${
        (gz / 1024).toFixed(1)
      } KB gz, ${modules.length} modules`,
    );
    for (const m of modules.slice(0, top)) {
      console.log(`  ${(m.gz / 1024).toFixed(2).padStart(6)} KB gz ${String(m.min).padStart(7)} B  ${m.name}`);
    }
    report.push({ file, src: manifest[key].src, initial: initial.has(key), bytes: code.length, gz, modules });
  }
  console.log(`\nall public: ${(total / 1024).toFixed(1)} KB gz in ${publicKeys.size} chunks`);
  const dups = [...where].filter(([, files]) => files.length > 1 && !files.every((f) => f === files[0]));
  console.log(dups.length ? "modules in more than one public chunk:" : "no module in more than one public chunk");
  for (const [name, files] of dups) console.log(`  ${name}: ${files.join(", ")}`);
  if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(report, null, 2));
} finally {
  await Deno.remove(out, { recursive: true }).catch(() => {});
}

/**
 * Vite resolved through deno.json's import map, so its version is named in one place (an
 * `npm:vite@x.y.z` on a command line would be a second one, and a bare `npm:vite` would follow
 * whatever the lockfile happens to hold).
 *
 *   deno run -A scripts/vite.ts build [--outDir DIR] [--emptyOutDir] [--manifest] [--logLevel LEVEL]
 *   deno run -A scripts/vite.ts dev      (dev server on :5173, proxying /api and /static)
 *
 * Run from the repository root: vite.config.ts is found there.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { compressedCopies } from "../server/http/public-answer.ts";
import { PRECOMPRESSED } from "../server/http/serve-file.ts";
import { build, createServer, type LogLevel } from "vite";

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) next to every compressible file of the
 * build, once, so the server never compresses the client per request (issue 15). A copy that is not
 * smaller is not written.
 */
export async function precompress(dir: string): Promise<{ files: number; bytes: number; br: number; gz: number }> {
  const total = { files: 0, bytes: 0, br: 0, gz: 0 };
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory) {
      const sub = await precompress(path);
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += sub[k];
      continue;
    }
    if (!entry.isFile || !PRECOMPRESSED.test(entry.name)) continue;
    const bytes = await Deno.readFile(path);
    // Smaller files are sent as they are: a copy would save less than it costs to look for it.
    const copies = compressedCopies(bytes);
    if (!copies) continue;
    const { br, gzip: gz } = copies;
    total.files++;
    total.bytes += bytes.byteLength;
    if (br.byteLength < bytes.byteLength) {
      await Deno.writeFile(`${path}.br`, br);
      total.br += br.byteLength;
    }
    if (gz.byteLength < bytes.byteLength) {
      await Deno.writeFile(`${path}.gz`, gz);
      total.gz += gz.byteLength;
    }
  }
  return total;
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      outDir: { type: "string" },
      emptyOutDir: { type: "boolean" },
      manifest: { type: "boolean" },
      logLevel: { type: "string" },
    },
  });
  const logLevel = values.logLevel as LogLevel | undefined;

  switch (positionals[0] ?? "dev") {
    case "build":
      await build({
        logLevel,
        build: {
          ...(values.outDir !== undefined ? { outDir: values.outDir } : {}),
          ...(values.emptyOutDir ? { emptyOutDir: true } : {}),
          ...(values.manifest ? { manifest: true } : {}),
        },
      });
      {
        // vite.config.ts's root is client/: a relative outDir is resolved from there.
        const out = resolve("client", values.outDir ?? "dist");
        const t = await precompress(out);
        if (logLevel !== "silent") {
          const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
          console.log(`precompressed ${t.files} files of ${kb(t.bytes)}: brotli ${kb(t.br)}, gzip ${kb(t.gz)}`);
        }
      }
      break;
    case "dev": {
      const server = await createServer({ logLevel });
      await server.listen();
      server.printUrls();
      break;
    }
    default:
      console.error(`Unknown command "${positionals[0]}": use build or dev.`);
      Deno.exit(2);
  }
}

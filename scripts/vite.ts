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
import { parseArgs } from "node:util";
import { build, createServer, type LogLevel } from "vite";

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

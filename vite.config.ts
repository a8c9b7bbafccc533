import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import type { ChunkingContext } from "rolldown";

const PUBLIC_LAZY_PAGES = /\/client\/features\/(profile|processing)\//;
const STAFF_CODE = /\/client\/features\/(admin|moderator|staff-review)\//;

/**
 * The chunk of a module only the public lazy pages (and maybe staff pages) load: the profile's own
 * modules go to "profile"; a helper of ours a profile or processing module imports, directly or
 * through other helpers, goes to "public-shared" (the staff pages import it from there). Anything else
 * is left to the automatic chunking. Modules of the entry's graph are taken first by the "app" group.
 */
function publicLazyChunk(id: string, ctx: ChunkingContext): string | null {
  // A package's modules are reached through its index, which reaches every export, used or not.
  if (STAFF_CODE.test(id) || id.includes("/node_modules/")) return null;
  if (/\/client\/features\/profile\//.test(id)) return "profile";
  const seen = new Set<string>();
  const walk = (m: string): boolean => {
    if (seen.has(m)) return false;
    seen.add(m);
    return (ctx.getModuleInfo(m)?.importers ?? []).some((i) => PUBLIC_LAZY_PAGES.test(i) || walk(i));
  };
  return !PUBLIC_LAZY_PAGES.test(id) && walk(id) ? "public-shared" : null;
}

// Run from the repo root through scripts/vite.ts (`deno task build` builds client/ into client/dist).
export default defineConfig({
  root: "client",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    target: "es2022",
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Fewer, larger public chunks (decision 0320): every gzip stream starts without a dictionary,
        // so each small chunk costs bytes. Everything the entry imports is one chunk; the profile's
        // pages are one chunk; the helpers they share with the staff pages are one more.
        codeSplitting: {
          groups: [
            { name: "app", tags: ["$initial"], priority: 2 },
            { name: publicLazyChunk, priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:8000", "/static": "http://localhost:8000" },
  },
});

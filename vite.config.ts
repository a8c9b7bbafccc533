import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type Rolldown } from "vite";

/**
 * The artist's lazily loaded pages: the profile and its edit page, the processing page, the release
 * pages (issue 34), the Mini App (issue 36) and the public show page (issue 35).
 */
const ARTIST_PAGES =
  /\/client\/features\/(profile|processing|mini-app)\/|\/client\/features\/releases\/(?!staff-)|\/client\/features\/episodes\/show-page/;
const STAFF_CODE = /\/client\/features\/(admin|moderator|staff-review)\//;
/** The staff pages (the bench's own rule): the two panels, the episode desk and the release desk. */
const STAFF_PAGES =
  /\/client\/features\/(admin|moderator|staff-review)\/|\/client\/features\/episodes\/(?!show-page)|\/client\/features\/releases\/staff-/;

/** Whether `id` is imported, directly or through other modules, by a module `pages` names. */
function reachedFrom(id: string, pages: RegExp, ctx: Rolldown.ChunkingContext): boolean {
  const seen = new Set<string>();
  const reached = (m: string): boolean => {
    if (seen.has(m)) return false;
    seen.add(m);
    return (ctx.getModuleInfo(m)?.importers ?? []).some((i) => pages.test(i) || reached(i));
  };
  return reached(id);
}

/**
 * The chunk of a module the public lazy pages load (decisions 0320, 0430). The artist's pages are
 * one chunk, "artist": /processing links to /profile twice, and a pointed-at link loads its page
 * anyway (`defaultPreload: "intent"`). A helper of ours they import, directly or through other
 * helpers, joins them there, unless a staff page imports it too: then it goes to "public-shared", so
 * the staff pages never load the artist's pages or their CSS. Anything else is left to the automatic
 * chunking; modules of the entry's graph were taken first by the "app" group.
 */
function publicLazyChunk(id: string, ctx: Rolldown.ChunkingContext): string | null {
  // A package's modules are reached through its index, which reaches every export, used or not.
  if (STAFF_CODE.test(id) || id.includes("/node_modules/")) return null;
  if (ARTIST_PAGES.test(id)) return "artist";
  if (!reachedFrom(id, ARTIST_PAGES, ctx)) return null;
  return reachedFrom(id, STAFF_PAGES, ctx) ? "public-shared" : "artist";
}

/**
 * What a lazy page's import fetches beside it (decision 0430): everything for the artist's pages
 * (the "artist" chunk), only the CSS for the staff pages. The list is written into the public entry,
 * so each staff chunk named there cost every visitor bytes; a staff page's own imports are fetched
 * by the browser once its chunk arrives (its CSS still before it shows, so nothing flashes unstyled).
 */
function preloadedWith(chunk: string, deps: string[]): string[] {
  return /(^|\/)artist-[^/]*\.js$/.test(chunk) ? deps : deps.filter((d) => d.endsWith(".css"));
}

const JSX_BINDINGS = new URL("./client/lib/jsx-runtime.ts", import.meta.url).pathname;

/** In the build, our JSX reaches React's runtime through client/lib/jsx-runtime.ts (decision 0430). */
const jsxBindings: Plugin = {
  name: "jsx-runtime-bindings",
  apply: "build",
  enforce: "pre",
  resolveId(id, importer) {
    if (id !== "react/jsx-runtime" || !importer || importer === JSX_BINDINGS || importer.includes("/node_modules/")) {
      return null;
    }
    return JSX_BINDINGS;
  },
};

/**
 * Library modules the build replaces with smaller ones of ours (decision 0433), by the file that
 * imports them: router-core's scroll restoration by what the router does with `scrollRestoration:
 * false` (the top of the page after a navigation, a #section into view), query-core's infinite-query
 * behaviour, which no page uses, by one that throws. client/lib/library-trims.test.ts keeps the
 * conditions true.
 */
const TRIMMED: { importer: string; id: string; file: string }[] = [
  {
    importer: "/@tanstack/router-core/dist/esm/",
    id: "./scroll-restoration.js",
    file: "./client/lib/scroll-on-navigation.ts",
  },
  {
    importer: "/@tanstack/query-core/build/modern/",
    id: "./infiniteQueryBehavior.js",
    file: "./client/lib/no-infinite-queries.ts",
  },
];
const trimmedModules: Plugin = {
  name: "trimmed-library-modules",
  apply: "build",
  enforce: "pre",
  resolveId(id, importer) {
    const hit = TRIMMED.find((t) => t.id === id && importer?.includes(t.importer));
    return hit ? new URL(hit.file, import.meta.url).pathname : null;
  },
};

// Run from the repo root through scripts/vite.ts (`deno task build` builds client/ into client/dist).
export default defineConfig({
  root: "client",
  plugins: [react(), jsxBindings, trimmedModules],
  resolve: {
    // React 19 has useSyncExternalStore: the router's store reads it without the shim for older
    // Reacts, which only hands React's own back (decision 0430).
    alias: [{
      find: /^use-sync-external-store\/shim\/with-selector$/,
      replacement: "use-sync-external-store/with-selector",
    }],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    target: "es2022",
    chunkSizeWarningLimit: 600,
    // Every browser the es2022 target names preloads modules itself; one that does not still runs
    // the app, only without the early fetch (decision 0320).
    modulePreload: { polyfill: false, resolveDependencies: preloadedWith },
    rolldownOptions: {
      output: {
        // Fewer, larger public chunks (decision 0320): every gzip stream starts without a dictionary,
        // so each small chunk costs bytes. Everything the entry imports is one chunk; the artist's
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

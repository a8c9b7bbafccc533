import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

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
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:8000", "/static": "http://localhost:8000" },
  },
});

import { defineConfig } from "vitest/config";

// Unit, API and component tests. End-to-end tests (e2e/) run separately against the real server.
export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "db/**/*.test.ts",
      "domain/**/*.test.ts",
      "client/**/*.test.{ts,tsx}",
      "scripts/**/*.test.ts",
    ],
    exclude: ["node_modules/**", "client/dist/**", "e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});

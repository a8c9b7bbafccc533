/**
 * `deno task start`: builds the client when it is missing or older than its sources, then serves.
 * Dependencies are installed by Deno on first run (nodeModulesDir: auto); migrations are applied by
 * the server at start-up.
 */
import { ensureClientBuilt } from "../scripts/build-if-stale.ts";
import { main } from "./main.ts";

await ensureClientBuilt();
await main();

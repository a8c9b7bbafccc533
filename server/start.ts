/**
 * `deno task start`: builds the client when it is missing or older than its sources, then serves.
 * Dependencies are installed by Deno on first run (nodeModulesDir: auto); migrations are applied by
 * the server at start-up.
 *
 * With CLIENT_PREBUILT=1 the client was built with the deploy (`deno task build`): nothing is
 * checked or built, and start-up stops if CLIENT_DIST_DIR holds no build (docs/decisions/0176).
 * `deno run -A server/main.ts` serves without building too.
 */
import { ensureClientBuilt } from "../scripts/build-if-stale.ts";
import { configFromEnvOrExit } from "./config.ts";
import { main } from "./main.ts";

const config = configFromEnvOrExit();
if (config.clientPrebuilt) {
  const index = `${config.clientDistDir}/index.html`;
  const built = await Deno.stat(index).then((s) => s.isFile, () => false);
  if (!built) {
    console.error(`CLIENT_PREBUILT is set, but ${index} does not exist: run \`deno task build\` when deploying.`);
    Deno.exit(1);
  }
} else {
  await ensureClientBuilt();
}
await main();

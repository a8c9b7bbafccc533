import { migrateDb, openDb } from "../../db/client.ts";
import { buildContext, createApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import type { AppDeps, Clock } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { createEmbeddedStore, type StatusStore } from "../status-store/kv.ts";
import { createLogger } from "../lib/logger.ts";
import { createTaskQueue } from "../lib/queue.ts";
import { createStores } from "../storage/stores.ts";

export interface TestAppOptions {
  /** Environment values, as the real server would read them. */
  env?: Record<string, string>;
  kv?: StatusStore;
  clock?: Clock;
  fetch?: typeof fetch;
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  ctx: AppContext;
  dir: string;
  /** Removes the temporary directory and closes the database. */
  close(): Promise<void>;
}

/** A fresh app on its own migrated database file and temporary storage. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dir = await Deno.makeTempDir({ prefix: "np-test-" });
  const config = parseConfig({
    DATA_DIR: dir,
    JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
    LOG_LEVEL: "silent",
    ...opts.env,
  });
  const db = await openDb({ url: config.databaseUrl });
  await migrateDb(db);
  const staticDir = `${dir}/static`;
  await Deno.mkdir(`${staticDir}/storage`, { recursive: true });
  const deps: AppDeps = {
    config: { ...config, jwtSecret: config.jwtSecret! },
    db,
    kv: opts.kv ?? createEmbeddedStore(),
    // With S3_* in `env`, both stores are in that bucket, as the server wires them (decision 0111).
    ...createStores({ ...config, staticDir }),
    queue: createTaskQueue(config.processingConcurrency, () => {}),
    clock: opts.clock ?? { now: () => new Date() },
    logger: createLogger(config.logLevel),
    fetch: opts.fetch ?? globalThis.fetch.bind(globalThis),
    staticDir,
    clientDistDir: `${dir}/dist`,
  };
  const ctx = buildContext(deps);
  const app = createApp(ctx);
  return {
    app,
    ctx,
    dir,
    async close() {
      // Closes the queue and gives up the processor's leases (and the Telegram polling lease).
      await ctx.telegramUpdates.stop(5_000);
      await ctx.reanalysis.stop(5_000);
      await ctx.processor.stop(5_000);
      await ctx.releaseMaterials.stop(5_000);
      deps.kv.close?.();
      db.$client.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

import { migrateDb, openDb } from "../db/client.ts";
import { type Config, resolveJwtSecret } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import { createEmbeddedStore, createUpstashStore } from "./status-store/kv.ts";
import { createLogger } from "./lib/logger.ts";
import { createTaskQueue } from "./lib/queue.ts";
import { createStores } from "./storage/stores.ts";

/** Builds the real dependencies from a parsed configuration and applies migrations. */
export async function buildDeps(config: Config): Promise<AppDeps> {
  const logger = createLogger(config.logLevel);
  const jwtSecret = await resolveJwtSecret(config);
  const db = await openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  await migrateDb(db);
  const kv = config.upstash
    ? createUpstashStore(config.upstash.url, config.upstash.token, { logger })
    : createEmbeddedStore();
  const staticDir = config.staticDir;
  return {
    config: { ...config, jwtSecret },
    db,
    kv,
    // Local disk by default; the S3 bucket when S3_BUCKET is set (decision 0111).
    ...createStores(config, { logger }),
    queue: createTaskQueue(config.processingConcurrency, (err) => logger.error("task failed", { err })),
    clock: { now: () => new Date() },
    logger,
    fetch: globalThis.fetch.bind(globalThis),
    staticDir,
    clientDistDir: config.clientDistDir,
  };
}

import { openDb } from "../../db/client.ts";
import { buildContext, createApp } from "../app.ts";
import type { AppDeps, Clock } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { createEmbeddedStore, type StatusStore } from "../status-store/kv.ts";
import { createTaskQueue } from "../lib/queue.ts";
import type { TestApp } from "./create-test-app.ts";

export interface InstanceOptions {
  /** Its status store; a fresh embedded one by default (as a second process would have). */
  kv?: StatusStore;
  clock?: Clock;
}

export interface Instance {
  app: ReturnType<typeof createApp>;
  ctx: AppContext;
  /** Stops its processor (gives up its leases), closes its store and its database connection. */
  close(): Promise<void>;
}

/**
 * Another instance of the app beside `base`, as a second server process would be: the same database
 * file (its own connections), the same storage directories and configuration, and its own queue,
 * processor (its own lease-holder name), session cache and rate-limit counts.
 */
export async function openInstance(base: TestApp, opts: InstanceOptions = {}): Promise<Instance> {
  const db = await openDb({ url: base.ctx.config.databaseUrl });
  const kv = opts.kv ?? createEmbeddedStore();
  const deps: AppDeps = {
    config: base.ctx.config,
    db,
    kv,
    storage: base.ctx.storage,
    publicStorage: base.ctx.publicStorage,
    queue: createTaskQueue(base.ctx.config.processingConcurrency, () => {}),
    clock: opts.clock ?? base.ctx.clock,
    logger: base.ctx.logger,
    fetch: base.ctx.fetch,
    staticDir: base.ctx.staticDir,
    clientDistDir: base.ctx.clientDistDir,
  };
  const ctx = buildContext(deps);
  return {
    ctx,
    app: createApp(ctx),
    async close() {
      await ctx.telegramUpdates.stop(5_000);
      await ctx.reanalysis.stop(5_000);
      await ctx.processor.stop(5_000);
      if (!opts.kv) kv.close?.();
      db.$client.close();
    },
  };
}

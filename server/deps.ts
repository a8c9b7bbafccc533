import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import type { Config } from "./config.ts";
import type { StatusStore } from "./status-store/kv.ts";
import type { Logger } from "./lib/logger.ts";
import type { TaskQueue } from "./lib/queue.ts";
import type { FileStorage } from "./storage/file-storage.ts";

export interface Clock {
  now(): Date;
}

/**
 * What every capability shares: the primitive dependencies (database, status store, storage, config,
 * clock, logger, queue). The services built from them, and the assembled context, are server/wiring.ts
 * (docs/decisions/0326): a service's type never imports the context, so type arrows point down.
 */

/** What `createApp` is built from; tests pass their own. */
export interface AppDeps {
  config: Config & { jwtSecret: string };
  db: Db;
  kv: StatusStore;
  /** Private track files. */
  storage: FileStorage;
  /** Public uploads (avatars, slider images) served under /static/storage/. */
  publicStorage: FileStorage;
  queue: TaskQueue;
  clock: Clock;
  logger: Logger;
  /** Outgoing HTTP (VK ID); tests point provider base URLs at local doubles. */
  fetch: typeof fetch;
  /** Directory served at /static (default `static`). */
  staticDir: string;
  /** Directory of the built client (default `client/dist`). */
  clientDistDir: string;
}

export type AppEnv = {
  Variables: {
    user: User;
    sessionId: string;
    requestId: string;
  };
};

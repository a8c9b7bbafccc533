import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import type { Guards } from "./auth/guards.ts";
import type { TokenService } from "./auth/tokens.ts";
import type { Config } from "./config.ts";
import type { DeclineTemplatesService } from "./decline-templates/service.ts";
import type { FaqService } from "./faq/service.ts";
import type { StatusStore } from "./status-store/kv.ts";
import type { Logger } from "./lib/logger.ts";
import type { Notifications } from "./notifications/notifications.ts";
import type { TaskQueue } from "./lib/queue.ts";
import type { FileStorage } from "./storage/file-storage.ts";
import type { SliderService } from "./slider/service.ts";
import type { Processor } from "./tracks/processing/processor.ts";
import type { Reanalysis } from "./tracks/processing/reanalysis.ts";
import type { TracksService } from "./tracks/service.ts";
import type { UsersService } from "./users/service.ts";
import type { PromiseSweep } from "./intake/sweep.ts";

export interface Clock {
  now(): Date;
}

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

/** Deps plus the services built from them, handed to every sub-app. */
export interface AppContext extends AppDeps {
  tokens: TokenService;
  guards: Guards;
  /** Every read and write of `users` rows (docs/decisions/0120). */
  users: UsersService;
  /** Every read and write of `tracks` rows, with who may see a track applied inside. */
  tracks: TracksService;
  processor: Processor;
  /** Older audio reports analysed again in the background (docs/decisions/0217). */
  reanalysis: Reanalysis;
  /** The response promise's automatic decline, leased across instances (issue 25). */
  promiseSweep: PromiseSweep;
  /** Telegram messages to artists: the outbox a decision write enqueues into, and its sender. */
  notifications: Notifications;
  /** The administrators' decline messages, read by the moderators' form and a decision (decision 0156). */
  declineTemplates: DeclineTemplatesService;
  /** The FAQ entries (both staff panels' calls; GET /api/faq's kept answer reads through it). */
  faq: FaqService;
  /** The slider tiles (the admin calls; GET /api/slider's kept answer reads through it). */
  slider: SliderService;
}

export type AppEnv = {
  Variables: {
    user: User;
    sessionId: string;
    requestId: string;
  };
};

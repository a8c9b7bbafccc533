import { migrateDb, openDb } from "../db/client.ts";
import { type Config, resolveJwtSecret } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import type { Guards } from "./auth/guards.ts";
import type { TokenService } from "./auth/tokens.ts";
import type { DeclineTemplatesService } from "./decline-templates/service.ts";
import type { FaqService } from "./faq/service.ts";
import type { Notifications } from "./notifications/notifications.ts";
import type { TelegramUpdates } from "./notifications/telegram-updates/updates.ts";
import type { SliderService } from "./slider/service.ts";
import type { Processor } from "./processing/processor.ts";
import type { Reanalysis } from "./processing/reanalysis.ts";
import type {
  ArtistService,
  ProcessingService,
  ReviewService,
  TracksService,
  UploadsService,
} from "./track-services.ts";
import type { UsersService } from "./users/service.ts";
import type { PromiseSweep } from "./intake/sweep.ts";
import type { EpisodesService } from "./episodes/service.ts";
import type { ReleaseMaterials } from "./releases/materials/service.ts";
import type { ReleasesService } from "./releases/service.ts";
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

/** Deps plus the services built from them, handed to every sub-app. */
export interface AppContext extends AppDeps {
  tokens: TokenService;
  guards: Guards;
  /** Every read and write of `users` rows (docs/decisions/0120). */
  users: UsersService;
  /** The track row seen by staff, with who may see a track applied inside (docs/decisions/0325). */
  tracks: TracksService;
  /** An upload's rows and the hourly quota. */
  uploads: UploadsService;
  /** The status keys, the processing leases and verdicts, the audio reports and fingerprints. */
  processing: ProcessingService;
  /** Decisions, listening, votes, comments, assignment, presence, the queue and the figures. */
  review: ReviewService;
  /** What an artist may see: the status poll, the kept list, the history. */
  artist: ArtistService;
  processor: Processor;
  /** Older audio reports analysed again in the background (docs/decisions/0217). */
  reanalysis: Reanalysis;
  /** The response promise's automatic decline, leased across instances (issue 25). */
  promiseSweep: PromiseSweep;
  /** The labels' release desk (issue 34): releases of accepted label pairs, label copy, calendar, exports. */
  releases: ReleasesService;
  /** Telegram messages to artists: the outbox a decision write enqueues into, and its sender. */
  notifications: Notifications;
  /** The bot's updates (staff cards' presses, issue 27): webhook or leased polling (decision 0262). */
  telegramUpdates: TelegramUpdates;
  /** The administrators' decline messages, read by the moderators' form and a decision (decision 0156). */
  declineTemplates: DeclineTemplatesService;
  /** The FAQ entries (both staff panels' calls; GET /api/faq's kept answer reads through it). */
  faq: FaqService;
  /** The slider tiles (the admin calls; GET /api/slider's kept answer reads through it). */
  slider: SliderService;
  /** The shows' episode desk (issue 35): episodes, the pool, running orders, exports, aired. */
  episodes: EpisodesService;
  /** A release's files from the artist and their checks (issue 34). */
  releaseMaterials: ReleaseMaterials;
}

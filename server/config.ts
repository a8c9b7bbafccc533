import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** A switch that is on unless turned off (`false`/`0`). */
const boolOn = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v !== "false" && v !== "0");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? String(fallback) : v))
    .pipe(z.string().regex(/^\d+$/, { message: "must be a positive whole number" }))
    .transform(Number)
    .pipe(z.number().int().positive());

const wholeNumber = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? String(fallback) : v.trim()))
    .pipe(z.string().regex(/^\d+$/, { message: "must be a whole number (0 or more)" }))
    .transform(Number)
    .pipe(z.number().int().min(0).max(10, { message: "must be at most 10" }));

const url = (label: string) =>
  optionalString.pipe(
    z.string().url({ message: `${label} must be a URL` }).optional(),
  );

const EnvSchema = z.object({
  PORT: positiveInt(8000).pipe(z.number().max(65535)),
  PUBLIC_URL: url("PUBLIC_URL"),
  DATA_DIR: optionalString.transform((v) => v ?? "data"),
  STATIC_DIR: optionalString.transform((v) => v ?? "static"),
  CLIENT_DIST_DIR: optionalString.transform((v) => v ?? "client/dist"),
  CLIENT_PREBUILT: bool,
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/|:memory:$)/, {
        message: "DATABASE_URL must start with file:, libsql://, http(s):// or ws(s)://",
      })
      .optional(),
  ),
  DATABASE_AUTH_TOKEN: optionalString,
  UPSTASH_REDIS_REST_URL: url("UPSTASH_REDIS_REST_URL"),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  JWT_SECRET: optionalString.pipe(
    z.string().min(32, { message: "JWT_SECRET must be at least 32 characters" }).optional(),
  ),
  DENO_ENV: optionalString,
  MAINTENANCE_MODE: bool,
  LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error", "silent"])
    .optional()
    .transform((v) => v ?? "info"),
  ACCESS_TOKEN_TTL_S: positiveInt(15 * 60),
  REFRESH_TOKEN_TTL_S: positiveInt(30 * 24 * 3600),
  VK_CLIENT_ID: optionalString,
  VK_REDIRECT_URI: url("VK_REDIRECT_URI"),
  VK_ID_BASE_URL: url("VK_ID_BASE_URL"),
  // VK community messages (issue 36): all four of the first, or none.
  VK_GROUP_ID: optionalString.pipe(
    z.string().regex(/^[1-9]\d{0,11}$/, { message: "VK_GROUP_ID must be the community's numeric id" }).optional(),
  ),
  VK_GROUP_TOKEN: optionalString,
  VK_CALLBACK_SECRET: optionalString,
  VK_CALLBACK_CONFIRMATION: optionalString,
  VK_API_URL: url("VK_API_URL"),
  TELEGRAM_BOT_TOKEN: optionalString.pipe(
    z.string().regex(/^\d+:[\w-]+$/, { message: "TELEGRAM_BOT_TOKEN must look like 123456:ABC-DEF" }).optional(),
  ),
  TELEGRAM_OAUTH_URL: url("TELEGRAM_OAUTH_URL"),
  TELEGRAM_BOT_API_URL: url("TELEGRAM_BOT_API_URL"),
  TELEGRAM_AUTH_MAX_AGE_S: positiveInt(86400),
  // How long one instance holds `getUpdates` polling without renewing it (docs/decisions/0262).
  TELEGRAM_POLL_LEASE_S: positiveInt(30).pipe(z.number().max(3600, { message: "must be at most 3600" })),
  // How long a decision's message to the artist waits, undoable (docs/decisions/0223); at most a day.
  DECISION_NOTIFY_HOLD_S: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? "60" : v.trim()))
    .pipe(z.string().regex(/^\d+$/, { message: "must be a whole number of seconds (0 or more)" }))
    .transform(Number)
    .pipe(z.number().int().max(86_400, { message: "must be at most 86400" })),
  // How often the response promise's sweep looks for pairs to decline (issue 25); at most a day.
  INTAKE_SWEEP_INTERVAL_S: positiveInt(60).pipe(z.number().max(86_400, { message: "must be at most 86400" })),
  AUTH_RATE_LIMIT_PER_MIN: positiveInt(30),
  TRUSTED_PROXY_HOPS: wholeNumber(0),
  MAX_UPLOAD_FILE_MB: positiveInt(50),
  MAX_UPLOAD_FILES: positiveInt(20),
  // A release's master, extended mix or instrumental (issue 34): WAV, FLAC or AIFF, up to this many MB.
  MAX_MASTER_FILE_MB: positiveInt(300).pipe(z.number().max(10_240, { message: "must be at most 10240" })),
  // Files per artist over the last hour (docs/decisions/0196); at most a million, so the count stays exact.
  MAX_UPLOADS_PER_HOUR: positiveInt(60).pipe(z.number().max(1_000_000, { message: "must be at most 1000000" })),
  // Unfinished resumable uploads one artist may hold at once (issue 32, docs/decisions/0296).
  MAX_OPEN_UPLOADS: positiveInt(20).pipe(z.number().max(10_000, { message: "must be at most 10000" })),
  // Longer tracks are refused by processing, judged from the frame headers before decoding (0193).
  MAX_TRACK_MINUTES: positiveInt(30),
  // At most the whole-request limit (30 min, decision 0115): a longer idle time could never be reached.
  UPLOAD_IDLE_TIMEOUT_S: positiveInt(60).pipe(z.number().max(1800, { message: "must be at most 1800" })),
  // The resumable upload's part (issue 26): S3 wants at least 5 MiB for every part but the last, and
  // 64 MiB stays well under every host's body limit that matters (Cloud Run's 32 MiB is the
  // exception: keep the default there). docs/decisions/0250.
  UPLOAD_PART_MB: positiveInt(8).pipe(
    z.number().min(5, { message: "must be at least 5" }).max(64, { message: "must be at most 64" }),
  ),
  PROCESSING_CONCURRENCY: positiveInt(2),
  PROCESSING_MAX_ATTEMPTS: positiveInt(3),
  // At most a day: a lease that long already means a dead instance's track waits a day (decision 0170).
  PROCESSING_LEASE_S: positiveInt(60).pipe(z.number().max(86_400, { message: "must be at most 86400" })),
  // On by default: older reports are analysed again in the background (docs/decisions/0217).
  REANALYSIS: boolOn,
  S3_ENDPOINT: url("S3_ENDPOINT"),
  S3_REGION: optionalString.transform((v) => v ?? "us-east-1"),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_SESSION_TOKEN: optionalString,
  S3_PUBLIC_URL: url("S3_PUBLIC_URL"),
});

export interface Config {
  port: number;
  publicUrl: string;
  dataDir: string;
  staticDir: string;
  clientDistDir: string;
  /**
   * The client was built with the deploy (`deno task build`): `deno task start` serves
   * CLIENT_DIST_DIR as it is, with no staleness check and no build tooling (docs/decisions/0176).
   */
  clientPrebuilt: boolean;
  databaseUrl: string;
  databaseAuthToken?: string;
  upstash?: { url: string; token: string };
  /** Undefined until resolved by `resolveJwtSecret` (generated and kept in DATA_DIR when absent). */
  jwtSecret?: string;
  production: boolean;
  maintenance: boolean;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  vk?: { clientId: string; redirectUri: string; baseUrl: string };
  /**
   * The VK community that writes to artists (issue 36, server/notifications/vk/): its id, its token
   * (`messages.send`, `messages.isMessagesFromGroupAllowed`), the Callback API's secret and
   * confirmation string, and the API's base address.
   */
  vkMessages?: { groupId: number; token: string; secret: string; confirmation: string; apiUrl: string };
  /** `botApiUrl`: base address of the Bot API the artists' notifications go through (server/notifications/). */
  telegram?: {
    botToken: string;
    botId: string;
    oauthUrl: string;
    maxAgeS: number;
    botApiUrl: string;
    /** Seconds one instance's hold on `getUpdates` polling lasts unrenewed (issue 27, docs/decisions/0262). */
    pollLeaseS: number;
  };
  /**
   * Seconds a decision's Telegram message waits before it is sent; meanwhile the decision may be
   * undone or replaced, and the artist's site shows the state before it (docs/decisions/0223).
   */
  decisionNotifyHoldS: number;
  /** Seconds between the response promise's sweeps (issue 25, server/intake/sweep.ts). */
  intakeSweepIntervalS: number;
  authRateLimitPerMin: number;
  /** Reverse proxies in front of the server whose X-Forwarded-For entries are trusted (0: none). */
  trustedProxyHops: number;
  maxUploadFileBytes: number;
  maxUploadFiles: number;
  /** Largest release file (master, extended mix, instrumental; `MAX_MASTER_FILE_MB`, issue 34). */
  maxMasterFileBytes: number;
  /** Files an artist may upload over the last hour, counted in the database across instances (docs/decisions/0196). */
  maxUploadsPerHour: number;
  /** Unfinished resumable uploads an artist may hold at once (`MAX_OPEN_UPLOADS`, docs/decisions/0296). */
  maxOpenUploads: number;
  /** Tracks longer than this (minutes, from the frame headers) are refused by processing (docs/decisions/0193). */
  maxTrackMinutes: number;
  /** Seconds an upload's body may send nothing before it is cut off with 408 (docs/decisions/0115). */
  uploadIdleTimeoutS: number;
  /** Bytes per part of a resumable upload (`UPLOAD_PART_MB`, issue 26, docs/decisions/0250). */
  uploadPartBytes: number;
  processingConcurrency: number;
  processingMaxAttempts: number;
  /** Seconds a claimed processing job stays an instance's before another may take it (renewed while working). */
  processingLeaseS: number;
  /** Reports of an older analyser are analysed again in the background (`REANALYSIS`, docs/decisions/0217). */
  reanalysis: boolean;
  /**
   * Object storage for tracks and public uploads (S3-compatible); undefined keeps files on local disk.
   * `endpoint` given: path-style addresses (R2, MinIO, s3rver). `publicUrl`: the bucket's public
   * address for public uploads (otherwise they are served from the bucket under /static/storage/).
   */
  s3?: {
    endpoint?: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
    publicUrl?: string;
  };
}

export class ConfigError extends Error {}

/** Parses the environment once. Every bad variable is named in one error. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const production = e.DENO_ENV === "production";
  if (production && !e.JWT_SECRET) problems.push("  JWT_SECRET: required when DENO_ENV=production");
  if (e.UPSTASH_REDIS_REST_URL && !e.UPSTASH_REDIS_REST_TOKEN) {
    problems.push("  UPSTASH_REDIS_REST_TOKEN: required when UPSTASH_REDIS_REST_URL is set");
  }
  if (e.S3_BUCKET) {
    if (!e.S3_ACCESS_KEY_ID) problems.push("  S3_ACCESS_KEY_ID: required when S3_BUCKET is set");
    if (!e.S3_SECRET_ACCESS_KEY) problems.push("  S3_SECRET_ACCESS_KEY: required when S3_BUCKET is set");
  } else {
    for (
      const name of [
        "S3_ENDPOINT",
        "S3_ACCESS_KEY_ID",
        "S3_SECRET_ACCESS_KEY",
        "S3_SESSION_TOKEN",
        "S3_PUBLIC_URL",
      ] as const
    ) {
      if (e[name]) problems.push(`  ${name}: has no effect without S3_BUCKET`);
    }
  }
  problems.push(...vkMessagesProblems(e));
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const dataDir = e.DATA_DIR.replace(/\/+$/, "");
  return {
    port: e.PORT,
    publicUrl,
    dataDir,
    staticDir: e.STATIC_DIR.replace(/\/+$/, ""),
    clientDistDir: e.CLIENT_DIST_DIR.replace(/\/+$/, ""),
    clientPrebuilt: e.CLIENT_PREBUILT,
    databaseUrl: e.DATABASE_URL ?? `file:${dataDir}/app.db`,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    upstash: e.UPSTASH_REDIS_REST_URL
      ? { url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN! }
      : undefined,
    jwtSecret: e.JWT_SECRET,
    production,
    maintenance: e.MAINTENANCE_MODE,
    logLevel: e.LOG_LEVEL,
    accessTokenTtlS: e.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: e.REFRESH_TOKEN_TTL_S,
    vk: e.VK_CLIENT_ID
      ? {
        clientId: e.VK_CLIENT_ID,
        redirectUri: e.VK_REDIRECT_URI ?? `${publicUrl}/login`,
        baseUrl: (e.VK_ID_BASE_URL ?? "https://id.vk.com").replace(/\/+$/, ""),
      }
      : undefined,
    vkMessages: e.VK_GROUP_ID
      ? {
        groupId: Number(e.VK_GROUP_ID),
        token: e.VK_GROUP_TOKEN!,
        secret: e.VK_CALLBACK_SECRET!,
        confirmation: e.VK_CALLBACK_CONFIRMATION!,
        apiUrl: (e.VK_API_URL ?? "https://api.vk.com").replace(/\/+$/, ""),
      }
      : undefined,
    telegram: e.TELEGRAM_BOT_TOKEN
      ? {
        botToken: e.TELEGRAM_BOT_TOKEN,
        botId: e.TELEGRAM_BOT_TOKEN.split(":")[0],
        oauthUrl: (e.TELEGRAM_OAUTH_URL ?? "https://oauth.telegram.org").replace(/\/+$/, ""),
        maxAgeS: e.TELEGRAM_AUTH_MAX_AGE_S,
        botApiUrl: (e.TELEGRAM_BOT_API_URL ?? "https://api.telegram.org").replace(/\/+$/, ""),
        pollLeaseS: e.TELEGRAM_POLL_LEASE_S,
      }
      : undefined,
    decisionNotifyHoldS: e.DECISION_NOTIFY_HOLD_S,
    intakeSweepIntervalS: e.INTAKE_SWEEP_INTERVAL_S,
    authRateLimitPerMin: e.AUTH_RATE_LIMIT_PER_MIN,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    maxUploadFileBytes: e.MAX_UPLOAD_FILE_MB * 1024 * 1024,
    maxUploadFiles: e.MAX_UPLOAD_FILES,
    maxMasterFileBytes: e.MAX_MASTER_FILE_MB * 1024 * 1024,
    maxUploadsPerHour: e.MAX_UPLOADS_PER_HOUR,
    maxOpenUploads: e.MAX_OPEN_UPLOADS,
    maxTrackMinutes: e.MAX_TRACK_MINUTES,
    uploadIdleTimeoutS: e.UPLOAD_IDLE_TIMEOUT_S,
    uploadPartBytes: e.UPLOAD_PART_MB * 1024 * 1024,
    processingConcurrency: e.PROCESSING_CONCURRENCY,
    processingMaxAttempts: e.PROCESSING_MAX_ATTEMPTS,
    processingLeaseS: e.PROCESSING_LEASE_S,
    reanalysis: e.REANALYSIS,
    s3: e.S3_BUCKET
      ? {
        endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ""),
        region: e.S3_REGION,
        bucket: e.S3_BUCKET,
        accessKeyId: e.S3_ACCESS_KEY_ID!,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
        sessionToken: e.S3_SESSION_TOKEN,
        publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ""),
      }
      : undefined,
  };
}

const VK_MESSAGES_VARS = ["VK_GROUP_ID", "VK_GROUP_TOKEN", "VK_CALLBACK_SECRET", "VK_CALLBACK_CONFIRMATION"] as const;

/** The VK community's four variables go together (issue 36): one without the others is a mistake. */
function vkMessagesProblems(e: Partial<Record<(typeof VK_MESSAGES_VARS)[number] | "VK_API_URL", string>>): string[] {
  const given = VK_MESSAGES_VARS.filter((name) => e[name]);
  if (given.length === 0) {
    return e.VK_API_URL ? ["  VK_API_URL: has no effect without VK_GROUP_ID"] : [];
  }
  return VK_MESSAGES_VARS.filter((name) => !e[name]).map((name) =>
    `  ${name}: required with ${given.join(", ")} (VK community messages)`
  );
}

/**
 * JWT_SECRET when given (nothing is read or written then); otherwise one generated once and kept in
 * DATA_DIR/jwt-secret. A DATA_DIR that cannot be written (a serverless host, a read-only volume)
 * stops start-up with a ConfigError naming JWT_SECRET (docs/decisions/0175).
 */
export async function resolveJwtSecret(config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const file = `${config.dataDir}/jwt-secret`;
  try {
    const kept = (await Deno.readTextFile(file)).trim();
    if (kept.length >= 32) return kept;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  try {
    return await generateJwtSecret(config.dataDir, file);
  } catch (err) {
    if (!isUnwritable(err)) throw err;
    throw new ConfigError(
      `Invalid configuration:\n  JWT_SECRET: required when DATA_DIR (${config.dataDir}) cannot be written ` +
        `(${(err as Error).message})`,
    );
  }
}

/** A write refused by the file system itself: permissions, a read-only mount. */
function isUnwritable(err: unknown): boolean {
  return err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable ||
    (err as { code?: unknown })?.code === "EROFS" || (err as { code?: unknown })?.code === "EACCES";
}

async function generateJwtSecret(dataDir: string, file: string): Promise<string> {
  await Deno.mkdir(dataDir, { recursive: true });
  const bytes = crypto.getRandomValues(new Uint8Array(48));
  const secret = btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, "");
  // Written in full to a private name, then hard-linked into place: the link fails if another
  // process got there first, and nobody ever reads a half-written secret.
  const tmp = `${file}.${crypto.randomUUID()}`;
  await Deno.writeTextFile(tmp, secret, { mode: 0o600, createNew: true });
  try {
    await Deno.link(tmp, file);
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  return (await Deno.readTextFile(file)).trim();
}

/** For entry points (server, seed): the configuration, or a message naming every bad variable and exit 1. */
export function configFromEnvOrExit(): Config {
  try {
    return parseConfig(Deno.env.toObject());
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      Deno.exit(1);
    }
    throw err;
  }
}

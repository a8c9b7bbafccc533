import { createHmac } from "node:crypto";
import { eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { directionIntake, telegramCards } from "../../../db/schema.ts";
import { type Direction, isDirection } from "../../../domain/directions.ts";
import type { Db } from "../../../db/client.ts";
import type { AppDeps } from "../../deps.ts";
import type { DeclineTemplatesService } from "../../decline-templates/service.ts";
import type { ReviewService, TracksService } from "../../track-services.ts";
import type { UsersService } from "../../users/service.ts";
import { createJobLease, type JobLease } from "../../leases/lease.ts";
import { callbackSecret } from "../telegram-desk/callback-data.ts";
import type { InlineKeyboard } from "../telegram-desk/card-text.ts";
import type { TelegramDesk } from "../telegram-desk/desk.ts";
import { type BotCaller, botCaller } from "./bot-call.ts";
import { createPressHandler, type PressedCard, type PressResult } from "./presses.ts";

/**
 * How the bot's updates (the presses of the staff cards' buttons, issue 27) reach the server
 * (docs/decisions/0262): with an https PUBLIC_URL by webhook (`setWebhook` with a `secret_token`
 * at start, every call checked, the path derived from a secret), else by `getUpdates` long polling,
 * held by one instance at a time under a lease in the database, and only while the bot has no
 * webhook: a polling instance never deletes one (decision 0302). Without TELEGRAM_BOT_TOKEN nothing
 * runs; while no direction has a staff chat, nothing is asked of Telegram either (a bot used only
 * for sign-in keeps whatever webhook it had).
 */

export type UpdatesMode = "off" | "webhook" | "polling";

export interface UpdatesOptions {
  /** Long poll's `timeout` in seconds (Telegram holds the call open that long when nothing comes). */
  pollTimeoutS?: number;
  /** How often a waiting instance looks for a staff chat or a free lease; default a third of the lease. */
  checkMs?: number;
}

/** A Bot API update (only what the server reads; the rest is let through). */
const updateSchema = z.object({
  update_id: z.number().int().nonnegative(),
  callback_query: z.object({
    id: z.string().min(1).max(200),
    from: z.object({ id: z.number().int() }).passthrough(),
    message: z.object({
      message_id: z.number().int(),
      chat: z.object({ id: z.number().int() }).passthrough(),
    }).passthrough().optional(),
    data: z.string().max(256).optional(),
  }).passthrough().optional(),
}).passthrough();

export type TelegramUpdate = z.infer<typeof updateSchema>;

/** Checks the shape of an update received; null when it is not one. */
export function parseUpdate(body: unknown): TelegramUpdate | null {
  const r = updateSchema.safeParse(body);
  return r.success ? r.data : null;
}

/**
 * The webhook's path key and `secret_token`, the same on every instance (derived from the JWT
 * secret, which they share, and the bot token): nobody without them can reach the route or pass it.
 */
export function webhookSecrets(jwtSecret: string, botToken: string): { pathKey: string; secretToken: string } {
  const derive = (label: string) => createHmac("sha256", jwtSecret).update(`${label}\n${botToken}`).digest("base64url");
  return { pathKey: derive("telegram webhook path").slice(0, 32), secretToken: derive("telegram webhook secret") };
}

/** The route the webhook is served at, under /api. */
export const WEBHOOK_ROUTE = "/telegram/webhook";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });

/**
 * Why this instance must not poll, or null: the bot has a webhook (`getWebhookInfo`), which
 * another instance set for its https PUBLIC_URL (or an earlier deploy did). Deleting it would
 * silently switch that instance's presses off, so it is left alone (issue 32, decision 0302).
 */
async function webhookInTheWay(call: BotCaller): Promise<string | null> {
  const info = await call<{ url?: string }>("getWebhookInfo", {});
  if (!info.ok) return `getWebhookInfo failed: ${info.description ?? info.error_code ?? "no answer"}`;
  const url = typeof info.result?.url === "string" ? info.result.url : "";
  if (!url) return null;
  // The origin only: the path holds the webhook's path key.
  let origin = "an unreadable address";
  try {
    origin = new URL(url).origin;
  } catch { /* kept as unreadable */ }
  return `the bot has a webhook set for ${origin} (an instance with an https PUBLIC_URL, or an earlier ` +
    `deploy); this instance does not poll while it is set and never deletes it. If no instance serves ` +
    `that address, remove it with the Bot API's deleteWebhook`;
}

/** A staff card by id, as the presses read it. */
async function cardById(db: Db, id: number): Promise<PressedCard | null> {
  const [row] = await db.select().from(telegramCards).where(eq(telegramCards.id, id)).limit(1);
  if (!row || !isDirection(row.direction)) return null;
  return { ...row, direction: row.direction as Direction };
}

/** A direction has a staff chat: only then are cards sent, and presses expected. */
async function deskInUse(db: Db): Promise<boolean> {
  const [row] = await db.select({ d: directionIntake.direction }).from(directionIntake)
    .where(isNotNull(directionIntake.staff_chat_id)).limit(1);
  return row !== undefined;
}

/** What polling uses. */
export interface Poller {
  db: Db;
  clock: AppDeps["clock"];
  logger: AppDeps["logger"];
  call: BotCaller;
  lease: JobLease;
  /** This instance, as the lease names its holder. */
  holder: string;
  leaseMs: number;
  checkMs: number;
  pollTimeoutS: number;
  handleUpdate(update: TelegramUpdate): Promise<unknown>;
}

/** Polls while this instance holds the lease; returns when it is lost or the server stops. */
export async function pollWhileHolding(p: Poller, from: number, stop: AbortSignal) {
  const { call, lease, holder, clock, logger, leaseMs, checkMs, pollTimeoutS } = p;
  const lost = new AbortController();
  const signal = AbortSignal.any([stop, lost.signal]);
  let offset = from;
  // Renewed on its own timer, so a long poll or a slow press never lets the lease run out; one
  // renewal at a time, and none left running once polling ends (a late one would take the lease
  // back after a stop gave it up).
  let renewing: Promise<void> | null = null;
  const renew = setInterval(() => {
    if (renewing || signal.aborted) return;
    renewing = (async () => {
      const still = await lease.acquire(holder, clock.now(), leaseMs).catch(() => null);
      if (!still) lost.abort();
    })().finally(() => {
      renewing = null;
    });
  }, checkMs);
  try {
    while (!signal.aborted) {
      const answer = await call<TelegramUpdate[]>("getUpdates", {
        offset,
        timeout: pollTimeoutS,
        allowed_updates: ["callback_query"],
      }, { timeoutMs: (pollTimeoutS + 10) * 1000, signal });
      if (signal.aborted) break;
      if (!answer.ok || !Array.isArray(answer.result)) {
        // 409: a webhook was set meanwhile (another instance, on an https PUBLIC_URL: polling
        // ends and `pollLoop` finds the webhook and says so; never deleted, decision 0302) or
        // another poller (ours lost its lease, or a bot process outside this site); else Telegram
        // or the network failed: wait and try again.
        if (answer.error_code === 409 && /webhook/i.test(answer.description ?? "")) {
          return;
        } else {
          logger.warn("telegram getUpdates failed", { error: answer.description, code: answer.error_code });
          await sleep(Math.min(5_000, checkMs), signal);
        }
        continue;
      }
      for (const raw of answer.result) {
        if (signal.aborted) break;
        const update = parseUpdate(raw);
        const id = Number((raw as { update_id?: unknown })?.update_id);
        if (update) await p.handleUpdate(update);
        if (!Number.isSafeInteger(id)) continue;
        offset = Math.max(offset, id + 1);
        // Stored at once: a holder that dies now leaves the next one the right place to start.
        if (!(await lease.advance(holder, clock.now(), offset).catch(() => false))) lost.abort();
      }
    }
  } finally {
    clearInterval(renew);
    await renewing;
  }
}

/** Sets the webhook once a direction has a staff chat; tries again every `checkMs` until it is set. */
export async function webhookLoop(
  p: Pick<Poller, "db" | "call" | "logger" | "checkMs"> & {
    publicUrl: string;
    hook: ReturnType<typeof webhookSecrets>;
  },
  stop: AbortSignal,
) {
  const { db, call, logger, checkMs, hook } = p;
  while (!stop.aborted) {
    try {
      if (await deskInUse(db)) {
        const set = await call("setWebhook", {
          url: `${p.publicUrl.replace(/\/+$/, "")}/api${WEBHOOK_ROUTE}/${hook.pathKey}`,
          secret_token: hook.secretToken,
          allowed_updates: ["callback_query"],
        });
        if (set.ok) {
          logger.info("telegram updates: webhook set");
          return;
        }
        logger.warn("telegram setWebhook failed", { error: set.description });
      }
    } catch (err) {
      logger.error("telegram updates: setWebhook failed", { err });
    }
    await sleep(checkMs, stop);
  }
}

export function createTelegramUpdates(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "fetch" | "config"> & {
    users: UsersService;
    tracks: TracksService;
    review: ReviewService;
    declineTemplates: DeclineTemplatesService;
    desk: Pick<TelegramDesk, "keyboard" | "noteShownMarkup">;
  },
  options: UpdatesOptions = {},
) {
  const { db, clock, logger, config } = deps;
  const bot = config.telegram;
  const mode: UpdatesMode = !bot ? "off" : config.publicUrl.startsWith("https://") ? "webhook" : "polling";
  const secret = callbackSecret(config.jwtSecret);
  const hook = bot ? webhookSecrets(config.jwtSecret, bot.botToken) : null;
  const call = bot ? botCaller(bot, deps.fetch) : null;
  const leaseMs = (bot?.pollLeaseS ?? 30) * 1000;
  const checkMs = options.checkMs ?? Math.max(250, Math.floor(leaseMs / 3));
  const pollTimeoutS = options.pollTimeoutS ?? 25;
  /** This instance, as the lease names its holder. */
  const holder = `${Deno.hostname()}:${Deno.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const lease = bot ? createJobLease(db, `telegram-updates:${bot.botId}`) : null;

  /**
   * The card's buttons with the decline templates after the first row, as the cards' module draws
   * them (telegram-desk/card-text.ts); null without a decline template.
   */
  async function declineMarkup(c: PressedCard): Promise<InlineKeyboard | null> {
    const templates = await deps.declineTemplates.list("declined");
    if (templates.length === 0) return null;
    return await deps.desk.keyboard(c.id, templates);
  }

  const handlePress = call
    ? createPressHandler({
      ctx: deps,
      bot: call,
      secret,
      card: (id) => cardById(db, id),
      declineMarkup,
      // What the chat shows now, so the card's next edit compares with it (decision 0260).
      shownMarkup: (c, markup) => deps.desk.noteShownMarkup(c.id, markup),
    })
    : null;

  /** One update: a press is handled and answered; anything else is ignored. */
  async function handleUpdate(update: TelegramUpdate): Promise<PressResult | null> {
    const q = update.callback_query;
    if (!q || !handlePress) return null;
    return await handlePress(q);
  }

  const poller: Poller = {
    db,
    clock,
    logger,
    call: call!,
    lease: lease!,
    holder,
    leaseMs,
    checkMs,
    pollTimeoutS,
    handleUpdate,
  };

  let stopper = new AbortController();
  let running: Promise<void> | null = null;
  let holding = false;

  async function pollLoop(stop: AbortSignal) {
    /** The reason last logged for not polling, so a waiting instance says it once, not every check. */
    let said: string | null = null;
    while (!stop.aborted) {
      try {
        if (!(await deskInUse(db))) {
          await sleep(checkMs, stop);
          continue;
        }
        const reason = await webhookInTheWay(call!);
        if (reason !== null) {
          if (reason !== said) logger.warn("telegram updates: not polling", { reason });
          said = reason;
          if (holding) await lease!.release(holder, clock.now()).catch(() => {});
          holding = false;
          await sleep(checkMs, stop);
          continue;
        }
        if (said !== null) logger.info("telegram updates: the bot has no webhook now; polling may start");
        said = null;
        const got = await lease!.acquire(holder, clock.now(), leaseMs);
        if (!got) {
          if (holding) logger.info("telegram updates: another instance polls now");
          holding = false;
          await sleep(checkMs, stop);
          continue;
        }
        if (!holding) {
          holding = true;
          logger.info("telegram updates: this instance polls", { holder });
        }
        await pollWhileHolding(poller, got.cursor, stop);
      } catch (err) {
        logger.error("telegram updates: polling failed", { err });
        await sleep(checkMs, stop);
      }
    }
    holding = false;
  }

  return {
    mode,
    /** The webhook's path key and secret header (webhook mode only). */
    webhook: mode === "webhook" ? hook : null,
    handleUpdate,
    /** Begins receiving: sets the webhook, or competes for the polling lease. No-op without a bot token. */
    start() {
      if (mode === "off" || running) return;
      stopper = new AbortController();
      running =
        (mode === "polling"
          ? pollLoop(stopper.signal)
          : webhookLoop({ ...poller, publicUrl: config.publicUrl, hook: hook! }, stopper.signal)).finally(() => {
            running = null;
          });
    },
    /** Does this instance poll now. */
    get polling() {
      return holding;
    },
    /** Stops polling and gives the lease up at once, so another instance takes it without waiting. */
    async stop(timeoutMs = 5_000) {
      stopper.abort();
      const done = running;
      if (done) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([done, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
        clearTimeout(timer);
      }
      if (lease) await lease.release(holder, clock.now()).catch(() => {});
      holding = false;
    },
    /** The lease row (tests). */
    lease,
    holder,
  };
}

export type TelegramUpdates = ReturnType<typeof createTelegramUpdates>;

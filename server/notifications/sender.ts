import { and, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { DIRECTIONS } from "../../domain/directions.ts";
import type { Db } from "../../db/client.ts";
import { type OutboxChannel, telegramOutbox } from "../../db/schema.ts";
import type { Config } from "../config.ts";
import type { Clock } from "../deps.ts";
import type { Logger } from "../lib/logger.ts";
import { trackMessageText } from "./message-text.ts";
import { fallBack } from "./fallback.ts";
import { aboutSubject, subjectOf, SUPERSEDED_BY_NEWER, trackSubjectOf } from "./outbox.ts";
import { VK_CALLS_PER_SECOND } from "./vk/vk-api.ts";
import type { VkDelivery } from "./vk/vk-delivery.ts";

/**
 * Sends the outbox's rows through the Bot API's `sendMessage` (docs/protocols.md, "Telegram Bot
 * API"; docs/decisions/0157). One row at a time: a row is claimed by a single UPDATE that moves it
 * from `pending` (due) to `sending` with a lease, so two processes never hold the same row; a row
 * left `sending` by a process that stopped is claimed again once its lease has run out. Each chat
 * is tried at most once a `chatSpacingMs` (a second, as Telegram asks of bots), and never while
 * another message to it is being sent, by this process or another (docs/decisions/0201).
 */

export interface SenderOptions {
  /** Tries before a row is `failed` (a 429 does not count: Telegram said when to come back). */
  maxAttempts?: number;
  /** First retry delay; it doubles with each failed try, up to `maxDelayMs`, with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a claim holds; well above `requestTimeoutMs`. */
  leaseMs?: number;
  requestTimeoutMs?: number;
  /** Longest sleep between looks at the table (rows written by another process, due retries). */
  pollIntervalMs?: number;
  /** Least time between two tries to the same chat, across processes (Telegram: one a second). */
  chatSpacingMs?: number;
  /**
   * Least time between two tries to the same group or channel (a chat id starting with `-`): Telegram
   * lets a bot post about 20 messages a minute to a group (the staff cards' chats; docs/decisions/0261).
   */
  groupSpacingMs?: number;
  /** 0 ≤ x < 1; jitter source (tests pass a constant). */
  random?: () => number;
}

export interface SenderDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  fetch: typeof fetch;
  config: Pick<Config, "telegram"> & Partial<Pick<Config, "vkMessages">>;
  /** The VK channel's rows (issue 36): absent without the VK community's settings. */
  vk?: VkDelivery;
  /** Sends and edits the staff cards' rows (those with a `card_id`; issue 27, telegram-desk/). */
  cards?: CardDelivery;
}

/** A Bot API call's outcome and, when it succeeded, its `result`. */
export interface BotReply {
  outcome: Outcome;
  result?: unknown;
  /** Telegram's description of a refusal (e.g. "Bad Request: message is not modified"). */
  description?: string;
}

/** Calls a Bot API method with a JSON body, or a multipart one (a file). */
export type BotCaller = (method: string, body: Record<string, unknown> | FormData) => Promise<BotReply>;

/** Delivers one staff card row (the card, or an edit of it), rendered from the card's track now. */
export interface CardDelivery {
  deliver(row: typeof telegramOutbox.$inferSelect, call: BotCaller): Promise<Outcome>;
}

export interface SendRound {
  sent: number;
  retried: number;
  failed: number;
  blocked: number;
}

export interface TelegramSender {
  /** Begins sending: looks at the table now, then after each kick and on an interval. */
  start(): void;
  /** A row was just written: look soon (deferred, never in the caller's turn). No-op unless started. */
  kick(): void;
  /** Claims and sends every row due now, one after another; never throws. */
  runOnce(): Promise<SendRound>;
  /** Resolves when no round is running or about to run on a kick. */
  idle(): Promise<void>;
  /** Stops looking and waits (bounded) for the message being sent. */
  stop(timeoutMs?: number): Promise<void>;
}

export type Outcome =
  | { kind: "sent" }
  /**
   * Not to be tried again: blocked by the person (403) or refused as such (400); `superseded`: a
   * card's edit with nothing left to do (the card is sent with its current state anyway).
   */
  | { kind: "final"; status: "blocked" | "failed" | "superseded"; error: string }
  | { kind: "retry"; error: string; retryAfterMs?: number };

interface BotAnswer {
  ok?: boolean;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

const MIN_WAKE_MS = 1_000;

const DEFAULTS = {
  maxAttempts: 8,
  baseDelayMs: 5_000,
  maxDelayMs: 60 * 60 * 1000,
  leaseMs: 60_000,
  requestTimeoutMs: 15_000,
  pollIntervalMs: 30_000,
  chatSpacingMs: 1_000,
  groupSpacingMs: 3_000,
};

/** Delay before try `attempt + 1` after `attempt` failed tries: doubling, capped, half of it random. */
export function backoffDelayMs(attempt: number, base: number, cap: number, random: () => number): number {
  const full = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

/** A user's id as the number it is (ids fit in 52 bits); anything else as Telegram accepts it, a string. */
export function chatIdValue(chatId: string): string | number {
  return /^-?\d+$/.test(chatId) && Number.isSafeInteger(Number(chatId)) ? Number(chatId) : chatId;
}

/** One Bot API call; the answer read as an outcome (network errors included, never thrown). */
async function callBotApi(
  fetchFn: typeof fetch,
  bot: NonNullable<Config["telegram"]>,
  timeoutMs: number,
  method: string,
  payload: Record<string, unknown> | FormData,
): Promise<BotReply> {
  /** The token appears in the address, and fetch's errors quote the address. */
  const redact = (text: string) => text.replaceAll(bot.botToken, "<token>");
  let res: Response;
  let answer: (BotAnswer & { result?: unknown }) | null = null;
  try {
    const multipart = payload instanceof FormData;
    res = await fetchFn(`${bot.botApiUrl}/bot${bot.botToken}/${method}`, {
      method: "POST",
      ...(multipart ? {} : { headers: { "content-type": "application/json" } }),
      body: multipart ? payload : JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await res.text();
    try {
      answer = JSON.parse(body);
    } catch {
      answer = null;
    }
  } catch (err) {
    // Refused, reset, timed out or cut mid-answer: Telegram may have delivered it (decision 0157).
    return { outcome: { kind: "retry", error: redact(`network: ${(err as Error)?.message ?? String(err)}`) } };
  }
  if (res.ok && answer?.ok) return { outcome: { kind: "sent" }, result: answer.result };
  const code = answer?.error_code ?? res.status;
  const description = answer?.description;
  const error = redact(`${code}: ${description ?? (res.statusText || "no description")}`);
  if (code === 403) return { outcome: { kind: "final", status: "blocked", error }, description };
  // "chat not found", "message is too long": the same request would be refused again.
  if (code === 400) return { outcome: { kind: "final", status: "failed", error }, description };
  if (code === 429) {
    const s = Number(answer?.parameters?.retry_after);
    // At least a second, so a `retry_after: 0` cannot turn into a tight loop.
    return {
      outcome: { kind: "retry", error, retryAfterMs: Math.max(1, Number.isFinite(s) ? s : 1) * 1000 },
      description,
    };
  }
  // 5xx, and anything else (401 while a token is being replaced, an unexpected answer): back off.
  return { outcome: { kind: "retry", error }, description };
}

/**
 * The other messages about the claimed row's track to the same chat that are due now, claimed
 * with it: they leave as one message (issue 31, docs/decisions/0301). The outbox holds a track's
 * messages until the latest one's hold ends, so those decided within one another's hold are due
 * together.
 */
async function claimSiblings(db: Db, row: typeof telegramOutbox.$inferSelect, now: Date) {
  const t = telegramOutbox;
  const subject = trackSubjectOf(row.key);
  if (row.card_id !== null || subject === null) return [];
  return await db
    .update(t)
    .set({
      status: "sending",
      claim_id: row.claim_id,
      lease_until: row.lease_until,
      attempts: sql`${t.attempts} + 1`,
      attempted_at: now,
      updated_at: now,
    })
    .where(and(
      eq(t.status, "pending"),
      lte(t.next_attempt_at, now),
      eq(t.chat_id, row.chat_id),
      isNull(t.card_id),
      ne(t.id, row.id),
      aboutSubject(subject),
    ))
    .returning();
}

/** A direction's place in the canonical order, from a message's key (`decision:<track>:<direction>:<rev>`). */
const directionRank = (key: string) => DIRECTIONS.indexOf(key.split(":")[2] as (typeof DIRECTIONS)[number]);

/** What claiming and recording a row use. */
export interface OutboxContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  opts: typeof DEFAULTS;
  random: () => number;
  /** The channels this process sends (issue 36): a channel without its settings is left alone. */
  channels: readonly OutboxChannel[];
}

/** Claims the next due row whose chat is free (one statement), or none. */
export async function claimNext(c: OutboxContext, now: Date) {
  const { db, opts } = c;
  const t = telegramOutbox;
  const claimId = crypto.randomUUID();
  const at = now.getTime();
  const o = sql.identifier("o");
  const col = (c: { name: string }) => sql`${o}.${sql.identifier(c.name)}`;
  // The row's chat had no try in the last `chatSpacingMs` and has no message being sent under a
  // live lease (by any process): one message a second per chat, one after the other (0201).
  const spacing =
    sql`CASE WHEN substr(${t.chat_id}, 1, 1) = '-' THEN ${opts.groupSpacingMs} ELSE ${opts.chatSpacingMs} END`;
  const chatFree = sql`NOT EXISTS (SELECT 1 FROM ${t} AS ${o} WHERE ${col(t.chat_id)} = ${t.chat_id} AND (
    ${col(t.attempted_at)} > ${at} - ${spacing}
    OR (${col(t.status)} = 'sending' AND ${col(t.lease_until)} > ${at})))`;
  // The VK community's pace across instances: fewer than 20 tries begun in the last second (issue 36).
  const vkPace = sql`(${t.channel} <> 'vk' OR (SELECT count(*) FROM ${t} AS ${o} WHERE ${col(t.channel)} = 'vk'
    AND ${col(t.attempted_at)} > ${at} - 1000) < ${VK_CALLS_PER_SECOND})`;
  const due = and(
    or(
      and(eq(t.status, "pending"), lte(t.next_attempt_at, now)),
      and(eq(t.status, "sending"), lte(t.lease_until, now)),
    ),
    inArray(t.channel, [...c.channels]),
    chatFree,
    vkPace,
  );
  // One statement: the row is chosen and taken under the same write lock, so a second process
  // either takes another row or none (docs/decisions/0070: no interactive transactions).
  const [row] = await db
    .update(t)
    .set({
      status: "sending",
      claim_id: claimId,
      lease_until: new Date(now.getTime() + opts.leaseMs),
      attempts: sql`${t.attempts} + 1`,
      attempted_at: now,
      updated_at: now,
    })
    .where(
      and(due, inArray(t.id, db.select({ id: t.id }).from(t).where(due).orderBy(t.next_attempt_at, t.id).limit(1))),
    )
    .returning();
  return row;
}

/** Records a try's outcome on a row this claim still holds; the retry delay when it is to be tried again. */
export async function recordOutcome(
  c: OutboxContext,
  id: number,
  key: string,
  claimId: string,
  attempts: number,
  outcome: Outcome,
  tally: SendRound,
  /** The retry delay of the message's first row, so the rows of one message are retried together. */
  sameDelayMs?: number,
): Promise<number | undefined> {
  const { db, clock, logger, opts, random } = c;
  const t = telegramOutbox;
  const now = clock.now();
  const ours = and(eq(t.id, id), eq(t.status, "sending"), eq(t.claim_id, claimId));
  const released = { claim_id: null, lease_until: null, updated_at: now };
  if (outcome.kind === "sent") {
    tally.sent++;
    await db.update(t).set({ ...released, status: "sent", sent_at: now, last_error: null }).where(ours);
    return;
  }
  if (outcome.kind === "final") {
    if (outcome.status !== "superseded") {
      tally[outcome.status]++;
      logger.warn("telegram message not delivered", { id, status: outcome.status, error: outcome.error });
    }
    await db.update(t).set({ ...released, status: outcome.status, last_error: outcome.error }).where(ours);
    return;
  }
  const flood = outcome.retryAfterMs !== undefined;
  const counted = flood ? attempts - 1 : attempts;
  if (!flood && counted >= opts.maxAttempts) {
    tally.failed++;
    logger.warn("telegram message given up", { id, attempts: counted, error: outcome.error });
    await db.update(t).set({ ...released, status: "failed", last_error: outcome.error }).where(ours);
    return;
  }
  tally.retried++;
  const delay = outcome.retryAfterMs ?? sameDelayMs ??
    backoffDelayMs(counted, opts.baseDelayMs, opts.maxDelayMs, random);
  // A newer message about the same decision was written while this one was out (and will be, or
  // was, sent): retrying this one would tell the artist an old outcome after the new (0200).
  const newer = sql`EXISTS (SELECT 1 FROM ${t} AS "n" WHERE "n"."id" > ${id}
    AND "n"."channel" = (SELECT "c"."channel" FROM ${t} AS "c" WHERE "c"."id" = ${id})
    AND "n"."status" IN ('pending', 'sending', 'sent') AND ${aboutSubject(subjectOf(key), sql`"n"."key"`)})`;
  await db
    .update(t)
    .set({
      ...released,
      status: sql`CASE WHEN ${newer} THEN 'superseded' ELSE 'pending' END`,
      attempts: counted,
      next_attempt_at: new Date(now.getTime() + delay),
      last_error: sql`CASE WHEN ${newer} THEN ${SUPERSEDED_BY_NEWER} ELSE ${outcome.error} END`,
    })
    .where(ours);
  return delay;
}

/** When the next row falls due (a retry, or a claim whose lease runs out), if any. */
export async function nextDueAt(db: Db): Promise<number | null> {
  const t = telegramOutbox;
  const [row] = await db
    .select({
      at: sql<
        number | null
      >`min(case when ${t.status} = 'pending' then ${t.next_attempt_at} else ${t.lease_until} end)`,
    })
    .from(t)
    .where(inArray(t.status, ["pending", "sending"]));
  return row?.at ?? null;
}

/** What sending one claimed message needs (the sender's parts, at module level to keep it short). */
interface SendCore {
  outbox: OutboxContext;
  callBot: BotCaller;
  vk?: VkDelivery;
  cards?: CardDelivery;
  on: { telegram: boolean; vk: boolean };
}

/**
 * Sends the claimed row with the track's other messages due to the same chat (one message, 0301),
 * through its channel, records every row's outcome, and sends a message shut out of its channel
 * (the bot blocked, VK messages no longer allowed) to the other once (0392).
 */
async function sendClaimed(
  core: SendCore,
  row: typeof telegramOutbox.$inferSelect,
  now: Date,
  tally: SendRound,
) {
  const { db, clock } = core.outbox;
  const rows = [row, ...(await claimSiblings(db, row, now))]
    .sort((a, b) => directionRank(a.key) - directionRank(b.key) || a.id - b.id);
  const text = () => trackMessageText(rows.map((r) => r.text));
  const outcome: Outcome = row.channel === "vk"
    ? await core.vk!.deliver(rows, text())
    : row.card_id === null
    ? (await core.callBot("sendMessage", {
      chat_id: chatIdValue(row.chat_id),
      text: text(),
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    })).outcome
    : core.cards
    ? await core.cards.deliver(row, core.callBot)
    : { kind: "final", status: "failed", error: "no staff desk to render the card" };
  // One message: counted once, every row of it recorded with its outcome.
  const uncounted: SendRound = { sent: 0, retried: 0, failed: 0, blocked: 0 };
  let delay: number | undefined;
  for (const r of rows) {
    delay = await recordOutcome(
      core.outbox,
      r.id,
      r.key,
      r.claim_id!,
      r.attempts,
      outcome,
      r === rows[0] ? tally : uncounted,
      delay,
    );
  }
  if (outcome.kind === "final" && outcome.status === "blocked" && row.card_id === null) {
    const other = row.channel === "vk" ? "telegram" : "vk";
    await fallBack(db, clock.now(), rows.map((r) => r.id), other, core.on);
  }
}

export function createTelegramSender(deps: SenderDeps, options: SenderOptions = {}): TelegramSender {
  const { db, clock, logger } = deps;
  const opts = { ...DEFAULTS, ...options };
  const random = options.random ?? Math.random;
  const bot = deps.config.telegram;
  const vk = deps.vk;
  const channels: OutboxChannel[] = [...(bot ? ["telegram" as const] : []), ...(vk ? ["vk" as const] : [])];
  const outbox: OutboxContext = { db, clock, logger, opts, random, channels };
  const on = { telegram: Boolean(bot), vk: Boolean(vk) };

  let started = false;
  let stopped = false;
  let round: Promise<SendRound> | null = null;
  let again = false;
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;
  let kickTimer: ReturnType<typeof setTimeout> | undefined;
  let idleWaiters: Array<() => void> = [];

  /** One Bot API call; the answer read as an outcome (network errors included, never thrown). */
  const callBot: BotCaller = (method, payload) => callBotApi(deps.fetch, bot!, opts.requestTimeoutMs, method, payload);
  const core: SendCore = { outbox, callBot, vk, cards: deps.cards, on };

  async function sendDue(): Promise<SendRound> {
    const tally: SendRound = { sent: 0, retried: 0, failed: 0, blocked: 0 };
    if (channels.length === 0) return tally;
    try {
      while (!stopped) {
        const now = clock.now();
        const row = await claimNext(outbox, now);
        if (!row) break;
        await sendClaimed(core, row, now, tally);
        if (stopped) break;
      }
    } catch (err) {
      // A database error: the row keeps its claim and is taken again when the lease runs out.
      logger.error("telegram outbox round failed", { err });
    }
    return tally;
  }

  function settleIdle() {
    if (round || kickTimer) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function schedule(delayMs: number) {
    clearTimeout(wakeTimer);
    if (stopped) return;
    // At least a second: a row that stays due (the database failing under the claim) must not spin.
    wakeTimer = setTimeout(() => void loop(), Math.max(MIN_WAKE_MS, Math.min(delayMs, opts.pollIntervalMs)));
    Deno.unrefTimer(wakeTimer);
  }

  function runOnce(): Promise<SendRound> {
    if (round) {
      again = true;
      return round;
    }
    round = (async () => {
      const total: SendRound = { sent: 0, retried: 0, failed: 0, blocked: 0 };
      do {
        again = false;
        const r = await sendDue();
        total.sent += r.sent;
        total.retried += r.retried;
        total.failed += r.failed;
        total.blocked += r.blocked;
      } while (again && !stopped);
      return total;
    })().finally(() => {
      round = null;
      settleIdle();
    });
    return round;
  }

  async function loop() {
    if (stopped) return;
    await runOnce();
    if (stopped) return;
    let next: number | null = null;
    try {
      next = await nextDueAt(db);
    } catch (err) {
      logger.error("telegram outbox: could not read the next due time", { err });
    }
    schedule(next === null ? opts.pollIntervalMs : next - clock.now().getTime());
  }

  return {
    start() {
      if (started || channels.length === 0) return;
      started = true;
      void loop();
    },
    kick() {
      if (!started || stopped || kickTimer) return;
      // Deferred to a later turn, so the request that wrote the row answers first.
      kickTimer = setTimeout(() => {
        kickTimer = undefined;
        void loop();
      }, 0);
    },
    runOnce,
    idle() {
      if (!round && !kickTimer) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop(timeoutMs = 20_000) {
      stopped = true;
      clearTimeout(wakeTimer);
      clearTimeout(kickTimer);
      kickTimer = undefined;
      if (!round) return settleIdle();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([round, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
    },
  };
}

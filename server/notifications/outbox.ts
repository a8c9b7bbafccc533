import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client.ts";
import { artistChannels, OUTBOX_CHANNELS, type OutboxChannel, telegramOutbox, users } from "../../db/schema.ts";
import type { Config } from "../config.ts";
import type { Clock } from "../deps.ts";
import { type DecisionMessage, decisionMessageText } from "./message-text.ts";

/**
 * The durable outbox of messages to artists (docs/decisions/0157), over Telegram and, with the VK
 * community's settings, VK (issue 36: one row per channel, decision 0390). A decision change
 * writes its message row in the same `db.batch([...])` as the change itself, so the message exists
 * exactly when the change does; the sender (sender.ts) sends it after the request has answered.
 */

/** Where the artist follows their tracks and decisions. */
export const HISTORY_PATH = "/profile";

/** One decision change to tell an artist about. */
export interface DecisionNotice extends Omit<DecisionMessage, "historyUrl"> {
  /**
   * Unique per decision change: a second enqueue with the same key writes nothing, so a change is
   * announced at most once. `decisionChangeKey(trackId, direction, revision)`.
   */
  key: string;
  /**
   * The artist. A row per channel that reaches them (Telegram: a `telegram_id`; VK: allowed, issue
   * 36) among those they chose; nothing when none does.
   */
  userId: number;
}

/** The key of one change of a pair: its revision is unique per pair (track_decision_history). */
export function decisionChangeKey(trackId: number, direction: string, revision: number): string {
  return `decision:${trackId}:${direction}:${revision}`;
}

/** The start of every key about a track's pairs (`decision:<track>:`): its messages go out together (0301). */
export function trackSubject(trackId: number): string {
  return `decision:${trackId}:`;
}

/** The track's part of a decision message's key (`decision:<track>:`), or null for another key. */
export function trackSubjectOf(key: string): string | null {
  const m = /^decision:\d+:/.exec(key);
  return m ? m[0] : null;
}

/** The pair's subject (`decision:<track>:<direction>:`). */
export function pairSubject(trackId: number, direction: string): string {
  return `decision:${trackId}:${direction}:`;
}

/**
 * What a message is about: its key without the revision (`decision:<track>:<direction>:`). A
 * newer message about the same subject replaces one still waiting (decision 0200).
 */
export function subjectOf(key: string): string | null {
  const cut = key.lastIndexOf(":");
  return cut > 0 ? key.slice(0, cut + 1) : null;
}

/** SQL: the key (the outbox row's, unless another column is given) is about `subject`; never without one. */
export function aboutSubject(subject: string | null, key: SQL | typeof telegramOutbox.key = telegramOutbox.key): SQL {
  if (subject === null) return sql`0`;
  return sql`substr(${key}, 1, ${subject.length}) = ${subject}`;
}

/** Reasons kept in `last_error` of a row that was never sent (decision 0200). */
export const SUPERSEDED_BY_NEWER = "superseded: a newer message about the same decision replaced it";
export const SUPERSEDED_SAME_AS_TOLD = "superseded: the artist was last told the same";
/** The pair changed within the hold to a state that sends nothing (domain/artist-notice.ts, decision 0300). */
export const SUPERSEDED_BY_STATE = "superseded: the pair's state now sends nothing (shortlisted, listened or new)";

export type EnqueueStatements = ReturnType<typeof noticeStatements>;

export interface TelegramOutbox {
  /** False without TELEGRAM_BOT_TOKEN: rows are then written as `skipped` and never sent. */
  readonly enabled: boolean;
  /**
   * The statements for one notice, to spread inside the caller's `db.batch([...])` next to the
   * decision write (never on their own: use `enqueue`): an older message about the same decision
   * still waiting is marked `superseded`, then the new one is inserted (decision 0200). Writes no
   * row when the artist has no Telegram id or the key is already there; the row is `superseded`
   * at once when its text is what the artist was last told about this decision.
   */
  enqueueStatements(notice: DecisionNotice): EnqueueStatements;
  /** The same statements run as a batch of their own; true when a row was written. */
  enqueue(notice: DecisionNotice): Promise<boolean>;
  /**
   * A message to an artist about something other than a decision (the release desk's, the episode
   * desk's): the same statements as a notice's, with the text given. `key` names it once (a repeat
   * writes nothing) and its subject (the key without its last `:` part) is what a newer message
   * replaces while waiting; e.g. `release:<id>:reminder:<n>`. Sent from now (no decision hold).
   */
  artistTextStatements(message: ArtistText): EnqueueStatements;
  /** The same statements run as a batch of their own; true when a row was written. */
  enqueueArtistText(message: ArtistText): Promise<boolean>;
  /** DECISION_NOTIFY_HOLD_S in ms: how long a new row waits before it may be sent. */
  readonly holdMs: number;
  /**
   * For an undo's batch (0222): the messages of `keys` still waiting are never sent. A row already
   * being sent is left alone (the undo is refused before that: its hold is over).
   */
  cancelStatement(keys: readonly string[]): BatchItem<"sqlite">;
  /**
   * For an undo's batch: the messages of `keys` that the undone decision replaced wait again (the
   * state they announce is the current one once more), with their own send time; the undo's batch
   * then makes them wait for the undo's hold (`pairChangeStatement`, decision 0300).
   */
  reinstateStatement(keys: readonly string[]): BatchItem<"sqlite">;
  /**
   * For a pair change's batch that writes no new message (domain/artist-notice.ts `heldMessageFate`,
   * decision 0300): `keep` makes the track's held messages wait for this change's hold (the artist's
   * pages show the change then, and the track's messages leave together: 0301); `cancel` means the
   * pair's state sends nothing, so its held message is never sent.
   */
  pairChangeStatement(trackId: number, direction: string, fate: "keep" | "cancel"): BatchItem<"sqlite">;
}

/** A message to an artist that is not about a decision (`TelegramOutbox.artistTextStatements`). */
export interface ArtistText {
  /** Unique per message, with a subject: `<what>:<id>:<event>:<n>`; never `decision:…`. */
  key: string;
  /**
   * The artist. A row per channel that reaches them (Telegram: a `telegram_id`; VK: allowed, issue
   * 36) among those they chose; nothing when none does.
   */
  userId: number;
  /** Telegram HTML: escape what the artist or staff wrote with `escapeHtml` (message-text.ts). */
  text: string;
}

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, "publicUrl" | "telegram"> & Partial<Pick<Config, "decisionNotifyHoldS" | "vkMessages">>;
}

/** Why a held message was never sent: its decision was undone within the hold (0222). */
export const CANCELLED_BY_UNDO = "cancelled: the decision was undone within its hold";

/** What the outbox knows of the channels when it writes a message's rows (issue 36). */
interface ChannelsOn {
  telegram: boolean;
  vk: boolean;
}

/**
 * SQL over `users` ("u") and `artist_channels` ("ac", left-joined): whether the artist gets the
 * message on `channel`: they chose it (or chose nothing: wherever they can receive), or the other
 * channel they chose cannot reach them (a choice never silences the messages; decision 0393).
 */
export function channelWanted(channel: OutboxChannel, on: ChannelsOn): SQL {
  const chose = (c: OutboxChannel) =>
    sql`("ac"."channels" is null or instr(',' || "ac"."channels" || ',', ${`,${c},`}) > 0)`;
  const tgReaches = sql`(${on.telegram ? 1 : 0} and "u"."telegram_id" is not null)`;
  const vkReaches = sql`(${on.vk ? 1 : 0} and "ac"."vk_user_id" is not null and "ac"."vk_allowed" = 1)`;
  return channel === "telegram"
    ? sql`("u"."telegram_id" is not null and (${chose("telegram")} or not (${vkReaches} and ${chose("vk")})))`
    : sql`(${vkReaches} and (${chose("vk")} or not (${tgReaches} and ${chose("telegram")})))`;
}

/** The chat a row of `channel` goes to, from "u" and "ac": a Telegram id, or `vk:<VK user id>`. */
export const channelChat = (channel: OutboxChannel) =>
  channel === "telegram" ? sql`"u"."telegram_id"` : sql`'vk:' || "ac"."vk_user_id"`;

function noticeStatements(
  db: Db,
  notice: Pick<DecisionNotice, "key" | "userId">,
  text: string,
  on: ChannelsOn,
  now: Date,
  holdMs: number,
) {
  const t = telegramOutbox;
  const at = now.getTime();
  // Not sent before the decision's hold is over (DECISION_NOTIFY_HOLD_S, docs/decisions/0223): the
  // sender claims only rows whose `next_attempt_at` has come.
  const sendAt = at + holdMs;
  const subject = subjectOf(notice.key);
  // Waiting, or claimed by a process whose lease ran out: never reached Telegram as far as anyone
  // knows, and the newer message tells the artist the current outcome. A row being sent under a
  // live lease is left to finish (at least once); the sender keeps the order (sender.ts).
  const supersede = db
    .update(t)
    .set({ status: "superseded", claim_id: null, lease_until: null, last_error: SUPERSEDED_BY_NEWER, updated_at: now })
    .where(sql`(${t.status} = 'pending' OR (${t.status} = 'sending' AND ${t.lease_until} <= ${at}))
      AND ${aboutSubject(subject)} AND ${t.key} <> ${notice.key}`);
  // One row per channel the artist gets it on (issue 36, decision 0390): Telegram's, then VK's.
  const rows = OUTBOX_CHANNELS.map((channel) => channelInsert(db, notice, text, channel, on, sendAt, at));
  return [supersede, ...rows, holdTrackStatement(db, trackSubjectOf(notice.key), sendAt, now)] as const;
}

/** The message's row for one channel, written only when the artist gets it there (`channelWanted`). */
function channelInsert(
  db: Db,
  notice: Pick<DecisionNotice, "key" | "userId">,
  text: string,
  channel: OutboxChannel,
  on: ChannelsOn,
  sendAt: number,
  at: number,
) {
  const t = telegramOutbox;
  const subject = subjectOf(notice.key);
  // What the artist was last told about this decision on this channel (sent, or being sent): the
  // same text again is no news, so the row is recorded as superseded and never sent.
  const lastTold = sql`(SELECT "o"."text" FROM ${t} AS "o"
    WHERE "o"."status" IN ('sent', 'sending') AND "o"."channel" = ${channel}
      AND ${aboutSubject(subject, sql`"o"."key"`)}
    ORDER BY "o"."id" DESC LIMIT 1)`;
  const sameAsTold = sql`coalesce(${lastTold} = ${text}, 0)`;
  const enabled = on[channel];
  const status = enabled ? sql`CASE WHEN ${sameAsTold} THEN 'superseded' ELSE 'pending' END` : sql`'skipped'`;
  const reason = enabled
    ? sql`CASE WHEN ${sameAsTold} THEN ${SUPERSEDED_SAME_AS_TOLD} ELSE NULL END`
    : sql`${"TELEGRAM_BOT_TOKEN is not set"}`;
  const col = (c: { name: string }) => sql.identifier(c.name);
  // INSERT … SELECT from the artist's row: the chat is read in the same statement (so in the same
  // batch) as the decision write, and an artist the channel does not reach gets no row on it.
  // Written as SQL: drizzle's insert-select wants every column of the table listed. Without the VK
  // community's settings no VK row is written at all (`channelWanted`).
  return db.run(sql`
    insert into ${t} (${col(t.key)}, ${col(t.channel)}, ${col(t.user_id)}, ${col(t.chat_id)}, ${col(t.text)},
      ${col(t.status)}, ${col(t.next_attempt_at)}, ${col(t.last_error)}, ${col(t.created_at)}, ${col(t.updated_at)})
    select ${notice.key}, ${channel}, "u"."id", ${channelChat(channel)}, ${text}, ${status}, ${sendAt},
      ${reason}, ${at}, ${at}
    from ${users} as "u" left join ${artistChannels} as "ac" on "ac"."user_id" = "u"."id"
    where "u"."id" = ${notice.userId} and ${channelWanted(channel, on)}
    on conflict (${col(t.key)}, ${col(t.channel)}) do nothing`);
}

/**
 * The track's messages still held wait at least until `sendAt` (ms), so a track's messages within
 * one another's hold leave as one (the sender joins them, decision 0301) and none leaves before the
 * artist's pages show its pair's latest change (decision 0300).
 */
function holdTrackStatement(db: Db, subject: string | null, sendAt: number, now: Date) {
  const t = telegramOutbox;
  return db.update(t)
    .set({ next_attempt_at: sql`max(${t.next_attempt_at}, ${sendAt})`, updated_at: now })
    .where(and(eq(t.status, "pending"), aboutSubject(subject)));
}

export function createTelegramOutbox({ db, clock, config }: OutboxDeps): TelegramOutbox {
  const enabled = Boolean(config.telegram);
  const on: ChannelsOn = { telegram: enabled, vk: Boolean(config.vkMessages) };
  const historyUrl = `${config.publicUrl}${HISTORY_PATH}`;
  const holdMs = (config.decisionNotifyHoldS ?? 0) * 1000;
  const statements = (notice: DecisionNotice) =>
    noticeStatements(db, notice, decisionMessageText({ ...notice, historyUrl }), on, clock.now(), holdMs);
  return {
    enabled,
    holdMs,
    cancelStatement(keys: readonly string[]) {
      const now = clock.now();
      return db.update(telegramOutbox)
        .set({ status: "superseded", last_error: CANCELLED_BY_UNDO, updated_at: now })
        .where(and(inArray(telegramOutbox.key, [...keys]), eq(telegramOutbox.status, "pending")));
    },
    reinstateStatement(keys: readonly string[]) {
      const now = clock.now();
      return db.update(telegramOutbox)
        .set({ status: "pending", last_error: null, updated_at: now })
        .where(and(
          inArray(telegramOutbox.key, [...keys]),
          eq(telegramOutbox.status, "superseded"),
          or(eq(telegramOutbox.last_error, SUPERSEDED_BY_NEWER), eq(telegramOutbox.last_error, SUPERSEDED_BY_STATE)),
        ));
    },
    pairChangeStatement(trackId, direction, fate) {
      const now = clock.now();
      if (fate === "keep") return holdTrackStatement(db, trackSubject(trackId), now.getTime() + holdMs, now);
      return db.update(telegramOutbox)
        .set({ status: "superseded", last_error: SUPERSEDED_BY_STATE, updated_at: now })
        .where(and(eq(telegramOutbox.status, "pending"), aboutSubject(pairSubject(trackId, direction))));
    },
    enqueueStatements: statements,
    async enqueue(notice) {
      const [, telegram, vk] = await db.batch([...statements(notice)]);
      return telegram.rowsAffected + vk.rowsAffected > 0;
    },
    artistTextStatements: (message) => {
      if (message.key.startsWith("decision:")) throw new Error("a decision's message is a DecisionNotice");
      return noticeStatements(db, message, message.text, on, clock.now(), 0);
    },
    async enqueueArtistText(message) {
      const [, telegram, vk] = await db.batch([...this.artistTextStatements(message)]);
      return telegram.rowsAffected + vk.rowsAffected > 0;
    },
  };
}

import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { telegramOutbox, users } from "../../db/schema.ts";
import type { Config } from "../config.ts";
import type { Clock } from "../deps.ts";
import { decisionMessageText, type DecisionMessage } from "./message-text.ts";

/**
 * The durable outbox of Telegram messages to artists (docs/decisions/0157). A decision change
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
  /** The artist. Nothing is written when they have no `telegram_id`. */
  userId: number;
}

/** The key of one change of a pair: its revision is unique per pair (track_decision_history). */
export function decisionChangeKey(trackId: number, direction: string, revision: number): string {
  return `decision:${trackId}:${direction}:${revision}`;
}

export type EnqueueStatement = ReturnType<typeof insertNotice>;

export interface TelegramOutbox {
  /** False without TELEGRAM_BOT_TOKEN: rows are then written as `skipped` and never sent. */
  readonly enabled: boolean;
  /**
   * The insert for one notice, to run inside the caller's `db.batch([...])` next to the decision
   * write (never on its own: use `enqueue`). Writes no row when the artist has no Telegram id or
   * the key is already there.
   */
  enqueueStatement(notice: DecisionNotice): EnqueueStatement;
  /** The same insert run alone; true when a row was written. */
  enqueue(notice: DecisionNotice): Promise<boolean>;
}

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, "publicUrl" | "telegram">;
}

function insertNotice(db: Db, notice: DecisionNotice, text: string, enabled: boolean, now: Date) {
  // INSERT … SELECT from the artist's row: the Telegram id is read in the same statement (so in the
  // same batch) as the decision write, and an artist without one gets no row at all. Written as SQL:
  // drizzle's insert-select wants every column of the table listed.
  const t = telegramOutbox;
  const at = now.getTime();
  return db.run(sql`
    insert into ${t} (${sql.identifier(t.key.name)}, ${sql.identifier(t.user_id.name)}, ${sql.identifier(t.chat_id.name)},
      ${sql.identifier(t.text.name)}, ${sql.identifier(t.status.name)}, ${sql.identifier(t.next_attempt_at.name)},
      ${sql.identifier(t.last_error.name)}, ${sql.identifier(t.created_at.name)}, ${sql.identifier(t.updated_at.name)})
    select ${notice.key}, ${users.id}, ${users.telegram_id}, ${text}, ${enabled ? "pending" : "skipped"}, ${at},
      ${enabled ? null : "TELEGRAM_BOT_TOKEN is not set"}, ${at}, ${at}
    from ${users}
    where ${and(eq(users.id, notice.userId), isNotNull(users.telegram_id))}
    on conflict (${sql.identifier(t.key.name)}) do nothing`);
}

export function createTelegramOutbox({ db, clock, config }: OutboxDeps): TelegramOutbox {
  const enabled = Boolean(config.telegram);
  const historyUrl = `${config.publicUrl}${HISTORY_PATH}`;
  const statement = (notice: DecisionNotice) =>
    insertNotice(db, notice, decisionMessageText({ ...notice, historyUrl }), enabled, clock.now());
  return {
    enabled,
    enqueueStatement: statement,
    async enqueue(notice) {
      const result = await statement(notice);
      return result.rowsAffected > 0;
    },
  };
}

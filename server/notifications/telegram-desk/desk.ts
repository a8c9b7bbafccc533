import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { directionIntake, telegramCards, telegramOutbox } from "../../../db/schema.ts";
import type { Direction } from "../../../domain/directions.ts";
import { ClipError, cutClip } from "../../audio/clip.ts";
import type { Config } from "../../config.ts";
import type { Clock } from "../../deps.ts";
import type { Logger } from "../../lib/logger.ts";
import type { FileStorage } from "../../storage/file-storage.ts";
import { type BotCaller, type CardDelivery, chatIdValue, type Outcome } from "../sender.ts";
import { callbackSecret } from "./callback-data.ts";
import { cardRefreshStatements, cardSendKey } from "./refresh.ts";

export { cardRefreshStatements, cardSendKey };
import { type CardFacts, cardKeyboard, cardText, type InlineKeyboard } from "./card-text.ts";
import { trackNameParts } from "../../../domain/track-name.ts";

/**
 * The staff desk in Telegram (issue 27): when a track completes processing, each of its directions
 * whose «Приём треков» rules name a `staff_chat_id` gets one card (`telegram_cards`), posted through
 * the outbox (server/notifications/: retries, 429 `retry_after`, 403 recorded, paced per chat) with
 * `sendAudio` and the 30-second clip (server/audio/clip.ts, cut when it is sent, from storage), or
 * `sendMessage` when no clip can be cut. Whenever a pair changes (a decision anywhere, its undo, a
 * vote), `cardRefreshStatements` queue an edit of its card in the same batch; an edit waiting is
 * replaced by a newer one (only the card's latest state is sent), and it is rendered when it is
 * sent, from the track as it is then (docs/decisions/0259, 0260).
 *
 * Nothing is written without TELEGRAM_BOT_TOKEN, nor for a direction without a chat.
 */

/** What a card shows, and where its clip comes from, read through the tracks service. */
export interface CardTrack {
  facts: Omit<CardFacts, "direction"> & { direction: Direction };
  /** The stored file, or null (a track created by staff without one). */
  storageKey: string | null;
  durationS: number | null;
  dropS: number | null;
}

/** How the desk reads a track (the tracks service is built after the notifications: `connect`). */
export interface CardSource {
  /** The track as a card for `direction` shows it (waiting counted for it); null when it is gone. */
  cardTrack(trackId: number, direction: Direction): Promise<CardTrack | null>;
  /** The track's directions, or null when it is gone. */
  trackDirections(trackId: number): Promise<Direction[] | null>;
}

export interface TelegramDesk extends CardDelivery {
  /** False without TELEGRAM_BOT_TOKEN: no card is ever written. */
  readonly enabled: boolean;
  /** The secret the cards' callback data is signed with (callback-data.ts). */
  readonly callbackSecret: string;
  connect(source: CardSource): void;
  /**
   * A track completed processing: one card per direction with a staff chat (none twice), queued in
   * the outbox. The number of cards written.
   */
  trackCompleted(trackId: number): Promise<number>;
  /** Queues an edit of the cards of these pairs (a vote changed); the sender is kicked by the caller. */
  refresh(trackId: number, directions: readonly string[]): Promise<void>;
  /** A card by id (the presses' handler looks the pair up by it). */
  card(cardId: number): Promise<typeof telegramCards.$inferSelect | null>;
  /**
   * The press handler edited the card's buttons itself (the decline templates' row after
   * «Отклонить»): what the chat shows now, so the next edit compares with it (docs/decisions/0260).
   */
  noteShownMarkup(cardId: number, keyboard: InlineKeyboard | null): Promise<void>;
  /** The card's buttons as they are now, or with the decline templates' row (after «Отклонить»). */
  keyboard(
    cardId: number,
    declineTemplates?: readonly { id: number; title: string }[],
  ): Promise<InlineKeyboard | null>;
}

export interface DeskDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, "publicUrl" | "telegram"> & { jwtSecret?: string };
  /** Private track files, for the clip; without it cards go without audio. */
  storage?: FileStorage;
}

const CARD_NOT_SENT_YET = "superseded: the card is not sent yet, and is sent with its current state";
const NO_CHANGE = "superseded: the card already shows this";

const isNotModified = (description: string | undefined) => /message is not modified/i.test(description ?? "");

/** What the desk's operations use: the deps and the callback data's secret. */
export interface DeskContext extends DeskDeps {
  secret: string;
}

export async function cardById(d: DeskContext, cardId: number) {
  const [row] = await d.db.select().from(telegramCards).where(eq(telegramCards.id, cardId)).limit(1);
  return row ?? null;
}

export function renderCard(d: DeskContext, cardId: number, t: CardTrack) {
  const text = cardText(t.facts, d.config.publicUrl);
  const keyboard = cardKeyboard(d.secret, cardId, t.facts);
  return { text, keyboard };
}

/** The clip as a file, or null when none can be cut (the card then goes as text). A storage outage throws. */
export async function clipFile(d: DeskContext, t: CardTrack): Promise<File | null> {
  if (!d.storage || !t.storageKey) return null;
  const { artist, title } = trackNameParts(t.facts.filename);
  try {
    if (!(await d.storage.stat(t.storageKey))) return null;
    const clip = await cutClip(d.storage, t.storageKey, {
      dropS: t.dropS,
      durationS: t.durationS,
      artist,
      title,
    });
    const name = `${[artist, title].filter(Boolean).join(" - ") || "clip"} (clip).mp3`.replace(/[\\/"\r\n]/g, "_");
    return new File([clip.bytes as Uint8Array<ArrayBuffer>], name, { type: "audio/mpeg" });
  } catch (err) {
    if (!(err instanceof ClipError)) throw err;
    d.logger.info("staff card goes without a clip", { trackId: t.facts.trackId, reason: err.message });
    return null;
  }
}

export async function markCardRow(d: DeskContext, cardId: number, set: Partial<typeof telegramCards.$inferInsert>) {
  await d.db.update(telegramCards).set({ ...set, updated_at: d.clock.now() }).where(eq(telegramCards.id, cardId));
}

export async function setMethod(d: DeskContext, rowId: number, method: (typeof telegramOutbox.$inferSelect)["method"]) {
  await d.db.update(telegramOutbox).set({ method }).where(eq(telegramOutbox.id, rowId));
}

export async function sendCard(
  d: DeskContext,
  row: typeof telegramOutbox.$inferSelect,
  c: typeof telegramCards.$inferSelect,
  t: CardTrack,
  call: BotCaller,
) {
  // Sent already (a claim whose lease ran out after Telegram answered): not posted twice.
  if (c.message_id !== null) return { kind: "sent" } as const;
  const { text, keyboard } = renderCard(d, c.id, t);
  let file: File | null;
  try {
    file = await clipFile(d, t);
  } catch (err) {
    return { kind: "retry", error: `storage: ${(err as Error)?.message ?? String(err)}` } as const;
  }
  let reply;
  if (file) {
    const form = new FormData();
    form.set("chat_id", String(chatIdValue(c.chat_id)));
    form.set("audio", file);
    form.set("caption", text);
    form.set("parse_mode", "HTML");
    const { artist, title } = trackNameParts(t.facts.filename);
    if (title) form.set("title", title);
    if (artist) form.set("performer", artist);
    if (keyboard) form.set("reply_markup", JSON.stringify(keyboard));
    reply = await call("sendAudio", form);
  } else {
    reply = await call("sendMessage", {
      chat_id: chatIdValue(c.chat_id),
      text,
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      ...(keyboard ? { reply_markup: keyboard } : {}),
    });
  }
  if (file === null) await setMethod(d, row.id, "sendMessage");
  const o = reply.outcome;
  if (o.kind === "sent") {
    const messageId = Number((reply.result as { message_id?: unknown } | undefined)?.message_id);
    await markCardRow(d, c.id, {
      message_id: Number.isSafeInteger(messageId) ? messageId : null,
      has_audio: file !== null,
      state: "sent",
      shown_text: text,
      shown_markup: keyboard ? JSON.stringify(keyboard) : null,
    });
  } else if (o.kind === "final") {
    await markCardRow(d, c.id, { state: o.status === "blocked" ? "blocked" : "failed" });
  }
  return o;
}

export async function editCard(
  d: DeskContext,
  row: typeof telegramOutbox.$inferSelect,
  c: typeof telegramCards.$inferSelect,
  t: CardTrack,
  call: BotCaller,
) {
  if (c.message_id === null) {
    // Still to be sent (it will show the state then), or it never reached the chat.
    return c.state === "queued"
      ? { kind: "final", status: "superseded", error: CARD_NOT_SENT_YET } as const
      : { kind: "final", status: "failed", error: `the card was never sent (${c.state})` } as const;
  }
  const { text, keyboard } = renderCard(d, c.id, t);
  const markup = keyboard ? JSON.stringify(keyboard) : null;
  if (text === c.shown_text && markup === c.shown_markup) {
    return { kind: "final", status: "superseded", error: NO_CHANGE } as const;
  }
  const target = { chat_id: chatIdValue(c.chat_id), message_id: c.message_id };
  // An empty keyboard removes the buttons.
  const reply_markup = keyboard ?? { inline_keyboard: [] };
  const method = text === c.shown_text
    ? "editMessageReplyMarkup"
    : c.has_audio
    ? "editMessageCaption"
    : "editMessageText";
  await setMethod(d, row.id, method);
  const reply = await call(
    method,
    method === "editMessageReplyMarkup"
      ? { ...target, reply_markup }
      : method === "editMessageCaption"
      ? { ...target, caption: text, parse_mode: "HTML", reply_markup }
      : { ...target, text, parse_mode: "HTML", link_preview_options: { is_disabled: true }, reply_markup },
  );
  if (reply.outcome.kind === "sent" || isNotModified(reply.description)) {
    await markCardRow(d, c.id, { shown_text: text, shown_markup: markup });
    return { kind: "sent" } as const;
  }
  return reply.outcome;
}

export function createTelegramDesk(deps: DeskDeps): TelegramDesk {
  const { db, clock, config } = deps;
  const enabled = Boolean(config.telegram);
  const secret = callbackSecret(config.jwtSecret ?? config.telegram?.botToken ?? "telegram-desk-off");
  let source: CardSource | null = null;

  const d: DeskContext = { ...deps, secret };
  const card = (cardId: number) => cardById(d, cardId);
  const markCard = (cardId: number, set: Partial<typeof telegramCards.$inferInsert>) => markCardRow(d, cardId, set);

  return {
    enabled,
    callbackSecret: secret,
    connect(s) {
      source = s;
    },
    card,

    async trackCompleted(trackId) {
      if (!enabled || !source) return 0;
      const directions = await source.trackDirections(trackId);
      if (!directions || directions.length === 0) return 0;
      const chats = await db.select({ direction: directionIntake.direction, chat: directionIntake.staff_chat_id })
        .from(directionIntake)
        .where(and(inArray(directionIntake.direction, directions), isNotNull(directionIntake.staff_chat_id)));
      const wanted = chats.filter((r) => r.chat && r.chat.trim() !== "");
      if (wanted.length === 0) return 0;
      const t = await source.cardTrack(trackId, directions[0]);
      if (!t) return 0;
      const now = clock.now();
      const method = t.storageKey && deps.storage ? "sendAudio" : "sendMessage";
      let written = 0;
      for (const w of wanted) {
        // One card per pair, ever: a track completed again (never, but a retried job) adds none.
        const [created] = await db.insert(telegramCards)
          .values({
            track_id: trackId,
            direction: w.direction,
            chat_id: w.chat!.trim(),
            created_at: now,
            updated_at: now,
          })
          .onConflictDoNothing()
          .returning({ id: telegramCards.id, chat_id: telegramCards.chat_id });
        if (!created) continue;
        await db.insert(telegramOutbox).values({
          key: cardSendKey(created.id),
          chat_id: created.chat_id,
          text: "",
          method,
          card_id: created.id,
          status: "pending",
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        }).onConflictDoNothing();
        written++;
      }
      return written;
    },

    async refresh(trackId, directions) {
      if (!enabled) return;
      const [first, ...rest] = cardRefreshStatements(db, trackId, directions, clock.now());
      if (first) await db.batch([first, ...rest]);
    },

    async noteShownMarkup(cardId, keyboard) {
      const markup = keyboard && keyboard.inline_keyboard.length > 0 ? JSON.stringify(keyboard) : null;
      await markCard(cardId, { shown_markup: markup });
    },

    async keyboard(cardId, declineTemplates) {
      const c = await card(cardId);
      if (!c || !source) return null;
      const t = await source.cardTrack(c.track_id, c.direction as Direction);
      if (!t) return null;
      return cardKeyboard(secret, cardId, t.facts, declineTemplates);
    },

    async deliver(row, call): Promise<Outcome> {
      const c = row.card_id === null ? null : await card(row.card_id);
      if (!c) return { kind: "final", status: "failed", error: "the card is gone (its track was deleted)" };
      if (!source) return { kind: "retry", error: "the staff desk is not connected to the tracks yet" };
      const t = await source.cardTrack(c.track_id, c.direction as Direction);
      if (!t) return { kind: "final", status: "failed", error: "the card's track is gone" };
      return row.key === cardSendKey(c.id) ? await sendCard(d, row, c, t, call) : await editCard(d, row, c, t, call);
    },
  };
}

import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { telegramOutbox } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { artistReviewStatus } from "../../domain/review.ts";
import { heldMessageFate } from "../../domain/artist-notice.ts";
import { trackBaseName } from "../../domain/track-name.ts";
import type { PairChange } from "../review/decisions.ts";
import type { PairsChanged, ReviewEvents, ReviewEventsFactory } from "../review/events.ts";
import type { TrackComments } from "../review/comments.ts";
import type { Current } from "../tracks/staff-reads.ts";
import { decisionChangeKey, type DecisionNotice, type TelegramOutbox } from "./outbox.ts";
import { cardRefreshStatements } from "./telegram-desk/refresh.ts";
import type { Notifications } from "./notifications.ts";

/**
 * What a batch of pair changes writes to the artist's outbox (issues 13, 32; domain/artist-notice.ts,
 * decision 0300): a new message for a pair whose fate is `announce` (it became accepted or declined,
 * or carries a new message), and for the others the message still held kept waiting with the
 * change or cancelled. Never about a guest track. An undo announces nothing: the messages it
 * brings back are those of the state it restores (`reinstateStatement`), kept waiting.
 */
async function messageStatements(
  deps: { outbox?: TelegramOutbox; comments?: Pick<TrackComments, "sharedCount"> },
  changes: readonly PairChange[],
  track: Current,
  undo = false,
): Promise<{ notices: DecisionNotice[]; statements: BatchItem<"sqlite">[] }> {
  const { outbox, comments } = deps;
  if (!outbox || track.user_id === null || changes.length === 0) return { notices: [], statements: [] };
  const fates = changes.map((c) => ({ c, fate: heldMessageFate(c.before, c.after) }));
  const announced = undo ? [] : fates.filter((f) => f.fate === "announce").map((f) => f.c);
  // The message mentions the comments shared with the artist when it is made (decision 0232).
  const sharedComments = announced.length > 0 ? (await comments?.sharedCount(track.id)) ?? 0 : 0;
  const notices = announced.map((c): DecisionNotice => ({
    key: decisionChangeKey(c.trackId, c.direction, c.before.revision + 1),
    userId: track.user_id!,
    trackName: trackBaseName(track.filename),
    direction: c.direction,
    outcome: artistReviewStatus(c.after.status),
    message: c.after.message,
    sharedComments,
    ...(c.reasons && c.reasons.length > 0 ? { reasons: c.reasons } : {}),
  }));
  const statements: BatchItem<"sqlite">[] = [
    ...notices.flatMap((n) => outbox.enqueueStatements(n)),
    ...fates.filter((f) => undo || f.fate !== "announce").map((f) =>
      outbox.pairChangeStatement(f.c.trackId, f.c.direction, f.fate === "cancel" ? "cancel" : "keep")
    ),
  ];
  return { notices, statements };
}

/**
 * The pairs' staff cards in Telegram show the change (issue 27): an edit queued in the same batch,
 * whichever path decided (web, Telegram, the automatic decline, an undo). A listening receipt
 * changes nothing a card shows.
 */
function cardStatements(db: Db, changes: readonly PairChange[]): BatchItem<"sqlite">[] {
  return changes.flatMap((c) =>
    c.before.status === "new" && c.after.status === "listened"
      ? []
      : cardRefreshStatements(db, c.trackId, [c.direction], c.at)
  );
}

/** An undo's outbox: the undone call's messages cancelled, the ones of the state it restores back. */
function undoStatements(outbox: TelegramOutbox, event: PairsChanged & { undo: NonNullable<PairsChanged["undo"]> }) {
  const id = event.track.id;
  return [
    outbox.cancelStatement(event.undo.map((e) => decisionChangeKey(id, e.direction, e.revision))),
    outbox.reinstateStatement(event.undo.map((e) => decisionChangeKey(id, e.direction, e.revision - 1))),
  ];
}

/**
 * Notifications' answer to review's events (docs/decisions/0327), registered when the app is wired:
 * the artist's messages and the staff cards' edits join the change's batch; the sender is nudged
 * after the commit; a vote refreshes its pair's card.
 */
export function reviewEffects(
  db: Db,
  notifications: Pick<Notifications, "outbox" | "sender"> & Partial<Pick<Notifications, "desk">>,
): ReviewEventsFactory {
  const { outbox, sender, desk } = notifications;
  return ({ comments }): ReviewEvents => ({
    async pairsChanged(event) {
      const { changes, track, undo } = event;
      const cards = cardStatements(db, changes);
      if (undo) {
        // What comes back waits for the undo's hold, or is cancelled if the restored state sends nothing.
        const back = await messageStatements({ outbox, comments }, changes, track, true);
        return {
          statements: [...cards, ...undoStatements(outbox, { ...event, undo }), ...back.statements],
          messages: [],
        };
      }
      const told = await messageStatements({ outbox, comments }, changes, track);
      return { statements: [...cards, ...told.statements], messages: told.notices.map((n) => n.key) };
    },
    committed: () => sender.kick(),
    async voted(trackId, direction) {
      // The pair's staff card in Telegram shows the new tallies (issue 27).
      if (desk?.enabled) {
        await desk.refresh(trackId, [direction]);
        sender.kick();
      }
    },
    async messageDueAt(keys) {
      if (keys.length === 0) return null;
      const [waiting] = await db.select({ at: telegramOutbox.next_attempt_at }).from(telegramOutbox)
        .where(and(inArray(telegramOutbox.key, [...keys]), eq(telegramOutbox.status, "pending")))
        .limit(1);
      return waiting ? waiting.at.toISOString() : null;
    },
  });
}

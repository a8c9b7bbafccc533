import type { BatchItem } from "drizzle-orm/batch";
import type { Direction } from "../../domain/directions.ts";
import type { PairChange } from "./decisions.ts";
import type { Current } from "../tracks/staff-reads.ts";
import type { TrackComments } from "./comments.ts";

/**
 * What review tells of its writes (docs/decisions/0327): a decision, a listening receipt, an
 * automatic decline or an undo records the pairs it changes; a vote, the pair it touched. Whoever
 * reacts (the artist's message and the staff cards' edits, in notifications/) subscribes when the
 * app is wired; review imports none of them.
 */

/** One write of review state: the pairs it changes (before → after) on one track. */
export interface PairsChanged {
  changes: readonly PairChange[];
  track: Current;
  /** An undo: the revisions the undone call wrote, per direction (their messages go, the ones before come back). */
  undo?: readonly { direction: string; revision: number }[];
}

export interface ReviewEvents {
  /**
   * Statements that join the change's own batch, so what follows from it (a message to the artist,
   * a card's edit) exists exactly when the change does: a crash loses none (decision 0157).
   * `messages`: the keys of the artist's messages written.
   */
  pairsChanged(event: PairsChanged): Promise<{ statements: BatchItem<"sqlite">[]; messages: string[] }>;
  /** After a decision's or an undo's batch committed; never awaited by the caller's answer. */
  committed(): void;
  /** A vote was cast or withdrawn on a pair (after its write). */
  voted(trackId: number, direction: Direction): Promise<void>;
  /** When the first of these messages leaves (ISO), if one of them waits; else null. */
  messageDueAt(keys: readonly string[]): Promise<string | null>;
}

/** What a subscriber is built from: the comments (a message counts the shared ones, decision 0232). */
export type ReviewEventsFactory = (parts: { comments: Pick<TrackComments, "sharedCount"> }) => ReviewEvents;

/** Nobody listening (a service built without notifications, in some tests). */
export const NO_REVIEW_EVENTS: ReviewEvents = {
  pairsChanged: () => Promise.resolve({ statements: [], messages: [] }),
  committed: () => {},
  voted: () => Promise.resolve(),
  messageDueAt: () => Promise.resolve(null),
};

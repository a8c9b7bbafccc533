import type { ReviewStatus } from "./review.ts";

/**
 * What the artist is told about a pair, and when (issues 23 and 32; docs/decisions/0223, 0300): one
 * rule for the outbox (server/notifications/outbox.ts, written by the decisions' batches in
 * server/review/review.ts) and the artist's pages (server/review/decisions.ts `artistDecisionsJson`,
 * read by server/artist/artist-reads.ts).
 *
 * - A change is held for DECISION_NOTIFY_HOLD_S: until its hold ends the artist's pages show the
 *   state before it (`withinHold`), and any message about the pair waits.
 * - When the hold ends, the artist learns the pair's state at that moment: the pages show it, and a
 *   message goes out only when that state sends one (`sendsMessage`). A change to a state that
 *   sends nothing cancels the message still held (`heldMessageFate`).
 *
 * The server's SQL twin of `withinHold` is server/review/decisions.ts `withinHoldSql`.
 */

/** A pair as the artist may be told of it: its state and the staff's message that came with it. */
export interface ToldState {
  status: ReviewStatus;
  message: string | null;
}

/** The states that send the artist a message: an outcome. */
const OUTCOMES: readonly ReviewStatus[] = ["accepted", "declined"];

/**
 * Whether the artist gets a message about a pair in this state: an outcome (accepted, declined),
 * or a state the staff sent words with (a shortlist with a template, decision 0151). Shortlisted,
 * listened and new without a message send nothing.
 */
export function sendsMessage(s: ToldState): boolean {
  return OUTCOMES.includes(s.status) || s.message !== null;
}

/**
 * What a change of a pair does to its message:
 * - `announce`: a new message, replacing the one still held (the pair became an outcome, or carries
 *   a new message);
 * - `keep`: the message still held (if any) tells this state too, and waits for this change's hold
 *   (a note, the same outcome again), so it leaves when the pages show the change;
 * - `cancel`: the state sends nothing, so the message still held is never sent.
 */
export type HeldMessageFate = "announce" | "keep" | "cancel";

export function heldMessageFate(before: ToldState, after: ToldState): HeldMessageFate {
  if (!sendsMessage(after)) return "cancel";
  const decided = after.status !== before.status && OUTCOMES.includes(after.status);
  const newMessage = after.message !== null && after.message !== before.message;
  return decided || newMessage ? "announce" : "keep";
}

/**
 * A change made at `decidedAtMs` is still within its hold at `nowMs`: the artist's pages show the
 * state before it and its message has not left. At `decidedAtMs + holdMs` both show it.
 */
export function withinHold(decidedAtMs: number, nowMs: number, holdMs: number): boolean {
  return decidedAtMs > nowMs - holdMs;
}

/** When a change's hold ends: its message may leave, the pages show it. */
export function holdEndsAt(decidedAtMs: number, holdMs: number): number {
  return decidedAtMs + holdMs;
}

import { type Direction, DIRECTION_LABELS } from "../../domain/directions.ts";
import { artistMessage } from "../../domain/decision-message.ts";
import { ARTIST_REVIEW_LABELS, type ArtistReviewStatus } from "../../domain/review.ts";
import { trackBaseName } from "../../domain/track-name.ts";
import { type DeclineReason, reasonLinesRu } from "../../domain/decline-reasons.ts";

/**
 * The Russian text of a decision message, in Telegram's HTML parse mode
 * (https://core.telegram.org/bots/api#html-style): `<`, `>` and `&` in anything that came from a
 * person are escaped, and the whole text stays within the Bot API's 4,096 characters.
 */

export interface DecisionMessage {
  /** The track as the artist knows it, e.g. `Artist - Title` (a trailing `.mp3` is dropped). */
  trackName: string;
  direction: Direction;
  /**
   * The pair's state as the artist sees it (`artistReviewStatus`); `pending` stands for any state
   * not decided yet and reads as "На рассмотрении".
   */
  outcome: ArtistReviewStatus | "pending";
  /** The staff's message to the artist, when there is one. */
  message?: string | null;
  /** Comments the label shared with the artist on this track when the message was made (decision 0232). */
  sharedComments?: number;
  /** Address of the artist's history, e.g. `https://site/profile`. */
  historyUrl: string;
  /** The decline reasons the decision named (issue 37), shown in Russian with a line each. */
  reasons?: readonly DeclineReason[];
}

/** The heading of a message's decline reasons (issue 37). */
export const REASONS_HEADING = "Что стоит доработать:";

/** The line of a message about a track with comments shared with the artist (decision 0232). */
export const COMMENTS_MENTION =
  "К треку есть комментарии команды лейбла с отметками на волне — послушайте их в истории.";

/** Most characters a `sendMessage` text may hold. */
export const TELEGRAM_TEXT_LIMIT = 4096;
/** A track name longer than this is cut (names are short; this only bounds a pathological one). */
const TRACK_NAME_LIMIT = 300;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * `text` escaped, cut by whole characters (never inside an entity such as `&amp;` or a surrogate
 * pair) so the escaped result holds at most `budget` UTF-16 units, with `…` where it was cut.
 * Telegram counts the text after parsing entities, so the escaped length is a safe upper bound.
 */
export function escapeWithin(text: string, budget: number): string {
  const whole = escapeHtml(text);
  if (whole.length <= budget) return whole;
  let out = "";
  for (const ch of text) {
    const piece = escapeHtml(ch);
    if (out.length + piece.length + 1 > budget) break;
    out += piece;
  }
  return `${out}…`;
}

function outcomeLabel(outcome: DecisionMessage["outcome"]): string {
  if (outcome === "pending") return ARTIST_REVIEW_LABELS.in_review;
  // A state this module does not know yet still makes a message rather than an error in the batch.
  return ARTIST_REVIEW_LABELS[outcome] ?? String(outcome);
}

export function decisionMessageText(m: DecisionMessage): string {
  const name = trackBaseName(m.trackName.trim());
  const head = `Трек <b>${escapeWithin(name, TRACK_NAME_LIMIT)}</b>\n` +
    `Направление: ${escapeHtml(DIRECTION_LABELS[m.direction] ?? String(m.direction))}\n` +
    `Статус: <b>${escapeHtml(outcomeLabel(m.outcome))}</b>`;
  const tail = (m.sharedComments ?? 0) > 0
    ? `${COMMENTS_MENTION}\nИстория ваших треков: ${escapeHtml(m.historyUrl)}`
    : `История ваших треков: ${escapeHtml(m.historyUrl)}`;
  // The decline reasons (issue 37): fixed texts, each a short line.
  const reasons = (m.reasons ?? []).length > 0
    ? `\n\n${REASONS_HEADING}\n${reasonLinesRu(m.reasons!).map((l) => `• ${escapeHtml(l)}`).join("\n")}`
    : "";
  // The same rule as the desk's preview (domain/decision-message.ts).
  const message = artistMessage(m.message);
  if (!message) return `${head}${reasons}\n\n${tail}`;
  const label = "\n\nСообщение:\n";
  const budget = TELEGRAM_TEXT_LIMIT - head.length - reasons.length - label.length - 2 - tail.length;
  return `${head}${reasons}${label}${escapeWithin(message, budget)}\n\n${tail}`;
}

/** The three parts of a decision message: the track's line, the direction's lines, the history link. */
interface MessageParts {
  head: string;
  body: string;
  tail: string;
}

const BODY_START = "\nНаправление: ";

/**
 * A text made by `decisionMessageText`, cut back into its parts: the head is the line before the
 * first direction line, the tail the paragraph after the last blank line (it never holds one), the
 * body what is between. Null for a text of another shape.
 */
function messageParts(text: string): MessageParts | null {
  const start = text.indexOf(BODY_START);
  const end = text.lastIndexOf("\n\n");
  if (start < 0 || end <= start || !text.slice(end + 2).includes("История ваших треков: ")) return null;
  return { head: text.slice(0, start), body: text.slice(start + 1, end), tail: text.slice(end + 2) };
}

/**
 * `body` (escaped HTML whose only tags are in its first lines) cut to at most `budget` UTF-16
 * units with `…`, never inside an entity such as `&amp;` or a surrogate pair.
 */
function cutEscaped(body: string, budget: number): string {
  if (body.length <= budget) return body;
  let end = Math.max(0, budget - 1);
  const amp = body.lastIndexOf("&", end - 1);
  const semi = amp < 0 ? -1 : body.indexOf(";", amp);
  if (amp >= 0 && (semi < 0 || semi >= end)) end = amp;
  const code = body.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${body.slice(0, end)}…`;
}

/**
 * One message about a track from the messages of its directions decided within one another's hold
 * (issue 31, docs/decisions/0301): the track's line once, each direction's outcome (and its
 * message) in the order given, the history link once (with the mention of comments shared with
 * the artist when one of the texts has it). Within the Bot API's limit: shorter parts stay whole,
 * the longest are cut evenly. A single text, or texts of another shape, come back as the first one.
 */
export function trackMessageText(texts: readonly string[]): string {
  const parts = texts.map(messageParts);
  if (texts.length === 1 || parts.some((p) => p === null)) return texts[0];
  const all = parts as MessageParts[];
  const head = all[0].head;
  const tail = all.find((p) => p.tail.startsWith(COMMENTS_MENTION))?.tail ?? all[0].tail;
  const bodies = all.map((p) => p.body);
  const separators = 2 * (bodies.length + 1);
  let left = TELEGRAM_TEXT_LIMIT - head.length - tail.length - separators;
  // Shorter parts whole; what is left shared evenly by the longer ones.
  const budgets = new Map<number, number>();
  const order = bodies.map((b, i) => ({ i, length: b.length })).sort((a, b) => a.length - b.length);
  order.forEach(({ i, length }, k) => {
    const share = Math.floor(left / (order.length - k));
    budgets.set(i, Math.min(length, share));
    left -= budgets.get(i)!;
  });
  const cut = bodies.map((b, i) => cutEscaped(b, budgets.get(i)!));
  return `${head}\n\n${cut.join("\n\n")}\n\n${tail}`;
}

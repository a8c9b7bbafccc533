import { audioWarningText } from "../../../domain/audio-warnings.ts";
import { isKeySure, uncertainKeyLabel } from "../../../domain/musical-key.ts";
import { type Direction, DIRECTION_LABELS, parseDirections } from "../../../domain/directions.ts";
import { isAwaitingDecision, REVIEW_STATUS_LABELS, type ReviewStatus } from "../../../domain/review.ts";
import { trackNameParts } from "../../../domain/track-name.ts";
import { escapeHtml, escapeWithin } from "../message-text.ts";
import { type CallbackAction, encodeCallback } from "./callback-data.ts";
import { plural } from "../../../domain/russian-plural.ts";

/**
 * A staff card's text and buttons (issue 27), in Telegram's HTML parse mode: everything that came
 * from a person is escaped and cut so the text fits a caption (1,024 characters, the smaller of
 * Telegram's limits), whether the card carries the clip or not.
 */

/** The staff track page a card links to (moderators and admins both open it; `?track=` holds the track). */
export const STAFF_TRACK_PATH = "/moderator/tracks";
/** Telegram's limit on an audio's caption; a card's text stays within it either way. */
export const CAPTION_LIMIT = 1024;

export const CARD_TEXTS = {
  accept: "Принять",
  shortlist: "В шорт-лист",
  decline: "Отклонить",
  directions: "Направления",
  waiting: (days: number) => `Ждёт ответа: ${days} ${plural(days, "день", "дня", "дней")}`,
  open: "Открыть в панели",
  decidedBy: (label: string, who: string, when: string) => `${label}: ${who}, ${when}`,
  votes: "Голоса",
  unknownArtist: "Без исполнителя",
} as const;

const OUTCOME_MARKS: Partial<Record<ReviewStatus, string>> = {
  accepted: "✅",
  shortlisted: "⭐",
  declined: "❌",
};

const VOTE_MARKS = { 1: "👍", 0: "🤔", [-1]: "👎" } as const;

/** What a card shows; read from the track when the card is sent or edited. */
export interface CardFacts {
  trackId: number;
  filename: string;
  /** Comma list of the track's directions. */
  directions: string;
  /** The card's direction. */
  direction: Direction;
  bpm: number | null;
  key: string | null;
  camelot: string | null;
  /** Under KEY_SURE_CONFIDENCE the key is shown as uncertain, as on the desk (decision 0411). */
  keyConfidence?: number | null;
  loudnessLufs: number | null;
  warnings: readonly string[];
  /** Days the pair has waited, or null once it waits for nobody. */
  waitingDays: number | null;
  status: ReviewStatus;
  decidedBy: string | null;
  decidedAt: Date | null;
  /** The pair's votes: 👍 (1), 🤔 (0), 👎 (-1). */
  tally: { up: number; maybe: number; down: number };
}

export interface InlineButton {
  text: string;
  callback_data?: string;
  url?: string;
}
export type InlineKeyboard = { inline_keyboard: InlineButton[][] };

/** A moment as staff in Moscow read it (the label's time), e.g. `25.11.2026 21:40 МСК`. */
export function cardTime(at: Date): string {
  const f = new Intl.DateTimeFormat("ru-RU", {
    timeZone: "Europe/Moscow",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  return `${f.format(at).replace(",", "")} МСК`;
}

function number(n: number, digits: number): string {
  return n.toFixed(digits).replace(".", ",").replace("-", "−");
}

/** The card's text (HTML); `publicUrl` makes the panel link. */
export function cardText(f: CardFacts, publicUrl: string): string {
  const { artist, title } = trackNameParts(f.filename);
  const lines: string[] = [];
  lines.push(`<b>${escapeWithin(artist || CARD_TEXTS.unknownArtist, 150)}</b> — ${escapeWithin(title, 200)}`);
  const labels = parseDirections(f.directions).map((d) =>
    d === f.direction ? `<b>${escapeHtml(DIRECTION_LABELS[d])}</b>` : escapeHtml(DIRECTION_LABELS[d])
  );
  lines.push(`${CARD_TEXTS.directions}: ${labels.join(", ")}`);
  const figures = [
    f.bpm !== null ? `${number(f.bpm, f.bpm % 1 === 0 ? 0 : 1)} BPM` : null,
    f.key
      ? isKeySure(f.keyConfidence)
        ? `${escapeHtml(f.key)}${f.camelot ? ` (${escapeHtml(f.camelot)})` : ""}`
        : `${escapeHtml(uncertainKeyLabel(f.key))}${f.camelot ? ` (${escapeHtml(f.camelot)}?)` : ""}`
      : null,
    f.loudnessLufs !== null ? `${number(f.loudnessLufs, 1)} LUFS` : null,
  ].filter((x) => x !== null);
  if (figures.length > 0) lines.push(figures.join(" · "));
  for (const w of f.warnings) lines.push(`⚠️ ${escapeHtml(audioWarningText(w))}`);
  if (f.waitingDays !== null) lines.push(CARD_TEXTS.waiting(f.waitingDays));
  if (!isAwaitingDecision(f.status)) {
    const label = `${OUTCOME_MARKS[f.status] ?? ""} <b>${escapeHtml(REVIEW_STATUS_LABELS[f.status])}</b>`.trim();
    const who = escapeWithin(f.decidedBy ?? "—", 80);
    lines.push(CARD_TEXTS.decidedBy(label, who, f.decidedAt ? cardTime(f.decidedAt) : "—"));
    // The buttons are gone once accepted or declined: the tallies stay in the text.
    const { up, maybe, down } = f.tally;
    if (f.status !== "shortlisted" && up + maybe + down > 0) {
      lines.push(`${CARD_TEXTS.votes}: ${VOTE_MARKS[1]} ${up} · ${VOTE_MARKS[0]} ${maybe} · ${VOTE_MARKS[-1]} ${down}`);
    }
  }
  const link = `${publicUrl}${STAFF_TRACK_PATH}?track=${f.trackId}`;
  lines.push(`<a href="${escapeHtml(link)}">${CARD_TEXTS.open}</a>`);
  const text = lines.join("\n");
  // Escaped lengths bound the parsed text; the parts above are cut well within the limit already.
  return text.length <= CAPTION_LIMIT ? text : `${text.slice(0, CAPTION_LIMIT - 1)}…`;
}

/**
 * The card's buttons while the pair waits: Принять / В шорт-лист / Отклонить, then the votes with
 * their tallies; `declineTemplates` given (after Отклонить), the direction's decline messages as a
 * second row, each one deciding with its template. None once the pair is decided.
 */
export function cardKeyboard(
  secret: string,
  cardId: number,
  f: Pick<CardFacts, "status" | "tally">,
  declineTemplates?: readonly { id: number; title: string }[],
): InlineKeyboard | null {
  if (!isAwaitingDecision(f.status) && f.status !== "shortlisted") return null;
  const button = (text: string, action: CallbackAction): InlineButton => ({
    text,
    callback_data: encodeCallback(secret, cardId, action),
  });
  const rows: InlineButton[][] = [[
    button(CARD_TEXTS.accept, "a"),
    ...(f.status === "shortlisted" ? [] : [button(CARD_TEXTS.shortlist, "s")]),
    button(CARD_TEXTS.decline, "x"),
  ]];
  if (declineTemplates) {
    const templates = declineTemplates.slice(0, 8).map((t) => button(t.title.slice(0, 40), `t${t.id}`));
    // Two to a row: the titles are short names, and a phone's row is narrow.
    for (let i = 0; i < templates.length; i += 2) rows.push(templates.slice(i, i + 2));
  }
  rows.push([
    button(`${VOTE_MARKS[1]} ${f.tally.up}`, "v1"),
    button(`${VOTE_MARKS[0]} ${f.tally.maybe}`, "v0"),
    button(`${VOTE_MARKS[-1]} ${f.tally.down}`, "v-1"),
  ]);
  return { inline_keyboard: rows };
}

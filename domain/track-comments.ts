import { z } from "zod";
import { hiddenCharsProblem, multiline } from "./hidden-chars.ts";

/**
 * Staff comments pinned to a moment of a track (issue 24, docs/decisions/0231): the rules the
 * server's validators and the player's form share. Whether a moment lies within the track is the
 * server's to check (it knows the length by the one rule, `trackLengthS`).
 */

/** As long as a decision's note or message (domain/review.ts `DECISION_TEXT_MAX_LENGTH`). */
export const COMMENT_TEXT_MAX_LENGTH = 1000;
/** Most comments one track may hold: enough for a bar-by-bar review, bounded for the history page. */
export const COMMENTS_PER_TRACK_MAX = 200;
/** How the artist's history signs a shared comment: never a staff member's name (decision 0232). */
export const COMMENT_SIGNATURE = "Команда лейбла";

export const COMMENT_TEXTS = {
  textRequired: "Введите текст комментария",
  textTooLong: `Комментарий не должен превышать ${COMMENT_TEXT_MAX_LENGTH} символов`,
  badAt: "Момент комментария — число секунд от 0",
  badEnd: "Конец отрезка должен быть позже его начала",
  beyondTrack: "Момент комментария за пределами трека",
  badShared: "Поле shared должно быть true или false",
  nothingToChange: "Нечего изменять",
  notFound: "Комментарий не найден",
  notAuthor: "Изменять и удалять комментарий может только его автор или администратор",
  tooMany: `У трека не может быть больше ${COMMENTS_PER_TRACK_MAX} комментариев`,
} as const;

/** A comment as staff see it (the staff track detail's `comments`); `author` is null once the author's account is gone. */
export interface TrackCommentView {
  id: number;
  at_s: number;
  end_s: number | null;
  text: string;
  shared: boolean;
  author: { id: number; name: string } | null;
  /** ISO 8601. */
  created_at: string;
}

/** Characters as a person counts them (a surrogate pair is one). */
const charCount = (s: string) => [...s].length;

/** The comment's text: trimmed, required, within the limit, no hidden characters. */
export function commentTextProblem(text: string): string | null {
  const t = text.trim();
  if (t === "") return COMMENT_TEXTS.textRequired;
  if (charCount(t) > COMMENT_TEXT_MAX_LENGTH) return COMMENT_TEXTS.textTooLong;
  return hiddenCharsProblem(t, { multiline: true });
}

// Built inside functions (like domain/review.ts), so a screen importing only the texts above, such as
// the artist's history with COMMENT_SIGNATURE, does not bundle zod into the public pages.
const text = () =>
  multiline(
    z.unknown().transform((v, ctx) => {
      const problem = typeof v === "string" ? commentTextProblem(v) : COMMENT_TEXTS.textRequired;
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return (v as string).trim();
    }),
  );

/** Seconds from the start, to a millisecond. */
const seconds = (message: string) =>
  z.unknown().transform((v, ctx) => {
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 24 * 3600) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return Math.round(v * 1000) / 1000;
  });

const end = () =>
  z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null) return v as null | undefined;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 24 * 3600) {
      ctx.addIssue({ code: "custom", message: COMMENT_TEXTS.badEnd });
      return z.NEVER;
    }
    return Math.round(v * 1000) / 1000;
  });

const shared = () =>
  z.unknown().optional().transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (typeof v !== "boolean") {
      ctx.addIssue({ code: "custom", message: COMMENT_TEXTS.badShared });
      return z.NEVER;
    }
    return v;
  });

/** POST …/tracks/{id}/comments: `{ at_s, end_s?, text, shared? }`; `shared` is false when left out. */
export function commentInputSchema() {
  return z
    .object({ at_s: seconds(COMMENT_TEXTS.badAt), end_s: end(), text: text(), shared: shared() })
    .transform((v) => ({ at_s: v.at_s, end_s: v.end_s ?? null, text: v.text, shared: v.shared ?? false }))
    .superRefine((v, ctx) => {
      if (v.end_s !== null && v.end_s <= v.at_s) ctx.addIssue({ code: "custom", message: COMMENT_TEXTS.badEnd });
    });
}

/** PATCH …/comments/{comment_id}: any of the fields; the range is checked against the stored one. */
export function commentPatchSchema() {
  return z
    .object({
      at_s: seconds(COMMENT_TEXTS.badAt).optional(),
      end_s: end(),
      text: text().optional(),
      shared: shared(),
    })
    .superRefine((v, ctx) => {
      if (Object.values(v).every((x) => x === undefined)) {
        ctx.addIssue({ code: "custom", message: COMMENT_TEXTS.nothingToChange });
      }
    });
}

export type CommentInput = z.output<ReturnType<typeof commentInputSchema>>;
export type CommentPatch = Partial<z.output<ReturnType<typeof commentPatchSchema>>>;

import { z } from "zod";
import { hiddenCharsProblem, multiline } from "./hidden-chars.ts";

/**
 * The artist's rating of a decision's feedback (issue 37): 1–5 and up to 300 characters of words,
 * once per decided pair with a message or shared comments. Zod only inside the function, so the
 * history page can import the texts without it.
 */
export const RATING_WORDS_MAX = 300;

export const RATING_TEXTS = {
  badRating: "Оценка — целое число от 1 до 5.",
  wordsTooLong: `Отзыв — не длиннее ${RATING_WORDS_MAX} символов.`,
  wordsNotText: "Отзыв должен быть текстом.",
  trackNotFound: "Трек не найден",
  notTrackDirection: "У трека нет такого направления.",
  alreadyRated: "Вы уже оценили этот ответ.",
  nothingToRate: "Оценить можно ответ с решением, в котором есть сообщение или комментарии команды.",
} as const;

const charCount = (s: string) => [...s].length;

export function feedbackRatingSchema() {
  return z.object({
    rating: z.number({ error: RATING_TEXTS.badRating }).int(RATING_TEXTS.badRating).min(1, RATING_TEXTS.badRating)
      .max(5, RATING_TEXTS.badRating),
    words: multiline(
      z.unknown().optional().transform((v, ctx) => {
        if (v === undefined || v === null) return null;
        if (typeof v !== "string") {
          ctx.addIssue({ code: "custom", message: RATING_TEXTS.wordsNotText });
          return z.NEVER;
        }
        const t = v.trim();
        if (charCount(t) > RATING_WORDS_MAX) {
          ctx.addIssue({ code: "custom", message: RATING_TEXTS.wordsTooLong });
          return z.NEVER;
        }
        const hidden = hiddenCharsProblem(t, { multiline: true });
        if (hidden) {
          ctx.addIssue({ code: "custom", message: hidden });
          return z.NEVER;
        }
        return t === "" ? null : t;
      }),
    ),
  });
}

export type FeedbackRatingInput = z.output<ReturnType<typeof feedbackRatingSchema>>;

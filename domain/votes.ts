import { z } from "zod";
import { charCount } from "./profile.ts";
import { hiddenCharsProblem } from "./hidden-chars.ts";

/**
 * Staff votes on a track per direction (issue 24, docs/decisions/0229 and 0230): 👍 / 🤔 / 👎 stored
 * as +1 / 0 / −1 with an optional short word. The server's validator, its visibility rule and the
 * desk's buttons read them from here. The zod schema is built inside a function, so a screen
 * importing only the labels does not bundle zod.
 */

export const VOTE_VALUES = [1, 0, -1] as const;
export type VoteValue = (typeof VOTE_VALUES)[number];

/** The word beside a vote: a short remark, not a review (the decision's note is for that). */
export const VOTE_WORD_MAX_LENGTH = 100;

export const VOTE_EMOJI: Record<VoteValue, string> = { 1: "👍", 0: "🤔", [-1]: "👎" };
export const VOTE_LABELS: Record<VoteValue, string> = { 1: "За", 0: "Сомневаюсь", [-1]: "Против" };

export const VOTE_TEXTS = {
  badVote: "Голос: 1, 0 или -1",
  wordTooLong: `Слово к голосу не должно превышать ${VOTE_WORD_MAX_LENGTH} символов`,
  outsideCategories: "Голосовать можно только по направлениям ваших категорий",
} as const;

/** The list's `votes` filter (decision 0230); the queue's address keeps it. */
export const VOTE_FILTERS = ["second_ear", "positive", "negative", "none"] as const;
export type VoteFilter = (typeof VOTE_FILTERS)[number];

export function isVoteValue(v: unknown): v is VoteValue {
  return v === 1 || v === 0 || v === -1;
}

/** PUT …/tracks/{id}/votes/{direction}: `vote` 1, 0 or -1; `word` optional (empty or null: none). */
export function voteInputSchema() {
  return z.object({
    vote: z.unknown().transform((v, ctx) => {
      if (!isVoteValue(v)) {
        ctx.addIssue({ code: "custom", message: VOTE_TEXTS.badVote });
        return z.NEVER;
      }
      return v;
    }),
    word: z.union([z.string(), z.null()], { message: VOTE_TEXTS.wordTooLong }).optional().transform((v, ctx) => {
      const text = v?.trim() ?? "";
      if (charCount(text) > VOTE_WORD_MAX_LENGTH) {
        ctx.addIssue({ code: "custom", message: VOTE_TEXTS.wordTooLong });
        return z.NEVER;
      }
      const hidden = hiddenCharsProblem(text);
      if (hidden) {
        ctx.addIssue({ code: "custom", message: hidden });
        return z.NEVER;
      }
      return text === "" ? null : text;
    }),
  });
}

export type VoteInput = z.output<ReturnType<typeof voteInputSchema>>;

/**
 * A pair "needs a second ear" (decision 0230) while it is not decided (accepted or declined) and
 * its votes are exactly one, or split: both a 👍 and a 👎 among them.
 */
export function needsSecondEar(votes: readonly number[], decided: boolean): boolean {
  if (decided) return false;
  if (votes.length === 1) return true;
  return votes.some((v) => v > 0) && votes.some((v) => v < 0);
}

/**
 * Who sees a pair's votes (decision 0229): an administrator (the label's decider) always; anyone
 * else in scope once they have voted on that pair, or once the pair is decided (nothing is left to
 * anchor). Before that a voter sees only how many have voted.
 */
export function seesVotes(viewer: { is_admin: boolean }, votedHere: boolean, decided: boolean): boolean {
  return viewer.is_admin || votedHere || decided;
}

import { and, eq, inArray } from "drizzle-orm";
import { feedbackRatings, trackComments, trackDecisions, tracks } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../deps.ts";
import { type Direction, parseDirections } from "../../domain/directions.ts";
import { type FeedbackRatingInput, RATING_TEXTS } from "../../domain/feedback-rating.ts";
import { ApiError, badRequest, notFound } from "../lib/http-error.ts";

/**
 * The artists' ratings of the feedback (issue 37, docs/decisions/0405): once per decided pair
 * (accepted or declined, the decision out of its hold, so the artist has read it) that came with a
 * message or with comments shared on the track. The rating remembers who decided the pair, for the
 * dashboards' average per staff member (review/feedback-figures.ts).
 */

export interface RatingState {
  direction: Direction;
  /** The artist may rate this pair's feedback now. */
  rateable: boolean;
  /** Their rating, once given. */
  rating: number | null;
  words: string | null;
}

interface PairRow {
  track_id: number;
  direction: string;
  status: string;
  message: string | null;
  decided_by: number | null;
  decided_at: Date | null;
}

/** Accepted or declined, and the change out of its hold (`shownBefore`: now − the hold, ms). */
const decided = (p: PairRow, shownBefore: number) =>
  (p.status === "accepted" || p.status === "declined") && p.decided_at !== null &&
  p.decided_at.getTime() <= shownBefore;

/** Each pair's rating state for the artist's tracks `ids` (the history's). */
export async function ratingStates(
  db: Db,
  ids: readonly number[],
  shownBefore: number,
): Promise<Map<number, RatingState[]>> {
  const out = new Map<number, RatingState[]>();
  if (ids.length === 0) return out;
  const pairs: PairRow[] = await db.select({
    track_id: trackDecisions.track_id,
    direction: trackDecisions.direction,
    status: trackDecisions.status,
    message: trackDecisions.message,
    decided_by: trackDecisions.decided_by,
    decided_at: trackDecisions.decided_at,
  }).from(trackDecisions).where(inArray(trackDecisions.track_id, [...ids]));
  const shared = new Set((await db.selectDistinct({ id: trackComments.track_id }).from(trackComments)
    .where(and(inArray(trackComments.track_id, [...ids]), eq(trackComments.shared, true)))).map((r) => r.id));
  const rated = await db.select().from(feedbackRatings).where(inArray(feedbackRatings.track_id, [...ids]));
  for (const p of pairs) {
    const r = rated.find((x) => x.track_id === p.track_id && x.direction === p.direction);
    const withWords = Boolean(p.message?.trim()) || shared.has(p.track_id);
    const list = out.get(p.track_id) ?? [];
    list.push({
      direction: p.direction as Direction,
      rateable: !r && withWords && decided(p, shownBefore),
      rating: r?.rating ?? null,
      words: r?.words ?? null,
    });
    out.set(p.track_id, list);
  }
  return out;
}

/** PUT /api/tracks/{id}/feedback/{direction}: 404 for another's track, 409 once rated or when nothing is rateable. */
export async function rateFeedback(
  deps: { db: Db; clock: Clock; holdMs: number },
  userId: number,
  trackId: number,
  direction: string,
  input: FeedbackRatingInput,
): Promise<RatingState> {
  const { db } = deps;
  const [track] = await db.select({ user_id: tracks.user_id, directions: tracks.directions }).from(tracks)
    .where(eq(tracks.id, trackId)).limit(1);
  if (!track || track.user_id !== userId) throw notFound(RATING_TEXTS.trackNotFound);
  if (!parseDirections(track.directions).includes(direction as Direction)) {
    throw badRequest(RATING_TEXTS.notTrackDirection);
  }
  const now = deps.clock.now();
  const state = (await ratingStates(db, [trackId], now.getTime() - deps.holdMs)).get(trackId)?.find((s) =>
    s.direction === direction
  );
  if (state && state.rating !== null) throw new ApiError(409, RATING_TEXTS.alreadyRated, { reason: "already_rated" });
  if (!state?.rateable) throw new ApiError(409, RATING_TEXTS.nothingToRate, { reason: "nothing_to_rate" });
  const [pair] = await db.select({ by: trackDecisions.decided_by }).from(trackDecisions)
    .where(and(eq(trackDecisions.track_id, trackId), eq(trackDecisions.direction, direction))).limit(1);
  const written = await db.insert(feedbackRatings).values({
    track_id: trackId,
    direction,
    user_id: userId,
    staff_id: pair?.by ?? null,
    rating: input.rating,
    words: input.words,
    rated_at: now,
  }).onConflictDoNothing().returning({ rating: feedbackRatings.rating });
  // Two requests at once: the second finds the first's row.
  if (written.length === 0) throw new ApiError(409, RATING_TEXTS.alreadyRated, { reason: "already_rated" });
  return { direction: direction as Direction, rateable: false, rating: input.rating, words: input.words };
}

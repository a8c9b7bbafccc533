import { type Direction, parseDirections } from "../../../../domain/directions.ts";
import type { ReviewStatus } from "../../../../domain/review.ts";
import { REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import type { StaffTrackRow } from "../../../lib/staff-queries.ts";

/** Issue 25: a pair past its response promise and still undecided (the server's `overdue`). */
export const PAIR_OVERDUE_LABEL = REVIEW_TEXTS_RU.overdue;

/**
 * A list row's directions with each one's review state (issue 13, decision 0160) and, when the track
 * has a pair past its response promise for the caller (the track's `overdue`), how long it has
 * waited; each such pair (issue 25) says «Просрочен» in its own badge. Words from the panel's dictionary.
 */
export function ReviewBadges(
  { track, directionLabel }: { track: StaffTrackRow; directionLabel: (d: Direction) => string; locale: string },
) {
  const words = useReviewTexts();
  const state = new Map<string, ReviewStatus>((track.decisions ?? []).map((d) => [d.direction, d.status]));
  const failed = track.status === "failed";
  const late = new Set((track.decisions ?? []).filter((d) => d.overdue).map((d) => d.direction));
  return (
    <span className="st-badges" data-testid="review-badges">
      {parseDirections(track.directions).map((d) => {
        const s = state.get(d) ?? "new";
        const overdue = !failed && late.has(d);
        return (
          <span key={d} className={`st-badge st-review-${s}${overdue ? " st-review-late" : ""}`}>
            {directionLabel(d)}
            {!failed && <span className="st-review-state">· {words.states[s]}</span>}
            {overdue && (
              <span className="st-review-state st-review-overdue" data-testid="pair-overdue">
                · {words.overdue}
              </span>
            )}
          </span>
        );
      })}
      {track.overdue && (
        <span className="st-badge st-badge-danger" data-testid="overdue">
          {words.waiting(track.waiting_days ?? 0)}
        </span>
      )}
    </span>
  );
}

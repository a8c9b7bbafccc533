import { type Direction, parseDirections } from "../../../domain/directions.ts";
import { REVIEW_STATUS_LABELS, type ReviewStatus } from "../../../domain/review.ts";
import type { StaffTrackRow } from "../../lib/staff-queries.ts";

/** Issue 25: a pair past its response promise and still undecided (the server's `overdue`). */
export const PAIR_OVERDUE_LABEL = "Просрочен";

/**
 * A list row's directions with each one's review state (issue 13, decision 0160) and, when the track
 * has a pair past its response promise for the caller (the track's `overdue`), how long it has
 * waited; each such pair (issue 25) says «Просрочен» in its own badge. States in Russian in both panels.
 */
export function ReviewBadges(
  { track, directionLabel, locale }: { track: StaffTrackRow; directionLabel: (d: Direction) => string; locale: string },
) {
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
            {!failed && <span className="st-review-state">· {REVIEW_STATUS_LABELS[s]}</span>}
            {overdue && (
              <span className="st-review-state st-review-overdue" data-testid="pair-overdue">
                · {PAIR_OVERDUE_LABEL}
              </span>
            )}
          </span>
        );
      })}
      {track.overdue && (
        <span className="st-badge st-badge-danger" data-testid="overdue">
          {locale.startsWith("ru") ? `Ждёт ${track.waiting_days} дн.` : `Waiting ${track.waiting_days} days`}
        </span>
      )}
    </span>
  );
}

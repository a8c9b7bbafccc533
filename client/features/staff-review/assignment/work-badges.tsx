import type { Assignee, Presence } from "./assignment-api.ts";
import { REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";

/** The admin panel's words of the assignment and presence marks (the panel's dictionary has both). */
export const WORK_TEXTS = REVIEW_TEXTS_RU.work;

/**
 * A row's, a card's or the desk's marks (issue 24): who the track is assigned to, and «Слушает @name»
 * while a colleague played it within the last 30 s (decision 0234). One's own listening never shows:
 * the server leaves it out.
 */
export function WorkBadges(
  { assignee, presence, me }: {
    assignee: Assignee | undefined;
    presence: readonly Presence[] | undefined;
    me?: number;
  },
) {
  const t = useReviewTexts().work;
  const [first, ...others] = presence ?? [];
  if (!assignee && !first) return null;
  return (
    <span className="st-badges st-work-badges" data-field="work">
      {assignee && (
        <span className="st-badge st-badge-info" data-field="assignee" data-assignee-id={assignee.id}>
          {assignee.id === me ? t.assignedToYou : t.assigned(assignee.name)}
        </span>
      )}
      {first && (
        <span
          className="st-badge st-badge-warning"
          data-field="listening"
          role="status"
          title={others.length > 0 ? others.map((p) => `@${p.user.username}`).join(", ") : undefined}
        >
          {t.listening(first.user.username)}
          {others.length > 0 && ` ${t.andMore(others.length)}`}
        </span>
      )}
    </span>
  );
}

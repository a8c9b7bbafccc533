import type { Assignee, Presence } from "./assignment-api.ts";

/** The words of the assignment and presence marks (Russian in both panels, like the review states). */
export const WORK_TEXTS = {
  assigned: (name: string) => `Назначен: ${name}`,
  assignedToYou: "Назначен вам",
  listening: (username: string) => `Слушает @${username}`,
  andMore: (n: number) => `и ещё ${n}`,
};

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
  const [first, ...others] = presence ?? [];
  if (!assignee && !first) return null;
  return (
    <span className="st-badges st-work-badges" data-field="work">
      {assignee && (
        <span className="st-badge st-badge-info" data-field="assignee" data-assignee-id={assignee.id}>
          {assignee.id === me ? WORK_TEXTS.assignedToYou : WORK_TEXTS.assigned(assignee.name)}
        </span>
      )}
      {first && (
        <span
          className="st-badge st-badge-warning"
          data-field="listening"
          role="status"
          title={others.length > 0 ? others.map((p) => `@${p.user.username}`).join(", ") : undefined}
        >
          {WORK_TEXTS.listening(first.user.username)}
          {others.length > 0 && ` ${WORK_TEXTS.andMore(others.length)}`}
        </span>
      )}
    </span>
  );
}

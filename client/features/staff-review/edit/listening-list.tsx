import { useId } from "react";
import { listenedText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import type { StaffTrack } from "../../../lib/staff-queries.ts";

/**
 * Who of the staff played the track and how much (issue 20, decision 0197): «прослушано 1:20 из
 * 5:10» per colleague, the most heard first, as the server counted it from the players' reports.
 * Only staff see it; the artist sees nothing of who listened.
 */

type Listen = NonNullable<StaffTrack["listens"]>[number];

export function ListeningList(
  { listens, durationS }: { listens: readonly Listen[] | undefined; durationS: number | null | undefined },
) {
  const headingId = useId();
  const t = useReviewTexts().listens;
  const list = listens ?? [];
  return (
    <div className="dp-listens" aria-labelledby={headingId} role="group">
      <h3 id={headingId}>{t.heading}</h3>
      {list.length === 0 ? <p className="st-muted">{t.nobody}</p> : (
        <ul className="dp-listens-list">
          {list.map((l) => (
            <li key={l.user.id} data-testid="staff-listen">
              <span className="dp-listens-who" data-user-content="">{l.user.name || l.user.username}</span>
              {" — "}
              <span>{listenedText(t, l.heard_s, durationS)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { useId } from "react";
import { formatDuration } from "../../lib/format.ts";
import type { StaffTrack } from "../../lib/staff-queries.ts";

/**
 * Who of the staff played the track and how much (issue 20, decision 0197): «прослушано 1:20 из
 * 5:10» per colleague, the most heard first, as the server counted it from the players' reports.
 * Only staff see it; the artist sees nothing of who listened.
 */

type Listen = NonNullable<StaffTrack["listens"]>[number];

/** «прослушано 1:20 из 5:10»; without the length while it is unknown. */
export function listenedText(heardS: number, durationS: number | null | undefined): string {
  const heard = `прослушано ${formatDuration(Math.max(0, heardS))}`;
  return durationS && durationS > 0 ? `${heard} из ${formatDuration(durationS)}` : heard;
}

export function ListeningList(
  { listens, durationS }: { listens: readonly Listen[] | undefined; durationS: number | null | undefined },
) {
  const headingId = useId();
  const list = listens ?? [];
  return (
    <div className="dp-listens" aria-labelledby={headingId} role="group">
      <h3 id={headingId}>Прослушивания</h3>
      {list.length === 0 ? <p className="st-muted">Трек ещё никто не слушал</p> : (
        <ul className="dp-listens-list">
          {list.map((l) => (
            <li key={l.user.id} data-testid="staff-listen">
              <span className="dp-listens-who">{l.user.name || l.user.username}</span>
              {" — "}
              <span>{listenedText(l.heard_s, durationS)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

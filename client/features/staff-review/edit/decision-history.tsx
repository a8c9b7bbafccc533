import { useId } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import type { ReviewStatus } from "../../../../domain/review.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { REVIEW_TEXTS_RU } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import "./decision-panel.css";
import type { StaffTrack } from "../../../lib/staff-queries.ts";

type HistoryEntry = StaffTrack["decision_history"][number];

/** Issue 25: who made an automatic decline (a pair left past its promise and the grace). */
export const AUTOMATIC_LABEL = REVIEW_TEXTS_RU.decisions.automatic;

/**
 * Who, when, from, to, note (and the message the artist got), oldest first as the server answers.
 * An automatic decline (issue 25) says so where the person would be.
 * Where the panel is narrower than the table needs (a phone), each change is shown as a card of
 * labelled lines (decision-panel.css, decision 0207): no scrolling region, no word split inside.
 */
export function DecisionHistory(
  { entries, label }: { entries: readonly HistoryEntry[]; label: (d: Direction) => string },
) {
  const headingId = useId();
  const words = useReviewTexts();
  const t = words.decisions;
  return (
    <div className="dp-history">
      <h3 id={headingId}>{t.history}</h3>
      {entries.length === 0 ? <p className="st-muted">{t.noHistory}</p> : (
        <div className="st-table-wrap">
          <table className="st-table dp-history-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.who}</th>
                <th scope="col">{t.direction}</th>
                <th scope="col">{t.from}</th>
                <th scope="col">{t.to}</th>
                <th scope="col">{t.note}</th>
                <th scope="col">{t.message}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((h) => (
                <tr key={h.id}>
                  <td data-label={t.when}>{formatDateTime(h.decided_at)}</td>
                  <td data-label={t.who}>
                    {h.automatic
                      ? (
                        <span className="st-badge st-badge-warning" data-testid="history-automatic">
                          {t.automatic}
                        </span>
                      )
                      : h.decided_by?.name || h.decided_by?.username || "—"}
                  </td>
                  <td data-label={t.direction}>{label(h.direction as Direction)}</td>
                  <td data-label={t.from}>{words.states[h.from as ReviewStatus] ?? h.from}</td>
                  <td data-label={t.to}>{words.states[h.to as ReviewStatus] ?? h.to}</td>
                  <td data-label={t.note} data-user-content="">{h.note ?? "—"}</td>
                  <td data-label={t.message} data-user-content="">{h.message ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

import { Link } from "@tanstack/react-router";
import { REVIEW_STATUS_LABELS, REVIEW_STATUSES } from "../../../domain/review.ts";
import type { DashboardStats } from "./dashboard-api.ts";

/**
 * The dashboard's review counts (issue 13, decisions 0155 and 0163): per direction how many tracks
 * are in each review state; a figure links to the track list filtered by that pair.
 */
export function ReviewCounts({ rows }: { rows: DashboardStats["review"] }) {
  return (
    <div className="st-section" style={{ marginTop: 20 }}>
      <h2 id="review-counts-title">Рассмотрение по направлениям</h2>
      {rows.length === 0 ? <p className="st-empty">Нет данных для отображения</p> : (
        <div className="st-table-wrap">
          <table className="st-table" aria-labelledby="review-counts-title" data-testid="review-counts">
            <thead>
              <tr>
                <th scope="col">Направление</th>
                {REVIEW_STATUSES.map((s) => <th key={s} scope="col">{REVIEW_STATUS_LABELS[s]}</th>)}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.direction}>
                  <th scope="row">{r.label}</th>
                  {REVIEW_STATUSES.map((s) => (
                    <td key={s}>
                      {r[s] > 0
                        ? (
                          <Link
                            to="/admin/tracks"
                            search={{ direction: r.direction, review: s } as never}
                            aria-label={`${r.label}, ${REVIEW_STATUS_LABELS[s]}: ${r[s]}`}
                          >
                            {r[s]}
                          </Link>
                        )
                        : r[s]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ADMIN_DIRECTION_LABELS } from "../../../domain/staff-directions.ts";
import { adminReleaseFiguresQuery } from "./dashboard-api.ts";

/** The dashboard's release desk figures per label (issue 34). */
export const RELEASE_FIGURES_TEXTS = {
  title: "Релизы лейблов",
  label: "Лейбл",
  waiting: "Ждут материалы",
  toMaterials: "Медиана: от принятия до материалов, дн.",
  toRelease: "Медиана: от принятия до релиза, дн.",
  thisMonth: "Релизов в этом месяце",
  open: "Открыть релизы →",
} as const;

export function ReleaseFigures() {
  const q = useQuery(adminReleaseFiguresQuery());
  if (!q.data) return null;
  const T = RELEASE_FIGURES_TEXTS;
  return (
    <div className="st-section" data-testid="release-figures">
      <h2>{T.title}</h2>
      {/* A region that scrolls on a phone: reachable by keyboard, named (axe: scrollable-region-focusable). */}
      <div className="st-table-wrap" tabIndex={0} role="region" aria-label={T.title}>
        <table className="st-table">
          <thead>
            <tr>
              <th scope="col">{T.label}</th>
              <th>{T.waiting}</th>
              <th>{T.toMaterials}</th>
              <th>{T.toRelease}</th>
              <th>{T.thisMonth}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map((f) => (
              <tr key={f.direction}>
                <th>{ADMIN_DIRECTION_LABELS[f.direction]}</th>
                <td>{f.waiting_for_materials}</td>
                <td>{f.median_days_to_materials ?? "—"}</td>
                <td>{f.median_days_to_release ?? "—"}</td>
                <td>{f.releases_this_month}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Link to="/admin/releases">{T.open}</Link>
    </div>
  );
}

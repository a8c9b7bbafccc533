import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { LABEL_DIRECTIONS, RELEASE_STAGE_LIST } from "../../../domain/releases.ts";
import { labelDay } from "../../../domain/release-desk.ts";
import { ADMIN_DIRECTION_LABELS, MODERATOR_CATEGORY_LABELS } from "../../../domain/staff-directions.ts";
import { Field } from "../../components/ui/field.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import {
  downloadFile,
  type Panel,
  staffCalendarQuery,
  type StaffListFilters,
  staffReleasesQuery,
} from "./staff-api.ts";
import { STAFF_RELEASE_TEXTS_EN, STAFF_RELEASE_TEXTS_RU, type StaffReleaseTexts } from "./staff-texts.ts";
import "./releases.css";

/**
 * The staff's release desk (issue 34), one page per panel (Russian for the admin, English for the
 * moderator): every release with filters and the CSV export, what waits for materials (oldest
 * first, with the days waited), and a month calendar per label.
 */
export const textsOf = (panel: Panel): StaffReleaseTexts =>
  panel === "admin" ? STAFF_RELEASE_TEXTS_RU : STAFF_RELEASE_TEXTS_EN;

export const labelName = (panel: Panel, d: string) =>
  (panel === "admin" ? ADMIN_DIRECTION_LABELS : MODERATOR_CATEGORY_LABELS)[d as "label_koster"] ?? d;

type Tab = "list" | "waiting" | "calendar";

function StaffReleasesPage({ panel }: { panel: Panel }) {
  const T = textsOf(panel);
  useDocumentTitle(T.title);
  const [tab, setTab] = useState<Tab>("list");
  return (
    <section className="st-page" data-testid="staff-releases">
      <div className="st-page-head">
        <h1>{T.title}</h1>
      </div>
      <div className="rel-tabs" role="tablist">
        {(["list", "waiting", "calendar"] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tab === t ? "st-btn st-btn-primary st-btn-sm" : "st-btn st-btn-ghost st-btn-sm"}
            onClick={() => setTab(t)}
          >
            {T[t]}
          </button>
        ))}
      </div>
      {tab === "list" && <ReleaseList panel={panel} />}
      {tab === "waiting" && <WaitingList panel={panel} />}
      {tab === "calendar" && <MonthCalendar panel={panel} />}
    </section>
  );
}

function ReleaseList({ panel }: { panel: Panel }) {
  const T = textsOf(panel);
  const [f, setF] = useState<StaffListFilters>({ page: 1 });
  const list = useQuery(staffReleasesQuery(panel, f));
  const [exportError, setExportError] = useState<string | null>(null);
  const set = (patch: Partial<StaffListFilters>) => setF({ ...f, ...patch, page: 1 });
  const query = new URLSearchParams(
    Object.entries({ direction: f.direction, from: f.from, to: f.to }).filter(([, v]) => v) as [string, string][],
  );
  return (
    <>
      <div className="st-filters">
        <select
          className="st-input"
          aria-label={T.label}
          value={f.direction ?? ""}
          onChange={(e) => set({ direction: e.target.value || undefined })}
        >
          <option value="">{T.allLabels}</option>
          {LABEL_DIRECTIONS.map((d) => <option key={d} value={d}>{labelName(panel, d)}</option>)}
        </select>
        <select
          className="st-input"
          aria-label={T.stage}
          value={f.stage ?? ""}
          onChange={(e) => set({ stage: e.target.value || undefined })}
        >
          <option value="">{T.allStages}</option>
          {RELEASE_STAGE_LIST.map((s) => <option key={s} value={s}>{T.stages[s]}</option>)}
        </select>
        <Field inline label={T.from}>
          <input
            type="date"
            className="st-input"
            value={f.from ?? ""}
            onChange={(e) => set({ from: e.target.value || undefined })}
          />
        </Field>
        <Field inline label={T.to}>
          <input
            type="date"
            className="st-input"
            value={f.to ?? ""}
            onChange={(e) => set({ to: e.target.value || undefined })}
          />
        </Field>
        <button
          type="button"
          className="st-btn st-btn-ghost st-btn-sm"
          onClick={() =>
            downloadFile(`/${panel}/releases/export.csv?${query}`, "releases.csv").then(
              () => setExportError(null),
              (err) => setExportError(errorText(err, T.loadFailed)),
            )}
        >
          {T.exportCsv}
        </button>
      </div>
      {exportError && <div className="st-alert st-alert-error" role="alert">{exportError}</div>}
      {list.isPending && <p className="st-muted" role="status">{T.loading}</p>}
      {list.isError && <div className="st-alert st-alert-error" role="alert">{errorText(list.error, T.loadFailed)}
      </div>}
      {list.data && list.data.releases.length === 0 && <p className="st-empty">{T.nothing}</p>}
      {list.data && list.data.releases.length > 0 && (
        <div className="st-table-wrap">
          <table className="st-table">
            <thead>
              <tr>
                <th>{T.release}</th>
                <th>{T.label}</th>
                <th>{T.stage}</th>
                <th>{T.catalogue}</th>
                <th>{T.date}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.releases.map((r) => (
                <tr key={r.id} data-testid="staff-release-row">
                  <td>
                    <Link to={`/${panel}/releases/$id` as "/admin/releases/$id"} params={{ id: String(r.id) }}>
                      {r.artists.join(", ")} — {r.title}
                    </Link>
                  </td>
                  <td>{labelName(panel, r.direction)}</td>
                  <td>
                    <span className="st-badge">{T.stages[r.stage]}</span>
                  </td>
                  <td>{r.catalogue_number ?? "—"}</td>
                  <td>{r.release_date ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && list.data.pages > 1 && (
        <div className="st-pagination">
          {Array.from({ length: list.data.pages }, (_, i) => i + 1).map((p) => (
            <button
              key={p}
              type="button"
              className="st-page-btn"
              aria-current={p === list.data.page}
              onClick={() => setF({ ...f, page: p })}
            >
              {p}
            </button>
          ))}
        </div>
      )}
    </>
  );
}

function WaitingList({ panel }: { panel: Panel }) {
  const T = textsOf(panel);
  const list = useQuery(staffReleasesQuery(panel, { stage: "materials_requested", sort: "oldest", page: 1 }));
  if (list.isPending) return <p className="st-muted" role="status">{T.loading}</p>;
  if (list.isError) {
    return <div className="st-alert st-alert-error" role="alert">{errorText(list.error, T.loadFailed)}</div>;
  }
  if (list.data.releases.length === 0) return <p className="st-empty">{T.nothingWaiting}</p>;
  return (
    <ol className="st-kv-list" data-testid="waiting-list">
      {list.data.releases.map((r) => (
        <li key={r.id} className="st-kv-item">
          <Link to={`/${panel}/releases/$id` as "/admin/releases/$id"} params={{ id: String(r.id) }}>
            {r.artists.join(", ")} — {r.title}
          </Link>
          <span className="st-muted">{labelName(panel, r.direction)}</span>
          <span className="st-badge st-badge-warning" data-testid="waited">{T.waited(r.waiting_days)}</span>
          <span className="st-muted st-small">
            {r.materials.filter((m) => m.required && m.state !== "accepted").map((m) => T.kinds[m.kind]).join(", ")}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** YYYY-MM of a month offset from the label's current one. */
function monthBounds(offset: number) {
  const [y, m] = labelDay(new Date()).split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1 + offset, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return { first, last, from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

function MonthCalendar({ panel }: { panel: Panel }) {
  const T = textsOf(panel);
  const [offset, setOffset] = useState(0);
  const [direction, setDirection] = useState<string>(LABEL_DIRECTIONS[0]);
  const b = monthBounds(offset);
  const cal = useQuery(staffCalendarQuery(panel, { direction, from: b.from, to: b.to }));
  const byDay = new Map((cal.data?.days ?? []).map((d) => [d.date, d.releases]));
  const lead = (b.first.getUTCDay() + 6) % 7;
  const cells = Array.from({ length: Math.ceil((lead + b.last.getUTCDate()) / 7) * 7 }, (_, i) => i - lead + 1);
  const monthName = b.first.toLocaleDateString(panel === "admin" ? "ru-RU" : "en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return (
    <div data-testid="release-calendar">
      <div className="st-filters">
        <select
          className="st-input"
          aria-label={T.label}
          value={direction}
          onChange={(e) => setDirection(e.target.value)}
        >
          {LABEL_DIRECTIONS.map((d) => <option key={d} value={d}>{labelName(panel, d)}</option>)}
        </select>
        <button type="button" className="st-btn st-btn-ghost st-btn-sm" onClick={() => setOffset(offset - 1)}>
          {T.prevMonth}
        </button>
        <strong>{monthName}</strong>
        <button type="button" className="st-btn st-btn-ghost st-btn-sm" onClick={() => setOffset(offset + 1)}>
          {T.nextMonth}
        </button>
      </div>
      {cal.isError && <div className="st-alert st-alert-error" role="alert">{errorText(cal.error, T.loadFailed)}</div>}
      <div className="rel-calendar">
        {T.weekdays.map((w) => <div key={w} className="rel-calendar-head">{w}</div>)}
        {cells.map((n, i) => {
          const inMonth = n >= 1 && n <= b.last.getUTCDate();
          const day = inMonth ? `${b.from.slice(0, 8)}${String(n).padStart(2, "0")}` : "";
          return (
            <div key={i} className={inMonth ? "rel-day" : "rel-day rel-day-out"} data-day={day || undefined}>
              {inMonth && <span className="rel-day-num">{n}</span>}
              {(byDay.get(day) ?? []).map((r) => (
                <Link
                  key={r.id}
                  to={`/${panel}/releases/$id` as "/admin/releases/$id"}
                  params={{ id: String(r.id) }}
                  title={r.title}
                >
                  {r.catalogue_number} {r.title}
                </Link>
              ))}
            </div>
          );
        })}
      </div>
      {cal.data && cal.data.days.length === 0 && <p className="st-muted">{T.noReleasesThisMonth}</p>}
    </div>
  );
}

export function AdminReleasesPage() {
  return <StaffReleasesPage panel="admin" />;
}

export function ModeratorReleasesPage() {
  return <StaffReleasesPage panel="moderator" />;
}

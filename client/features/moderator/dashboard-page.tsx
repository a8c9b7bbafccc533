import { PeriodPicker } from "../../components/period-picker.tsx";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import {
  type FiguresPeriod,
  moderatorCountsQuery,
  moderatorDashboardQuery,
  moderatorFaqsQuery,
  moderatorResponseFiguresQuery,
} from "./api.ts";
import { categoryLabel, categoryNames } from "../../lib/moderator-categories.ts";
import { REVIEW_QUEUE_TEXTS_EN, ReviewQueue } from "../../components/review-queue.tsx";
import { RESPONSE_FIGURES_TEXTS_EN, ResponseFigures } from "../../components/response-figures.tsx";
import { useModeratorStatus } from "../../lib/moderator-status.ts";

/** The admin dashboard's periods (issue 24): the response figures cover the tracks uploaded in it. */
const FIGURES_PERIODS: Array<{ value: FiguresPeriod; label: string }> = [
  { value: "day", label: "Day" },
  { value: "week", label: "Week" },
  { value: "month", label: "Month" },
  { value: "year", label: "Year" },
];

const count = (q: { isPending: boolean; isError: boolean; data?: number }) =>
  q.isPending ? "…" : q.isError ? "—" : String(q.data ?? 0);

/** Welcome, categories, counts (tracks in the categories, downloaded, FAQ items) and shortcuts. */
export function ModeratorDashboardPage() {
  useDocumentTitle("Moderator Dashboard");
  const { status, username } = useModeratorStatus();
  const counts = useQuery(moderatorCountsQuery());
  const faqs = useQuery(moderatorFaqsQuery());
  const [period, setPeriod] = useState<FiguresPeriod>("month");
  const dashboard = useQuery(moderatorDashboardQuery());
  const queue = { ...dashboard, data: dashboard.data?.review_queue };
  const figures = useQuery(moderatorResponseFiguresQuery(period));
  const names = status ? categoryNames(status.categories) : [];

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Dashboard</h1>
      </div>

      <div className="st-section">
        <h2 className="mod-welcome">Welcome, {username}!</h2>
        <p className="st-muted" style={{ margin: "0 0 10px" }}>Your moderation categories:</p>
        {status && names.length === 0 && <p style={{ margin: 0 }}>No categories assigned</p>}
        {names.length > 0 && (
          <ul className="st-badges" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Categories">
            {names.map((n) => <li key={n} className="st-badge st-badge-accent">{n}</li>)}
          </ul>
        )}
        <p style={{ margin: "10px 0 0" }}>
          {/* Issue 25: the intake rules of these directions, read-only (the sidebar stays spec 2's). */}
          <Link to="/moderator/intake">Intake rules of your categories →</Link>
          {" · "}
          {/* Issue 34: the label releases of these categories. */}
          <Link to="/moderator/releases">Label releases →</Link>
        </p>
      </div>

      {counts.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(counts.error, "Failed to load tracks", "Error loading tracks")}
        </div>
      )}
      {faqs.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(faqs.error, "Failed to load FAQ items", "Error loading FAQ items")}
        </div>
      )}
      <div className="st-cards">
        <div className="st-card st-card-accent">
          <span className="st-card-label">Tracks in your categories</span>
          <span className="st-card-value" data-testid="count-tracks">
            {count({ ...counts, data: counts.data?.tracks })}
          </span>
        </div>
        <div className="st-card">
          <span className="st-card-label">Downloaded tracks</span>
          <span className="st-card-value" data-testid="count-downloaded">
            {count({ ...counts, data: counts.data?.downloaded })}
          </span>
          {counts.data && (
            <span className="st-card-sub">Not downloaded: {counts.data.tracks - counts.data.downloaded}</span>
          )}
        </div>
        <div className="st-card">
          <span className="st-card-label">FAQ items</span>
          <span className="st-card-value" data-testid="count-faq">{count({ ...faqs, data: faqs.data?.length })}</span>
        </div>
      </div>

      {queue.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(queue.error, "Failed to load the review queue", "Error loading the review queue")}
        </div>
      )}
      {queue.data && (
        <ReviewQueue
          rows={queue.data}
          tracksPath="/moderator/tracks"
          directionLabel={categoryLabel}
          texts={REVIEW_QUEUE_TEXTS_EN}
        />
      )}

      {figures.data && (
        <ResponseFigures
          figures={figures.data}
          directionLabel={categoryLabel}
          texts={RESPONSE_FIGURES_TEXTS_EN}
          periodPicker={<PeriodPicker periods={FIGURES_PERIODS} value={period} onChange={setPeriod} label="Period" />}
        />
      )}

      <div className="st-section">
        <h2>Shortcuts</h2>
        <div className="mod-shortcuts">
          <Link
            to="/moderator/tracks"
            search={{ review: "new", sort: "upload_date" }}
            className="st-btn st-btn-primary"
          >
            Manage Tracks
          </Link>
          <Link to="/moderator/faq" className="st-btn">Manage FAQ</Link>
          <Link to="/moderator/faq/edit" className="st-btn">Add New FAQ</Link>
        </div>
      </div>
    </section>
  );
}

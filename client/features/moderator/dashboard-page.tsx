import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { moderatorCountsQuery, moderatorDashboardQuery, moderatorFaqsQuery } from "./api.ts";
import { categoryLabel, categoryNames } from "../../lib/moderator-categories.ts";
import { REVIEW_QUEUE_TEXTS_EN, ReviewQueue } from "../../components/review-queue.tsx";
import { useModeratorStatus } from "../../lib/moderator-status.ts";

const count = (q: { isPending: boolean; isError: boolean; data?: number }) =>
  q.isPending ? "…" : q.isError ? "—" : String(q.data ?? 0);

/** Welcome, categories, counts (tracks in the categories, downloaded, FAQ items) and shortcuts. */
export function ModeratorDashboardPage() {
  useDocumentTitle("Moderator Dashboard");
  const { status, username } = useModeratorStatus();
  const counts = useQuery(moderatorCountsQuery());
  const faqs = useQuery(moderatorFaqsQuery());
  const queue = useQuery(moderatorDashboardQuery());
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

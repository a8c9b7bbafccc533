import { useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { StaffLayout, type StaffNavItem } from "../../components/staff-layout.tsx";
import { categoryNames } from "../../lib/moderator-categories.ts";
import { useModeratorStatus } from "../../lib/moderator-status.ts";
import "./moderator.css";

const NAV: StaffNavItem[] = [
  { to: "/moderator", label: "Dashboard", exact: true },
  // Issue 13: the panel opens on Новые within the categories, oldest first (decisions 0152, 0163).
  { to: "/moderator/tracks", label: "Tracks", search: { review: "new", sort: "upload_date" } },
  { to: "/moderator/faq", label: "FAQ" },
  // The sidebar stays exactly spec 2's; issue 25's read-only intake rules open from the dashboard.
];

export const STATUS_LOAD_ERROR = "Ошибка при загрузке прав модератора";

/** The moderator area frame: sidebar, back to the site, logout, and the categories in the header. */
export function ModeratorLayout() {
  const navigate = useNavigate();
  const { status, loading, failed, forbidden } = useModeratorStatus();
  const notModerator = forbidden || (status !== null && !status.is_moderator);

  useEffect(() => {
    if (notModerator) void navigate({ to: "/", replace: true });
  }, [notModerator, navigate]);

  const names = status ? categoryNames(status.categories) : [];
  const header = (
    <>
      {failed && <span className="st-alert st-alert-error mod-status-error" role="alert">{STATUS_LOAD_ERROR}</span>}
      <span className="mod-header">
        <span className="st-label">Moderator Panel</span>
        <span aria-hidden="true">·</span>
        <span>Categories:</span>
        {loading && <span className="st-muted">Loading...</span>}
        {!loading && names.length === 0 && <span className="st-badge">No categories assigned</span>}
        {names.map((n) => <span key={n} className="st-badge st-badge-accent">{n}</span>)}
      </span>
    </>
  );

  return (
    <StaffLayout
      title="Moderator"
      nav={NAV}
      backLabel="← Back to Site"
      logoutLabel="Logout"
      logoutFirst
      header={header}
    />
  );
}

import { Link, Outlet, useNavigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { signOut } from "../lib/auth.ts";
import "./ui/staff.css";

export interface StaffNavItem {
  to: string;
  label: string;
  /** Active only on this exact path (the dashboard), not on its children. */
  exact?: boolean;
  /** The address search the link opens with (the moderator's Tracks: Новые, oldest first, issue 13). */
  search?: Record<string, string>;
}

interface StaffLayoutProps {
  /** Small heading above the links, e.g. "Админка". */
  title: string;
  nav: StaffNavItem[];
  backLabel: string;
  logoutLabel: string;
  /** Logout above the link back to the site (the moderator sidebar's order in spec 2); else below. */
  logoutFirst?: boolean;
  /** Shown above the page content (the moderator's categories). */
  header?: ReactNode;
}

/**
 * The panel frame shared by the admin and moderator areas: a sidebar with the section links, a link
 * back to the site and a logout, then the page. The root layout already gives staff pages the full width.
 */
export function StaffLayout(
  { title, nav, backLabel, logoutLabel, logoutFirst = false, header }: StaffLayoutProps,
) {
  const navigate = useNavigate();
  const logout = async () => {
    await signOut();
    await navigate({ to: "/" });
  };
  const logoutButton = (
    <button type="button" className="st-nav-link st-nav-muted" onClick={logout}>{logoutLabel}</button>
  );
  return (
    <div className="st-shell">
      <aside className="st-sidebar" aria-label={title}>
        <p className="st-sidebar-title">{title}</p>
        <nav className="st-nav">
          {nav.map((item) => (
            <Link
              key={item.to}
              to={item.to as "/"}
              search={item.search as never}
              className="st-nav-link"
              activeOptions={{ exact: Boolean(item.exact), includeSearch: false }}
            >
              {item.label}
            </Link>
          ))}
          <div className="st-nav-sep" role="separator" />
          {logoutFirst && logoutButton}
          <Link to="/" className="st-nav-link st-nav-muted">{backLabel}</Link>
          {!logoutFirst && logoutButton}
        </nav>
      </aside>
      <div className="st-content">
        {header && <div className="st-header-extra">{header}</div>}
        <Outlet />
      </div>
    </div>
  );
}

import { Outlet } from "@tanstack/react-router";

/** Moderator layout (placeholder until its issue fills it in). */
export function ModeratorLayout() {
  return (
    <div className="staff-layout">
      <Outlet />
    </div>
  );
}

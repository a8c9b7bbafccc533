import { Outlet } from "@tanstack/react-router";

/** Админка layout (placeholder until its issue fills it in). */
export function AdminLayout() {
  return (
    <div className="staff-layout">
      <Outlet />
    </div>
  );
}

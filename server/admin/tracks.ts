import type { AppContext } from "../deps.ts";
import { createStaffTrackRoutes } from "../staff/track-routes.ts";

/** /api/admin/tracks: every track (scope `*`), with create and the full update. */
export function createAdminTrackRoutes(ctx: AppContext) {
  return createStaffTrackRoutes(ctx, { mode: "admin" });
}

import type { AppContext } from "../deps.ts";
import { createStaffFaqRoutes } from "../staff/faq-routes.ts";

/** /api/admin/faq: the shared FAQ API (the moderator panel mounts the same one). */
export function createAdminFaqRoutes(ctx: AppContext) {
  return createStaffFaqRoutes(ctx);
}

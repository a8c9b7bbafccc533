import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { createStaffFaqRoutes } from "../faq/staff-routes.ts";
import { createAdminSliderRoutes } from "../slider/admin-routes.ts";
import { createAdminTrackRoutes } from "../review/staff-routes.ts";
import { createAdminUserRoutes } from "../users/admin-routes.ts";
import { createAdminDashboardRoutes } from "./dashboard.ts";
import { createAdminDeclineTemplateRoutes } from "../decline-templates/routes.ts";
import { createAdminRedisRoutes } from "./redis.ts";
import { createAdminIntakeRoutes } from "../intake/routes.ts";
import { createStaffReleaseRoutes } from "../releases/routes.ts";

/**
 * Administrator API: /api/admin/*. Signed-in admins only: anonymous 401, anyone else 403. The
 * resources' own folders hold their routes; this file only mounts them behind the admin guard. The
 * track and FAQ routes are the ones the moderator panel mounts too, with the full (admin) update.
 */
export function createAdminRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .use("*", ctx.guards.user, ctx.guards.admin)
    .route("/tracks", createAdminTrackRoutes(ctx))
    .route("/faq", createStaffFaqRoutes(ctx))
    .route("/slider", createAdminSliderRoutes(ctx))
    .route("/users", createAdminUserRoutes(ctx))
    .route("/dashboard", createAdminDashboardRoutes(ctx))
    .route("/decline-templates", createAdminDeclineTemplateRoutes(ctx))
    .route("/intake", createAdminIntakeRoutes(ctx))
    .route("/releases", createStaffReleaseRoutes(ctx))
    .route("/", createAdminRedisRoutes(ctx));
}

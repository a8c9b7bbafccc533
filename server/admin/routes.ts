import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { createAdminDashboardRoutes } from "./dashboard.ts";
import { createAdminFaqRoutes } from "./faq.ts";
import { createAdminRedisRoutes } from "./redis.ts";
import { createAdminSliderRoutes } from "./slider.ts";
import { createAdminTrackRoutes } from "./tracks.ts";
import { createAdminUserRoutes } from "./users.ts";

/** Administrator API: /api/admin/*. Signed-in admins only: anonymous 401, anyone else 403. */
export function createAdminRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .use("*", ctx.guards.user, ctx.guards.admin)
    .route("/tracks", createAdminTrackRoutes(ctx))
    .route("/faq", createAdminFaqRoutes(ctx))
    .route("/slider", createAdminSliderRoutes(ctx))
    .route("/users", createAdminUserRoutes(ctx))
    .route("/dashboard", createAdminDashboardRoutes(ctx))
    .route("/", createAdminRedisRoutes(ctx));
}

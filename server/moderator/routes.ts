import { Hono } from "hono";
import type { Scope } from "../../domain/scope.ts";
import { roleOf } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { createStaffFaqRoutes } from "../faq/staff-routes.ts";
import { createModeratorTrackRoutes } from "../review/staff-routes.ts";
import { createModeratorDeclineTemplateRoutes } from "../decline-templates/routes.ts";
import { dashboardQuerySchema, figuresWindow } from "../admin/dashboard.ts";
import { validate } from "../http/validate.ts";
import { createModeratorIntakeRoutes } from "../intake/routes.ts";
import { createStaffReleaseRoutes } from "../releases/routes.ts";

/** GET /api/moderator/status (spec 2 §7): `categories` is `"*"` or the list of direction codes. */
export interface ModeratorStatus {
  is_moderator: boolean;
  categories: Scope;
}

/**
 * Moderator API: /api/moderator/*. Signed-in moderators and admins only (anonymous 401, anyone else
 * 403). Admins work on every category (`*`). The track and FAQ handlers are the same ones the admin
 * panel mounts; only the scope and the update mode differ (docs/decisions/0060-moderator-api.md).
 */
export function createModeratorRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .use("*", ctx.guards.user, ctx.guards.staff)
    .get("/status", (c) => {
      const role = roleOf(c.get("user"));
      const status: ModeratorStatus = { is_moderator: role.isModerator, categories: role.categories };
      return c.json({ success: true, status });
    })
    // The moderator's dashboard (issue 23): new, shortlisted and overdue per direction of theirs.
    .get("/dashboard", async (c) => {
      const review_queue = await ctx.review.reviewQueue(roleOf(c.get("user")).categories);
      return c.json({ success: true, review_queue });
    })
    // Their response figures (issue 24, decisions 0235, 0237): their directions' and their own, for
    // the period of `?period=day|week|month|year` (month when left out), as the admin's.
    .get("/dashboard/response-figures", validate("query", dashboardQuerySchema), async (c) => {
      const q = c.req.valid("query");
      const user = c.get("user");
      const window = figuresWindow(q.period, ctx.clock.now(), q.tz_offset);
      const response_figures = await ctx.review.responseFigures(roleOf(user).categories, window, user.id);
      return c.json({ success: true, response_figures });
    })
    // The scope is read from the user row loaded for this request, so a change of categories by an
    // admin applies to the moderator's very next call.
    .route("/tracks", createModeratorTrackRoutes(ctx))
    .route("/faq", createStaffFaqRoutes(ctx))
    // The decision form's ready-made decline messages, read-only (administrators keep them).
    .route("/decline-templates", createModeratorDeclineTemplateRoutes(ctx))
    // Their directions' intake rules, read-only (issue 25; administrators keep them).
    .route("/intake", createModeratorIntakeRoutes(ctx))
    // The label releases of their categories (issue 34).
    .route("/releases", createStaffReleaseRoutes(ctx));
}

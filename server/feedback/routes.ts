import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { feedbackRatingSchema } from "../../domain/feedback-rating.ts";
import { rateFeedback } from "./ratings.ts";

/** PUT /api/tracks/{id}/feedback/{direction} (issue 37): the artist rates a decision's feedback once. */
export function createFeedbackRoutes(ctx: AppContext) {
  const holdMs = ctx.config.decisionNotifyHoldS * 1000;
  return new Hono<AppEnv>()
    .put("/tracks/:id/feedback/:direction", ctx.guards.user, validate("json", feedbackRatingSchema()), async (c) => {
      const feedback = await rateFeedback(
        { db: ctx.db, clock: ctx.clock, holdMs },
        c.get("user").id,
        parseId(c.req.param("id")),
        c.req.param("direction"),
        c.req.valid("json"),
      );
      return c.json({ success: true as const, feedback });
    });
}

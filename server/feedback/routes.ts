import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { feedbackRatingSchema } from "../../domain/feedback-rating.ts";
import { rateFeedback } from "./ratings.ts";
import { acceptOffer } from "../uploads/versions.ts";
import { z } from "zod";

const offerSchema = z.object({
  version_of: z.number({ error: "Укажите version_of: номер трека." }).int().positive(
    "Укажите version_of: номер трека.",
  ),
});

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
    })
    // The automatic offer taken (issue 37): this upload is the new version of the similar track.
    .post("/tracks/:id/version-of", ctx.guards.user, validate("json", offerSchema), async (c) => {
      const line = await acceptOffer(
        ctx.db,
        c.get("user").id,
        parseId(c.req.param("id")),
        c.req.valid("json").version_of,
        ctx.clock.now(),
      );
      return c.json({ success: true as const, ...line });
    });
}

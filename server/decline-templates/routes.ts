import { Hono } from "hono";
import { z } from "zod";
import { declineTemplateSchemas, isTemplateOutcome, REVIEW_TEXTS } from "../../domain/review.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";

/** `?outcome=accepted|shortlisted|declined` narrows a list to one outcome; left out: all. */
const listQuery = z.object({
  outcome: z.string().optional().refine((v) => v === undefined || isTemplateOutcome(v), {
    message: REVIEW_TEXTS.unknownOutcome,
  }).transform((v) => v as Parameters<AppContext["declineTemplates"]["list"]>[0]),
});

/**
 * /api/admin/decline-templates: the administrators' ready-made messages to artists, each with its
 * `outcome` (decision 0224; the route keeps its name for the scripts written against it).
 */
export function createAdminDeclineTemplateRoutes(ctx: AppContext) {
  const service = ctx.declineTemplates;
  const schemas = declineTemplateSchemas();
  return new Hono<AppEnv>()
    .get(
      "/",
      validate("query", listQuery),
      async (c) => c.json({ success: true, templates: await service.list(c.req.valid("query").outcome) }),
    )
    .post("/", validate("json", schemas.create), async (c) => {
      return c.json({ success: true, template: await service.create(c.req.valid("json")) }, 201);
    })
    .get("/:id", async (c) => c.json({ success: true, template: await service.get(parseId(c.req.param("id"))) }))
    .put("/:id", validate("json", schemas.update), async (c) => {
      return c.json({ success: true, template: await service.update(parseId(c.req.param("id")), c.req.valid("json")) });
    })
    .delete("/:id", async (c) => {
      await service.remove(parseId(c.req.param("id")));
      return c.json({ success: true });
    });
}

/** /api/moderator/decline-templates: the same list, to read, for the moderator's decision form. */
export function createModeratorDeclineTemplateRoutes(ctx: AppContext) {
  const service = ctx.declineTemplates;
  return new Hono<AppEnv>()
    .get(
      "/",
      validate("query", listQuery),
      async (c) => c.json({ success: true, templates: await service.list(c.req.valid("query").outcome) }),
    );
}

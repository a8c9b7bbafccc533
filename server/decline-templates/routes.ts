import { Hono } from "hono";
import { declineTemplateSchemas } from "../../domain/review.ts";
import type { AppContext, AppEnv } from "../deps.ts";
import { parseId, validate } from "../lib/validate.ts";

/** /api/admin/decline-templates: the administrators' list of ready-made decline messages. */
export function createAdminDeclineTemplateRoutes(ctx: AppContext) {
  const service = ctx.declineTemplates;
  const schemas = declineTemplateSchemas();
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json({ success: true, templates: await service.list() }))
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
    .get("/", async (c) => c.json({ success: true, templates: await service.list() }));
}

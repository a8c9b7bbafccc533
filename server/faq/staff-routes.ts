import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { faqCreateSchema, faqUpdateSchema } from "./service.ts";

/**
 * The FAQ API shared by /api/admin/faq and /api/moderator/faq (same rules for both, issue 7);
 * the caller mounts it behind its own guards.
 */
export function createStaffFaqRoutes(ctx: AppContext) {
  const service = ctx.faq;
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json({ success: true, faqs: await service.list() }))
    .post("/", validate("json", faqCreateSchema), async (c) => {
      return c.json({ success: true, faq: await service.create(c.req.valid("json")) }, 201);
    })
    .get("/:id", async (c) => c.json({ success: true, faq: await service.get(parseId(c.req.param("id"))) }))
    .put("/:id", validate("json", faqUpdateSchema), async (c) => {
      return c.json({ success: true, faq: await service.update(parseId(c.req.param("id")), c.req.valid("json")) });
    })
    .delete("/:id", async (c) => {
      await service.remove(parseId(c.req.param("id")));
      return c.json({ success: true });
    });
}

import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { createFaqService } from "./service.ts";

/** Public FAQ: GET /api/faq, sorted by order. */
export function createFaqRoutes(ctx: AppContext) {
  const service = createFaqService(ctx);
  return new Hono<AppEnv>().get("/", async (c) => c.json({ success: true, faqs: await service.list() }));
}

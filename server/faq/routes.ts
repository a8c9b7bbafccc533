import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Public FAQ: GET /api/faq. */
export function createFaqRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

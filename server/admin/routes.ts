import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Administrator API: /api/admin/*. */
export function createAdminRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

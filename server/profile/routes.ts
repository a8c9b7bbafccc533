import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** The signed-in user's profile: /api/profile/*. */
export function createProfileRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

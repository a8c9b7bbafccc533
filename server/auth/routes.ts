import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Sign-in, tokens and sessions: /api/auth/*. */
export function createAuthRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

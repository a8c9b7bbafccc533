import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Moderator API: /api/moderator/*. */
export function createModeratorRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Signed, short-lived track file downloads: /api/downloads/*. */
export function createDownloadRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

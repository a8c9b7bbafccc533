import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Streamed uploads: POST /api/upload. */
export function createUploadRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

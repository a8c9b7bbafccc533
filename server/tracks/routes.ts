import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** The user's tracks and batch status: /api/status/{id}, /api/track_ids, /api/tracks, /api/errors, /api/success. */
export function createTrackRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

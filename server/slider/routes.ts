import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** Public slider tiles: GET /api/slider. */
export function createSliderRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}

import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { createSliderService } from "./service.ts";

/** Public slider tiles: GET /api/slider, with image addresses. */
export function createSliderRoutes(ctx: AppContext) {
  const service = createSliderService(ctx);
  return new Hono<AppEnv>().get("/", async (c) => c.json({ success: true, sliders: await service.list() }));
}

import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import { publicSliderAnswer, type SliderView } from "./service.ts";

/** Public slider tiles: GET /api/slider, with image addresses; kept ready in memory with an ETag (decision 0180). */
export function createSliderRoutes(ctx: AppContext) {
  const answer = publicSliderAnswer(ctx);
  return new Hono<AppEnv>().get("/", async (c) => sendJsonAnswer<{ success: true; sliders: SliderView[] }>(c, await answer.get()));
}

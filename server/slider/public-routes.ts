import { type Context, Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { laneOf, readyAnswer } from "../http/lanes.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import { publicSliderAnswer, type SliderView } from "./service.ts";

/**
 * Public slider tiles: GET /api/slider, with image addresses; kept ready in memory with an ETag
 * (decision 0180), and its lane in front of the router (server/http/lanes.ts): that answer for a
 * request without an `Authorization` header, while maintenance is off (the gate in front of the route).
 */
export const sliderLane = laneOf((ctx) => {
  const answer = publicSliderAnswer(ctx);
  return {
    name: "slider",
    path: "/",
    head: true,
    checks: [],
    route: async (c: Context<AppEnv>) =>
      sendJsonAnswer<{ success: true; sliders: SliderView[] }>(c, await answer.get()),
    answer: (req) => readyAnswer(req, answer.get(), "no-cache"),
  };
});

export function createSliderRoutes(ctx: AppContext) {
  const slider = sliderLane(ctx);
  return new Hono<AppEnv>().get(slider.path, slider.route);
}

import { type Context, Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { laneOf, readyAnswer } from "../http/lanes.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import { type FaqView, publicFaqAnswer } from "./service.ts";

/**
 * Public FAQ: GET /api/faq, sorted by order; kept ready in memory with an ETag (decision 0180), and
 * its lane in front of the router (server/http/lanes.ts): that answer for a request without an
 * `Authorization` header, while maintenance is off (the gate in front of the route).
 */
export const faqLane = laneOf((ctx) => {
  const answer = publicFaqAnswer(ctx);
  return {
    name: "FAQ",
    path: "/",
    head: true,
    checks: [],
    route: async (c: Context<AppEnv>) => sendJsonAnswer<{ success: true; faqs: FaqView[] }>(c, await answer.get()),
    answer: (req) => readyAnswer(req, answer.get(), "no-cache"),
  };
});

export function createFaqRoutes(ctx: AppContext) {
  const faq = faqLane(ctx);
  return new Hono<AppEnv>().get(faq.path, faq.route);
}

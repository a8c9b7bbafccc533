import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import { type FaqView, publicFaqAnswer } from "./service.ts";

/** Public FAQ: GET /api/faq, sorted by order; kept ready in memory with an ETag (decision 0180). */
export function createFaqRoutes(ctx: AppContext) {
  const answer = publicFaqAnswer(ctx);
  return new Hono<AppEnv>().get("/", async (c) => sendJsonAnswer<{ success: true; faqs: FaqView[] }>(c, await answer.get()));
}

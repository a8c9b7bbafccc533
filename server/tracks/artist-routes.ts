import { Hono } from "hono";
import { z } from "zod";
import type { AppContext, AppEnv } from "../deps.ts";
import { parseId, validate } from "../lib/validate.ts";
import { REVIEW_TEXTS } from "../../domain/review.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import type { OwnedTrack } from "./service.ts";
import { statusAnswer } from "./processing/status-keys.ts";


const pageNumber = (message: string, fallback: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v.trim());
      if (!/^\d{1,9}$/.test(v.trim()) || n < 1 || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });

/** GET /api/tracks/history: `page` from 1 (past the end answers the last page), `page_size` 1–100, default 20. */
const historyQuery = z.object({
  page: pageNumber(REVIEW_TEXTS.badHistoryPage, 1, 999_999_999),
  page_size: pageNumber(REVIEW_TEXTS.badHistoryPageSize, 20, 100),
});

/** The user's tracks and batch status: /api/status/{id}, /api/track_ids, /api/tracks, /api/errors, /api/success. */
export function createTrackRoutes(ctx: AppContext) {
  const keys = ctx.tracks.status;

  return new Hono<AppEnv>()
    // Polled every 3 s by every open processing page: the id is checked by parseId alone (a
    // validator for a path segment that is always a string cost more than the rest; issue 15).
    .get("/status/:id", ctx.guards.user, async (c) => {
      // The service decides who may see the track; outside one's sight is 404 like a missing id.
      const value = await ctx.tracks.statusFor(c.get("user"), parseId(c.req.param("id")));
      return c.json(statusAnswer(value));
    })
    .get("/track_ids", ctx.guards.user, async (c) => {
      return c.json({ track_ids: await keys.batchIds(c.get("user").id) });
    })
    // Kept ready per artist (decision 0185): no query, serialisation or compression while unchanged;
    // `no-store` as every answer to a signed-in request, an ETag for a client that asks with it.
    .get("/tracks", ctx.guards.user, async (c) => {
      return sendJsonAnswer<{ success: true; tracks: OwnedTrack[] }>(c, await ctx.tracks.ownedAnswer(c.get("user").id), "no-store");
    })
    // Every submission, failed ones too, with each direction's review as the artist sees it (issue 13).
    .get("/tracks/history", ctx.guards.user, validate("query", historyQuery), async (c) => {
      return c.json({ success: true as const, ...(await ctx.tracks.historyOf(c.get("user").id, c.req.valid("query"))) });
    })
    .get("/errors", ctx.guards.user, async (c) => {
      return c.json({ errors: await keys.errors(c.get("user").id) });
    })
    .get("/success", ctx.guards.user, async (c) => {
      return c.json({ success: await keys.success(c.get("user").id) });
    });
}

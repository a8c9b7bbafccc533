import { Hono } from "hono";
import { z } from "zod";
import type { AppContext, AppEnv } from "../deps.ts";
import { parseId, validate } from "../lib/validate.ts";

const idParam = z.object({ id: z.string() });

/** The user's tracks and batch status: /api/status/{id}, /api/track_ids, /api/tracks, /api/errors, /api/success. */
export function createTrackRoutes(ctx: AppContext) {
  const keys = ctx.tracks.status;

  return new Hono<AppEnv>()
    .get("/status/:id", ctx.guards.user, validate("param", idParam), async (c) => {
      // The service decides who may see the track; outside one's sight is 404 like a missing id.
      const value = await ctx.tracks.statusFor(c.get("user"), parseId(c.req.valid("param").id));
      return c.json({ status: value.status, error: value.error ?? null, track_data: value.track_data });
    })
    .get("/track_ids", ctx.guards.user, async (c) => {
      return c.json({ track_ids: await keys.batchIds(c.get("user").id) });
    })
    .get("/tracks", ctx.guards.user, async (c) => {
      return c.json({ success: true as const, tracks: await ctx.tracks.ownedBy(c.get("user").id) });
    })
    .get("/errors", ctx.guards.user, async (c) => {
      return c.json({ errors: await keys.errors(c.get("user").id) });
    })
    .get("/success", ctx.guards.user, async (c) => {
      return c.json({ success: await keys.success(c.get("user").id) });
    });
}

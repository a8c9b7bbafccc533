import { and, desc, eq, ne } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { tracks } from "../../db/schema.ts";
import type { AppContext, AppEnv } from "../deps.ts";
import { notFound } from "../lib/http-error.ts";
import { parseId, validate } from "../lib/validate.ts";
import { maySeeTrack } from "./scope.ts";
import { STATUS_COLUMNS, statusValue, type TrackStatusValue } from "./processing/status-keys.ts";

const idParam = z.object({ id: z.string() });

/** The user's tracks and batch status: /api/status/{id}, /api/track_ids, /api/tracks, /api/errors, /api/success. */
export function createTrackRoutes(ctx: AppContext) {
  const keys = ctx.processor.status;

  return new Hono<AppEnv>()
    .get("/status/:id", ctx.guards.user, validate("param", idParam), async (c) => {
      const id = parseId(c.req.valid("param").id);
      const user = c.get("user");
      // The store answers the owner's polling; the database answers when the key is gone or the store
      // is down, and for anyone else: staff may have changed the directions since the key was written,
      // and a moderator's sight follows the current ones.
      let value: TrackStatusValue | null = await keys.readStatus(id);
      if (!value || value.user_id !== user.id) {
        const [row] = await ctx.db.select(STATUS_COLUMNS).from(tracks).where(eq(tracks.id, id)).limit(1);
        // A track outside the caller's sight is answered exactly like a missing one.
        if (!row || !maySeeTrack(user, row)) throw notFound("Трек не найден");
        value = statusValue(row);
      }
      return c.json({ status: value.status, error: value.error ?? null, track_data: value.track_data });
    })
    .get("/track_ids", ctx.guards.user, async (c) => {
      return c.json({ track_ids: await keys.batchIds(c.get("user").id) });
    })
    .get("/tracks", ctx.guards.user, async (c) => {
      const rows = await ctx.db
        .select({
          id: tracks.id,
          filename: tracks.filename,
          upload_date: tracks.upload_date,
          downloaded: tracks.downloaded,
        })
        .from(tracks)
        // Uploads that failed the checks were never submitted (decision 0022).
        .where(and(eq(tracks.user_id, c.get("user").id), ne(tracks.status, "failed")))
        .orderBy(desc(tracks.upload_date), desc(tracks.id));
      return c.json({ success: true as const, tracks: rows });
    })
    .get("/errors", ctx.guards.user, async (c) => {
      return c.json({ errors: await keys.errors(c.get("user").id) });
    })
    .get("/success", ctx.guards.user, async (c) => {
      return c.json({ success: await keys.success(c.get("user").id) });
    });
}

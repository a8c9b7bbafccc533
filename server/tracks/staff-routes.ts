import { Hono } from "hono";
import { z } from "zod";
import type { AppContext, AppEnv } from "../deps.ts";
import { DOWNLOAD_TOKEN_TTL_S, downloadUrl, signDownloadToken } from "./downloads/token.ts";
import { parseId, validate } from "../lib/validate.ts";
import {
  trackInputSchema,
  trackListQuerySchema,
  trackModerationSchema,
  trackUpdateSchema,
} from "./service.ts";

const downloadManySchema = z.object({
  track_ids: z
    .array(z.union([z.number().int().positive(), z.string().regex(/^\d{1,15}$/).transform(Number)]), {
      message: "Не выбраны треки для скачивания",
    })
    .min(1, "Не выбраны треки для скачивания"),
});

export interface StaffTrackRoutesOptions {
  /**
   * `admin`: create, and a full update (user, guest name, directions, downloaded).
   * `moderator`: no create; updates limited to directions in scope and the downloaded flag.
   */
  mode: "admin" | "moderator";
}

/**
 * The one track API behind /api/admin/tracks and /api/moderator/tracks. The caller mounts it behind
 * its own guards; every handler hands the signed-in user to the tracks service, which derives their
 * current scope (`scopeOf`), the same rule the status call and the download links apply
 * (`maySeeTrack`).
 */
export function createStaffTrackRoutes(ctx: AppContext, opts: StaffTrackRoutesOptions) {
  const service = ctx.tracks;
  const app = new Hono<AppEnv>();

  const link = async (userId: number, ids: number[]) => {
    const token = await signDownloadToken(ctx, userId, ids);
    return { success: true as const, download_url: downloadUrl(token), expires_in: DOWNLOAD_TOKEN_TTL_S };
  };

  app.get("/", validate("query", trackListQuerySchema), async (c) => {
    const list = await service.list(c.get("user"), c.req.valid("query"));
    return c.json({ success: true, ...list });
  });

  if (opts.mode === "admin") {
    app.post("/", validate("json", trackInputSchema), async (c) => {
      const track = await service.create(c.req.valid("json"));
      return c.json({ success: true, track }, 201);
    });
  }

  app.get("/download/:id", async (c) => {
    const user = c.get("user");
    const [track] = await service.forDownload(user, [parseId(c.req.param("id"))]);
    return c.json(await link(user.id, [track.id]));
  });

  app.post("/download", validate("json", downloadManySchema), async (c) => {
    const user = c.get("user");
    const found = await service.forDownload(user, c.req.valid("json").track_ids);
    return c.json(await link(user.id, found.map((t) => t.id)));
  });

  app.get("/:id", async (c) => {
    const track = await service.get(c.get("user"), parseId(c.req.param("id")));
    return c.json({ success: true, track });
  });

  if (opts.mode === "admin") {
    app.put("/:id", validate("json", trackUpdateSchema), async (c) => {
      const track = await service.update(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true, track });
    });
  } else {
    app.put("/:id", validate("json", trackModerationSchema), async (c) => {
      const track = await service.moderate(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true, track });
    });
  }

  app.delete("/:id", async (c) => {
    await service.remove(c.get("user"), parseId(c.req.param("id")));
    return c.json({ success: true });
  });

  return app;
}

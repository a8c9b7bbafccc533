import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";

/** GET /api/health and GET /api/config (the public runtime settings the client needs). */
export function createHealthRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get("/health", async (c) => {
      const [db, kv] = await Promise.all([
        ctx.db.run(sql`select 1`).then(() => "ok", (err) => {
          ctx.logger.error("health: database failed", { err });
          return "error";
        }),
        ctx.kv.ping().then((ok) => (ok ? "ok" : "error"), () => "error"),
      ]);
      const success = db === "ok" && kv === "ok";
      return c.json({ success, db, kv }, success ? 200 : 503);
    })
    .get("/config", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({
        success: true,
        maintenance: ctx.config.maintenance,
        providers: { vk: Boolean(ctx.config.vk), telegram: Boolean(ctx.config.telegram) },
        limits: {
          max_upload_file_mb: Math.round(ctx.config.maxUploadFileBytes / 1024 / 1024),
          max_upload_files: ctx.config.maxUploadFiles,
        },
      });
    });
}

import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { makeAnswer, sendJsonAnswer } from "../http/public-answer.ts";

/**
 * GET /api/health and GET /api/config (the public runtime settings the client needs). The settings
 * are read once at start-up, so the config answer is made once, with an ETag; `no-cache` makes the
 * browser ask again each time (a restart with maintenance switched on is seen at once).
 */
export function createHealthRoutes(ctx: AppContext) {
  const { publicConfig, answer: configAnswer } = publicConfigAnswer(ctx);
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
    .get("/config", async (c) => sendJsonAnswer<typeof publicConfig>(c, await configAnswer));
}

const configAnswers = new WeakMap<AppContext["config"], ReturnType<typeof makeConfigAnswer>>();

function makeConfigAnswer(ctx: Pick<AppContext, "config">) {
  const publicConfig = {
    success: true as const,
    maintenance: ctx.config.maintenance,
    providers: { vk: Boolean(ctx.config.vk), telegram: Boolean(ctx.config.telegram) },
    limits: {
      max_upload_file_mb: Math.round(ctx.config.maxUploadFileBytes / 1024 / 1024),
      max_upload_files: ctx.config.maxUploadFiles,
    },
  };
  return { publicConfig, answer: makeAnswer(JSON.stringify(publicConfig), "application/json") };
}

/** GET /api/config's answer, made once per configuration (the routes and the ready-answer lane share it). */
export function publicConfigAnswer(ctx: Pick<AppContext, "config">) {
  let made = configAnswers.get(ctx.config);
  if (!made) configAnswers.set(ctx.config, made = makeConfigAnswer(ctx));
  return made;
}

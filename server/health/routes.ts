import { sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import type { AppContext, AppEnv } from "../deps.ts";
import { laneOf, readyAnswer } from "../http/lanes.ts";
import { type Answer, makeAnswer, sendJsonAnswer } from "../http/public-answer.ts";

/**
 * GET /api/health and GET /api/config (the public runtime settings the client needs). The settings
 * are read once at start-up, so the config answer is made once, with an ETag; `no-cache` makes the
 * browser ask again each time (a restart with maintenance switched on is seen at once).
 */
export function createHealthRoutes(ctx: AppContext) {
  const config = configLane(ctx);
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
    .get(config.path, config.route);
}

type PublicConfig = ReturnType<typeof makeConfigAnswer>["publicConfig"];

/**
 * GET /api/config and its lane in front of the router (server/lib/lanes.ts, decision 0180): the one
 * answer made at start-up, for a request without an `Authorization` header (signed-in requests get
 * `no-store` from the edge: the route sends those). It stays open in maintenance, as the gate keeps it.
 */
export const configLane = laneOf((ctx) => {
  const made = publicConfigAnswer(ctx).answer;
  // After it lands the lane answers it without a promise.
  let answer: Answer | Promise<Answer> = made;
  void made.then((a) => (answer = a), () => {});
  return {
    name: "config",
    path: "/config",
    head: true,
    checks: [],
    route: async (c: Context<AppEnv>) => sendJsonAnswer<PublicConfig>(c, await made),
    answer: (req) => readyAnswer(req, answer, "no-cache"),
  };
});

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

import { sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { laneOf, readyAnswer } from "../http/lanes.ts";
import { type Answer, makeAnswer, sendJsonAnswer } from "../http/public-answer.ts";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { type IntakeRules, readRules } from "../intake/rules.ts";

/**
 * GET /api/health and GET /api/config (the public runtime settings the client needs, with an ETag;
 * `no-cache` makes the browser ask again each time, so a paused direction is seen at once).
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

type PublicConfig = ReturnType<typeof publicConfigOf>;

/**
 * GET /api/config and its lane in front of the router (server/http/lanes.ts, decision 0180): an
 * answer made from the start-up settings and the directions' intake (issue 25: open, and the pause
 * message the upload page shows), for a request without an `Authorization` header (signed-in
 * requests get `no-store` from the edge: the route sends those). The answer is made again only when
 * the intake rules are read again (server/intake/rules.ts keeps them for a moment). It stays open
 * in maintenance, as the gate keeps it.
 */
export const configLane = laneOf((ctx) => ({
  name: "config",
  path: "/config",
  head: true,
  checks: [],
  route: async (c: Context<AppEnv>) => sendJsonAnswer<PublicConfig>(c, await publicConfigAnswer(ctx)),
  answer: (req) => readyAnswer(req, publicConfigAnswer(ctx), "no-cache"),
}));

function publicConfigOf(ctx: Pick<AppDeps, "config">, rules: IntakeRules) {
  return {
    success: true as const,
    maintenance: ctx.config.maintenance,
    providers: { vk: Boolean(ctx.config.vk), telegram: Boolean(ctx.config.telegram) },
    limits: {
      max_upload_file_mb: Math.round(ctx.config.maxUploadFileBytes / 1024 / 1024),
      max_upload_files: ctx.config.maxUploadFiles,
    },
    intake: Object.fromEntries(
      DIRECTIONS.map((d) => [d, { open: rules[d].open, pause_message: rules[d].pause_message }]),
    ) as Record<Direction, { open: boolean; pause_message: string | null }>,
  };
}

/** One answer per read of the rules (the same read is shared while it is kept). */
const configAnswers = new WeakMap<Promise<IntakeRules>, Promise<Answer>>();
/** The same, once made: the lane then answers without a promise (a hot path, decision 0180). */
const madeAnswers = new WeakMap<Promise<IntakeRules>, Answer>();

/** GET /api/config's answer (the route and the ready-answer lane share it). */
export function publicConfigAnswer(ctx: Pick<AppDeps, "config" | "db">): Answer | Promise<Answer> {
  const rules = readRules(ctx.db);
  const ready = madeAnswers.get(rules);
  if (ready) return ready;
  let made = configAnswers.get(rules);
  if (!made) {
    made = rules.then((r) => makeAnswer(JSON.stringify(publicConfigOf(ctx, r)), "application/json"));
    made.then((a) => madeAnswers.set(rules, a), () => {});
    configAnswers.set(rules, made);
  }
  return made;
}

import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { createAdminRoutes } from "./admin/routes.ts";
import { createGuards } from "./auth/guards.ts";
import { createAuthRoutes, meLane } from "./auth/routes.ts";
import { createTokenService } from "./auth/tokens.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import type { AppContext } from "./wiring.ts";
import { createDownloadRoutes } from "./tracks/downloads/routes.ts";
import { createListenRoutes } from "./tracks/downloads/listen-routes.ts";
import { createFaqRoutes, faqLane } from "./faq/public-routes.ts";
import { configLane, createHealthRoutes } from "./health/routes.ts";
import { ApiError } from "./lib/http-error.ts";
import { type FrontMiddleware, type Lane, readyAnswer, withLanes } from "./http/lanes.ts";
import { edgeHeaders } from "./http/edge-middleware.ts";
import { securityHeaderSet } from "./http/security-headers.ts";
import { bucketOrigins, publicUploadOrigins, servePublicFile } from "./http/public-static.ts";
import { fileAnswer } from "./http/client-build.ts";
import { serveFile } from "./http/serve-file.ts";
import { maintenanceGate } from "./maintenance/gate.ts";
import { createNotifications } from "./notifications/notifications.ts";
import { reviewEffects } from "./notifications/review-effects.ts";
import { createTelegramUpdates } from "./notifications/telegram-updates/updates.ts";
import { createTelegramWebhookRoutes } from "./notifications/telegram-updates/webhook-routes.ts";
import { createVkCallbackRoutes, createVkProfileRoutes } from "./notifications/vk/routes.ts";
import { createDeclineTemplatesService } from "./decline-templates/service.ts";
import { createFaqService } from "./faq/service.ts";
import { createSliderService } from "./slider/service.ts";
import { createModeratorRoutes } from "./moderator/routes.ts";
import { createProcessor } from "./processing/processor.ts";
import { createReanalysis } from "./processing/reanalysis.ts";
import { createTrackServices } from "./track-services.ts";
import { createUsersService } from "./users/service.ts";
import { createProfileRoutes } from "./users/profile-routes.ts";
import { createSliderRoutes, sliderLane } from "./slider/public-routes.ts";
import { createTrackRoutes, statusLane, tracksLane } from "./artist/artist-routes.ts";
import { createFeedbackRoutes } from "./feedback/routes.ts";
import { createUploadRoutes } from "./uploads/upload-routes.ts";
import { createResumableRoutes, isResumablePartPath } from "./uploads/resumable/routes.ts";
import { createPromiseSweep } from "./intake/sweep.ts";
import { createEpisodes } from "./episodes/service.ts";
import { withEpisodeEffects } from "./episodes/review-effects.ts";
import { createShowRoutes } from "./episodes/routes.ts";
import { createReleaseMaterials } from "./releases/materials/service.ts";
import { createReleases } from "./releases/service.ts";
import { createArtistReleaseRoutes } from "./releases/routes.ts";

export function buildContext(deps: AppDeps): AppContext {
  const tokens = createTokenService({
    db: deps.db,
    secret: deps.config.jwtSecret,
    accessTtlS: deps.config.accessTokenTtlS,
    refreshTtlS: deps.config.refreshTokenTtlS,
    now: () => deps.clock.now(),
  });
  const users = createUsersService({ db: deps.db, clock: deps.clock, sessions: tokens });
  // Built before the services, so a decision write can enqueue its message in the same batch.
  const notifications = createNotifications(deps);
  // Notifications subscribe to review's changes: a decision's batch carries the artist's message and
  // the staff cards' edits (decision 0327).
  // The release desk joins each decision's batch too: an accepted label pair becomes a release (issue
  // 34); the episode desk takes a show pair that stops being accepted out of unaired episodes (35).
  const releases = createReleases({ ...deps, notifications });
  const reviewEvents = withEpisodeEffects(deps.db, releases.reviewEvents(reviewEffects(deps.db, notifications)));
  const rooms = createTrackServices({ ...deps, users, reviewEvents });
  const { tracks, review } = rooms;
  // The staff cards read their tracks through the tracks service (issue 27).
  notifications.desk.connect(tracks);
  const declineTemplates = createDeclineTemplatesService(deps);
  return {
    ...deps,
    tokens,
    guards: createGuards(tokens, users),
    users,
    ...rooms,
    processor: createProcessor({
      ...deps,
      processing: rooms.processing,
      desk: notifications.desk,
      sender: notifications.sender,
    }),
    reanalysis: createReanalysis({ ...deps, processing: rooms.processing, tracks }),
    promiseSweep: createPromiseSweep({ ...deps, review }),
    releases,
    notifications,
    // One instance each per app, used by every route that needs it (docs/decisions/0210).
    declineTemplates,
    // The staff cards' presses arrive here and go through `tracks` like the web's (issue 27).
    telegramUpdates: createTelegramUpdates({
      ...deps,
      users,
      tracks,
      review,
      declineTemplates,
      desk: notifications.desk,
    }),
    faq: createFaqService(deps),
    slider: createSliderService(deps),
    episodes: createEpisodes({
      ...deps,
      outbox: notifications.outbox,
      kick: () => notifications.sender.kick(),
    }),
    // Every upload and verdict of a release file moves the release desk on (issue 34).
    releaseMaterials: createReleaseMaterials({
      ...deps,
      afterMaterialsChanged: (releaseId) => releases.afterMaterialsChanged(releaseId).then(() => {}),
    }),
  };
}

/** Turns route patterns into matchers so an unknown method on a known path answers 405. */
function methodMatcher(app: Hono<AppEnv>) {
  const routes = app.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      re: new RegExp(
        "^" +
          r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "[^/]+").replace(
            /\*/g,
            ".*",
          ) +
          "/?$",
      ),
    }));
  return (path: string) => [...new Set(routes.filter((r) => r.re.test(path)).map((r) => r.method))];
}

/**
 * Everything under /api, one chained app so its type carries every route's input and JSON output:
 * the client's `hc<ApiRoutes>` reads it (docs/decisions/0135-typed-api-client.md).
 */
export function createApiRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route("/", createHealthRoutes(ctx))
    .route("/auth", createAuthRoutes(ctx))
    .route("/profile", createProfileRoutes(ctx))
    .route("/profile", createVkProfileRoutes(ctx))
    .route("/vk", createVkCallbackRoutes(ctx))
    .route("/", createUploadRoutes(ctx))
    .route("/", createResumableRoutes(ctx))
    .route("/", createTrackRoutes(ctx))
    // Issue 37: the artist rates a decision's feedback.
    .route("/", createFeedbackRoutes(ctx))
    .route("/faq", createFaqRoutes(ctx))
    .route("/slider", createSliderRoutes(ctx))
    .route("/admin", createAdminRoutes(ctx))
    .route("/moderator", createModeratorRoutes(ctx))
    .route("/downloads", createDownloadRoutes(ctx))
    .route("/listen", createListenRoutes(ctx))
    .route("/shows", createShowRoutes(ctx))
    .route("/releases", createArtistReleaseRoutes(ctx))
    .route("/", createTelegramWebhookRoutes(ctx));
}

/** The /api routes as the client sees them (import with `import type` only). */
export type ApiRoutes = ReturnType<typeof createApiRoutes>;

export function createApp(deps: AppDeps | AppContext) {
  const ctx = "tokens" in deps ? deps : buildContext(deps);
  const { logger } = ctx;

  const api = createApiRoutes(ctx);

  const allowed = methodMatcher(api);

  const app = new Hono<AppEnv>();
  const shell = fileAnswer(ctx.clientDistDir, "index.html", "no-cache");
  // Images may also come from the bucket's public address (S3_PUBLIC_URL, decision 0113).
  // The upload page sends resumable parts straight to the bucket (issue 26).
  const security = securityHeaderSet(publicUploadOrigins(ctx.config), bucketOrigins(ctx.config));
  // Request id, security headers, no-store for credentials, gzip of long JSON: one middleware, its
  // headers computed once (issue 15, docs/decisions/0180-hot-paths.md).
  const edge = edgeHeaders(security);
  app.use(edge);

  app.onError((err, c) => {
    const rid = c.get("requestId");
    if (err instanceof ApiError) {
      return c.json({ success: false, error: err.message, ...err.extra }, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      // Hono's own messages are English ("Malformed JSON in request body"); ours are Russian.
      const message = status === 413
        ? "Слишком большой запрос"
        : status >= 500
        ? "Внутренняя ошибка сервера"
        : /malformed json/i.test(err.message)
        ? "Некорректный JSON в теле запроса"
        : /malformed|invalid/i.test(err.message) || !err.message
        ? "Некорректный запрос"
        : err.message;
      if (status >= 500) logger.error("request failed", { rid, path: c.req.path, err });
      return c.json({ success: false, error: message }, status);
    }
    logger.error("unhandled error", { rid, method: c.req.method, path: c.req.path, err });
    return c.json({ success: false, error: "Внутренняя ошибка сервера", request_id: rid }, 500);
  });

  // JSON and form bodies are small; multipart routes (uploads, images) enforce their own limits while streaming.
  const jsonLimit = bodyLimit({
    maxSize: 1024 * 1024,
    onError: (c) => c.json({ success: false, error: "Слишком большой запрос" }, 413),
  });
  // Before the body limits: an upload refused for maintenance is not read at all.
  const gate = maintenanceGate(ctx);
  app.use("/api/*", gate);
  const limit: MiddlewareHandler<AppEnv> = (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if ((c.req.header("content-type") ?? "").startsWith("multipart/form-data")) return next();
    // A resumable upload's part: its route caps the body at the part's size (issue 26).
    if (c.req.method === "PUT" && isResumablePartPath(c.req.path)) return next();
    return jsonLimit(c, next);
  };
  app.use("/api/*", limit);
  app.route("/api", api);
  app.all("/api/*", (c) => {
    const methods = allowed(c.req.path.slice("/api".length));
    if (methods.length > 0 && !methods.includes(c.req.method)) {
      c.header("Allow", methods.join(", "));
      return c.json({ success: false, error: "Метод не поддерживается" }, 405);
    }
    return c.json({ success: false, error: "Не найдено" }, 404);
  });

  // Public files: committed assets and public uploads (avatars, slider images).
  app.on(["GET", "HEAD"], "/static/*", async (c) => {
    return (await servePublicFile(c, ctx, c.req.path.slice("/static/".length))) ?? c.text("Not found", 404);
  });

  // The built client: hashed assets cached for ever, everything else answers index.html. Text files
  // go out as the build's brotli or gzip copies; the shell is kept in memory (decision 0180).
  app.on(["GET", "HEAD"], "/assets/*", async (c) => {
    return (await serveFile(c, ctx.clientDistDir, c.req.path.slice(1), "public, max-age=31536000, immutable", {
      precompressed: true,
    })) ??
      c.text("Not found", 404);
  });
  // The page shell's lane (server/http/lanes.ts): `/` alone, from the kept shell, for a request
  // without an `Authorization` header; while the client is not built, the route answers.
  const shellLane: Lane<"*", MiddlewareHandler<AppEnv>> = {
    name: "page shell",
    path: "*",
    only: "/",
    head: true,
    checks: [],
    route: async (c) => {
      const path = c.req.path;
      const slash = path.lastIndexOf("/");
      // Root-level files of the build (favicon, robots.txt) are served as they are.
      if (slash === 0 && path.includes(".")) {
        const file = await serveFile(c, ctx.clientDistDir, path.slice(1), "public, max-age=3600", {
          precompressed: true,
        });
        if (file) return file;
      }
      const index = await shell(c);
      if (index) return index;
      return c.html(
        "<!doctype html><meta charset=utf-8><title>Сборка не найдена</title><p>Клиент не собран: выполните <code>deno task build</code>.</p>",
        503,
      );
    },
    answer: (req) => readyAnswer(req, shell.get(), shell.cacheControl),
  };
  app.on(["GET", "HEAD"], shellLane.path, shellLane.route);

  return withLanes(app, {
    // Each declared beside its route (decisions 0180, 0186, 0188, 0208).
    lanes: [configLane(ctx), faqLane(ctx), sliderLane(ctx), shellLane, statusLane(ctx), meLane(ctx), tracksLane(ctx)],
    // Everything in front of the routes: the start-up check refuses any other in front of a lane.
    middlewares: new Map<unknown, FrontMiddleware>([[edge, "edge"], [gate, "maintenance"], [limit, "bodyLimit"], [
      ctx.guards.user,
      "signedIn",
    ]]),
    config: ctx.config,
    security,
  });
}

export type App = ReturnType<typeof createApp>;

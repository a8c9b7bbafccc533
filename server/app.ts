import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { createAdminRoutes } from "./admin/routes.ts";
import { acceptedSession, bearerToken, createGuards } from "./auth/guards.ts";
import { createAuthRoutes } from "./auth/routes.ts";
import { createTokenService } from "./auth/tokens.ts";
import type { AppContext, AppDeps, AppEnv } from "./deps.ts";
import { createDownloadRoutes } from "./tracks/downloads/routes.ts";
import { createListenRoutes } from "./tracks/downloads/listen-routes.ts";
import { createFaqRoutes } from "./faq/public-routes.ts";
import { createHealthRoutes } from "./health/routes.ts";
import { ApiError } from "./lib/http-error.ts";
import { COMPRESS_JSON_MIN, edgeHeaders, requestIdOf, setAll } from "./http/edge-middleware.ts";
import { type HeaderList, responseWith, validPairs } from "./http/deno-header-list.ts";
import { type SecurityHeaderSet, securityHeaderSet } from "./http/security-headers.ts";
import { type Answer, answerFor } from "./http/public-answer.ts";
import { publicConfigAnswer } from "./health/routes.ts";
import { publicFaqAnswer } from "./faq/service.ts";
import { publicSliderAnswer } from "./slider/service.ts";
import { publicAddresses, publicUploadOrigins, servePublicFile } from "./http/public-static.ts";
import { meAnswer } from "./auth/user-view.ts";
import type { User } from "../db/schema.ts";
import { statusAnswer, type TrackStatusValue } from "./tracks/processing/status-keys.ts";
import { fileAnswer } from "./http/client-build.ts";
import { serveFile } from "./http/serve-file.ts";
import { maintenanceGate, openToAll } from "./maintenance/gate.ts";
import { createNotifications } from "./notifications/notifications.ts";
import { createDeclineTemplatesService } from "./decline-templates/service.ts";
import { createFaqService } from "./faq/service.ts";
import { createSliderService } from "./slider/service.ts";
import { createModeratorRoutes } from "./moderator/routes.ts";
import { createProcessor } from "./tracks/processing/processor.ts";
import { createTracksService } from "./tracks/service.ts";
import { createUsersService } from "./users/service.ts";
import { createProfileRoutes } from "./users/profile-routes.ts";
import { createSliderRoutes } from "./slider/public-routes.ts";
import { createTrackRoutes } from "./tracks/artist-routes.ts";
import { createUploadRoutes } from "./tracks/upload-routes.ts";

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
  const tracks = createTracksService({ ...deps, users, notifications });
  return {
    ...deps,
    tokens,
    guards: createGuards(tokens, users),
    users,
    tracks,
    processor: createProcessor({ ...deps, tracks }),
    notifications,
    // One instance each per app, used by every route that needs it (docs/decisions/0210).
    declineTemplates: createDeclineTemplatesService(deps),
    faq: createFaqService(deps),
    slider: createSliderService(deps),
  };
}

/** Turns route patterns into matchers so an unknown method on a known path answers 405. */
function methodMatcher(app: Hono<AppEnv>) {
  const routes = app.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      re: new RegExp(
        "^" + r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "[^/]+").replace(/\*/g, ".*") +
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
    .route("/", createUploadRoutes(ctx))
    .route("/", createTrackRoutes(ctx))
    .route("/faq", createFaqRoutes(ctx))
    .route("/slider", createSliderRoutes(ctx))
    .route("/admin", createAdminRoutes(ctx))
    .route("/moderator", createModeratorRoutes(ctx))
    .route("/downloads", createDownloadRoutes(ctx))
    .route("/listen", createListenRoutes(ctx));
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
  const security = securityHeaderSet(publicUploadOrigins(ctx.config));
  // Request id, security headers, no-store for credentials, gzip of long JSON: one middleware, its
  // headers computed once (issue 15, docs/decisions/0180-hot-paths.md).
  app.use(edgeHeaders(security));

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
  app.use("/api/*", maintenanceGate(ctx));
  app.use("/api/*", (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if ((c.req.header("content-type") ?? "").startsWith("multipart/form-data")) return next();
    return jsonLimit(c, next);
  });
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
    return (await serveFile(c, ctx.clientDistDir, c.req.path.slice(1), "public, max-age=31536000, immutable", { precompressed: true })) ??
      c.text("Not found", 404);
  });
  app.on(["GET", "HEAD"], "*", async (c) => {
    const path = c.req.path;
    const slash = path.lastIndexOf("/");
    // Root-level files of the build (favicon, robots.txt) are served as they are.
    if (slash === 0 && path.includes(".")) {
      const file = await serveFile(c, ctx.clientDistDir, path.slice(1), "public, max-age=3600", { precompressed: true });
      if (file) return file;
    }
    const index = await shell(c);
    if (index) return index;
    return c.html(
      "<!doctype html><meta charset=utf-8><title>Сборка не найдена</title><p>Клиент не собран: выполните <code>deno task build</code>.</p>",
      503,
    );
  });

  return withReadyAnswers(app, ctx, shell, security);
}

/**
 * The ready-answer lane (decision 0180): the public answers kept in memory (`/api/config`,
 * `/api/faq`, `/api/slider` and the page shell at `/`) are sent before the router runs, for the
 * requests whose answer is the same for everyone: GET or HEAD, that exact path with no query, no
 * `Authorization` header, and the API path open (maintenance off, or `/api/config`, which stays open).
 * They get exactly what the routes would give them (the same answer, ETag and 304, the headers
 * every answer gets); anything else goes through the app as before. Matching 125 routes and the
 * middleware chain cost more than the answer itself.
 */
function withReadyAnswers(
  app: Hono<AppEnv>,
  ctx: AppContext,
  shell: ReturnType<typeof fileAnswer>,
  security: SecurityHeaderSet,
) {
  // Made once; after it lands the lane answers it without a promise.
  let config: Answer | Promise<Answer> = publicConfigAnswer(ctx).answer;
  void config.then((made) => (config = made), () => {});
  const faq = publicFaqAnswer(ctx);
  const slider = publicSliderAnswer(ctx);
  type Lane = { get: () => Answer | null | Promise<Answer | null>; cacheControl: string; headers: HeaderList };
  const ready = new Map<string, Lane>([
    ["/api/config", { get: () => config, cacheControl: "no-cache", headers: security.api }],
    ["/api/faq", { get: () => faq.get(), cacheControl: "no-cache", headers: security.api }],
    ["/api/slider", { get: () => slider.get(), cacheControl: "no-cache", headers: security.api }],
    ["/", { get: () => shell.get(), cacheControl: shell.cacheControl, headers: security.document }],
  ]);
  const routed = app.fetch;
  const send = (req: Request, answer: Answer | null, lane: Lane, fallback: () => Response | Promise<Response>) => {
    // No build yet: the routes answer (the "client not built" page).
    if (!answer) return fallback();
    const res = answerFor(req, answer, lane.cacheControl);
    setAll(res.headers, requestIdOf(req.headers.get("x-request-id")), false, lane.headers);
    return res;
  };
  const statusPoll = statusPollLane(ctx, security);
  const signedIn = signedInLane(ctx, security);
  app.fetch = (req, env, executionCtx) => {
    if (req.method === "GET" || req.method === "HEAD") {
      const url = req.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const path = start < 0 ? "/" : url.slice(start);
      const fallback = () => routed(req, env, executionCtx);
      const lane = ready.get(path);
      // The page shell is not under /api: the maintenance gate never closes it.
      if (lane && (path === "/" || openToAll(ctx.config, path)) && !req.headers.has("authorization")) {
        const answer = lane.get();
        return answer instanceof Promise
          ? answer.then((a) => send(req, a, lane, fallback), fallback)
          : send(req, answer, lane, fallback);
      }
      if (req.method === "GET" && path.startsWith(STATUS_PREFIX) && openToAll(ctx.config, path)) {
        // Without a promise when the token and the key are answered from memory (decision 0188).
        let res: Response | null | Promise<Response | null>;
        try {
          res = statusPoll(req, path);
        } catch {
          return fallback();
        }
        return res instanceof Promise ? res.then((r) => r ?? fallback(), fallback) : res ?? fallback();
      }
      // `/api/auth/me` stays open in maintenance (the gate lets it through to the guard alone).
      if (req.method === "GET" && (path === ME_PATH || path === TRACKS_PATH) && openToAll(ctx.config, path)) {
        return signedIn(req, path).then((res) => res ?? fallback(), fallback);
      }
    }
    return routed(req, env, executionCtx);
  };
  return app;
}

const STATUS_PREFIX = "/api/status/";
const JSON_TYPE = validPairs([["Content-Type", "application/json"]]);
const utf8 = new TextEncoder();

/** The most status answers the lane keeps (one per track id; a few hundred bytes each). */
const STATUS_BODIES_MAX = 5_000;

/** The status route's JSON for a key's value, as bytes; null when long enough to go compressed (the routes send it). */
function statusBody(value: TrackStatusValue): Uint8Array | null {
  const body = JSON.stringify(statusAnswer(value));
  return body.length >= COMPRESS_JSON_MIN ? null : utf8.encode(body);
}

/**
 * The processing page's poll, `GET /api/status/{id}` (every open page, every 3 s), in the lane when
 * it is the everyday case: a live token of a user who is not banned, asking for a track whose status
 * key names them as the owner. That is exactly the guard's and `statusFor`'s own first path (the
 * same token and session caches, the same status key), answered with the route's JSON, `no-store`
 * and the headers every answer gets. Anything else (no or a bad token, a ban, someone else's or a
 * missing key, an id that is not a plain number, a long answer) is answered by the routes, which
 * then decide it in full. Null means "not here". A new refusal in the guard, the maintenance gate or
 * `statusFor` must be added here too (decision 0180).
 *
 * Where the store hands out the key's stored text (the embedded store), the answer's bytes and the
 * owner are kept per track id with the text they were made from, and reused while the key still
 * holds that very text: the text is read on every poll, so a change or a removal is seen on the next
 * one (decision 0188). The owner check runs on every poll.
 */
function statusPollLane(ctx: AppContext, security: SecurityHeaderSet) {
  const keys = ctx.tracks.status;
  const kept = new Map<number, { raw: string; owner: number | null; body: Uint8Array | null }>();
  /** The answer for a poll whose token is accepted; a promise only where the store has no text to peek. */
  const answer = (req: Request, id: number, user: User): Response | null | Promise<Response | null> => {
    const raw = keys.rawStatus(id);
    if (raw === undefined) {
      return keys.readStatus(id).then((value) => {
        if (!value || value.user_id !== user.id) return null;
        return send(req, statusBody(value));
      });
    }
    if (raw === null) {
      kept.delete(id);
      return null;
    }
    let entry = kept.get(id);
    if (!entry || entry.raw !== raw) {
      const value = keys.parseStatus(raw);
      if (!value) return null;
      entry = { raw, owner: value.user_id, body: statusBody(value) };
      if (kept.size >= STATUS_BODIES_MAX && !kept.has(id)) kept.delete(kept.keys().next().value as number);
      kept.set(id, entry);
    }
    if (entry.owner !== user.id) return null;
    return send(req, entry.body);
  };
  const send = (req: Request, body: Uint8Array | null): Response | null => {
    if (!body) return null;
    const res = responseWith(body as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    setAll(res.headers, requestIdOf(req.headers.get("x-request-id")), true, security.api);
    return res;
  };
  return (req: Request, path: string): Response | null | Promise<Response | null> => {
    // A plain number without a leading zero, at most 15 digits (always a safe integer). Narrower
    // than the route's parseId, which also takes leading zeros: /api/status/007 falls through here
    // and the route answers track 7 (decision 0188).
    const from = STATUS_PREFIX.length;
    if (path.length <= from || path.length > from + 15 || path.charCodeAt(from) === 48) return null;
    let id = 0;
    for (let i = from; i < path.length; i++) {
      const d = path.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return null;
      id = id * 10 + d;
    }
    const token = bearerToken(req.headers.get("authorization"));
    if (!token) return null;
    const found = acceptedSession(ctx.tokens, token);
    if (!(found instanceof Promise)) return found && answer(req, id, found.user);
    return found.then((f) => f && answer(req, id, f.user));
  };
}

const ME_PATH = "/api/auth/me";
const TRACKS_PATH = "/api/tracks";

/**
 * `GET /api/auth/me` (every page load of a signed-in user) and `GET /api/tracks` (the artist's pages)
 * in the lane when it is the everyday case: a bearer token that `tokens.authenticate` accepts for a
 * user who is not banned; for `/api/tracks` also maintenance off (checked by the caller), since only
 * `/api/auth/me` stays open in it. That is the guard's own first path; the answer is the route's
 * (`meAnswer`; the artist's kept list, `ctx.tracks.ownedAnswer`, with its ETag and 304), `no-store`,
 * with the headers every answer gets. Anything else (no or a bad token, a ban, a long answer) goes to
 * the routes, which decide it in full. Null means "not here". A new refusal in the guard or the
 * maintenance gate must be added here too (decisions 0180, 0186).
 */
function signedInLane(ctx: AppContext, security: SecurityHeaderSet) {
  const address = publicAddresses(ctx.publicStorage);
  // The session cache hands out one user object until that user or session changes (tokens.ts):
  // its answer is serialised once per object.
  const meBodies = new WeakMap<User, Uint8Array>();
  return async (req: Request, path: string): Promise<Response | null> => {
    const token = bearerToken(req.headers.get("authorization"));
    if (!token) return null;
    const found = await acceptedSession(ctx.tokens, token);
    if (!found) return null;
    let res: Response;
    if (path === ME_PATH) {
      let body = meBodies.get(found.user);
      if (!body) {
        body = utf8.encode(JSON.stringify(meAnswer(found.user, address)));
        if (body.byteLength >= COMPRESS_JSON_MIN) return null;
        meBodies.set(found.user, body);
      }
      res = responseWith(body as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    } else {
      res = answerFor(req, await ctx.tracks.ownedAnswer(found.user.id), "no-store");
    }
    // The artist's list carries its no-store already (answerFor).
    setAll(res.headers, requestIdOf(req.headers.get("x-request-id")), path === ME_PATH, security.api);
    return res;
  };
}

export type App = ReturnType<typeof createApp>;

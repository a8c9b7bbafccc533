import type { Hono } from "hono";
import type { User } from "../../db/schema.ts";
import { acceptedSession, bearerToken } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { openToAll } from "../maintenance/gate.ts";
import { type Answer, answerFor } from "./public-answer.ts";
import { type HeaderList, responseWith, validPairs } from "./deno-header-list.ts";
import { requestIdOf, setAll } from "./edge-middleware.ts";
import type { SecurityHeaderSet } from "./security-headers.ts";
import { idOf } from "./validate.ts";

/**
 * The lanes in front of the router (decisions 0180, 0186, 0188, 0208): the busiest GET requests
 * (the status poll, `/api/auth/me`, `/api/tracks`, config, FAQ, slider and the page shell) are
 * answered from memory before Hono matches ~125 routes and runs the middleware chain, which cost
 * more than those answers. Each lane is declared beside its route, in its routes file, and the route
 * is mounted from that declaration (`.get(lane.path, …, lane.route)`): the router and the lane table
 * both take the path from there. At start-up `withLanes` finds each lane's route in the router by its
 * handler, takes the route's full path from the router, and walks every middleware the router would
 * run in front of it: each must be one whose condition the lanes reproduce (`FrontMiddleware`), or
 * the app does not start. A new `app.use` in front of a lane, a new guard on its route, a moved or
 * renamed route: each is a start-up error, not a lane that silently answers past it.
 *
 * A lane answers only the everyday case and returns null for anything else; the router then decides
 * in full (refusals, errors through `onError`, the database). Its answer must be the route's, byte
 * for byte: `server/http/lanes.test.ts` runs every lane against every refusal case through both.
 */

/** A lane's answer from memory, or null: "not here", the router answers. */
export type LaneResult = Response | null | Promise<Response | null>;

/**
 * The middlewares that may stand in front of a lane's route, each with who reproduces its condition:
 * - `edge` (`edgeHeaders`): the table adds the request id, the security headers (the API's under
 *   `/api/`, a page's elsewhere) and, under `/api/`, `no-store` for a request with a bearer token.
 *   Its gzip of long JSON never applies: the lanes return null for an answer that long.
 * - `maintenance` (`maintenanceGate`): the table asks `openToAll` first; closed, the router answers.
 * - `bodyLimit`: limits the bodies of methods other than GET and HEAD, the only ones lanes take.
 * - `signedIn` (`guards.user`): the lane's answer accepts the session itself (`signedInUser`), and
 *   says so in its `checks`.
 */
export type FrontMiddleware = "edge" | "maintenance" | "bodyLimit" | "signedIn";

/** One lane, declared beside its route. */
export interface Lane<P extends string = string, R = unknown> {
  /** For start-up errors and tests. */
  readonly name: string;
  /** The route's path in its routes file: the route is mounted at it (`.get(lane.path, …, lane.route)`). */
  readonly path: P;
  /** The one request path answered, where the route's pattern is wider (the page shell's `*`: `/`). */
  readonly only?: string;
  /** HEAD as well as GET (a routed HEAD runs the GET route and drops the body). */
  readonly head: boolean;
  /** Route-level middlewares whose conditions `answer` checks itself. */
  readonly checks: readonly "signedIn"[];
  /** The answer sets `Cache-Control: no-store` itself (the table adds none). */
  readonly ownNoStore?: boolean;
  /** The route's last handler: the router runs it, and the start-up check finds the route by it. */
  readonly route: R;
  /**
   * The answer from memory for the everyday case, or null. No security headers or request id: the
   * table adds them. `id` is the path's id for a route ending in `/:id` (the rule of `parseId`,
   * `idOf`), else 0.
   */
  answer(req: Request, id: number): LaneResult;
}

/**
 * A lane made once per app context: the routes file mounts its route and app.ts puts it in the table,
 * and both get the same object (the start-up check finds the route by `route`).
 */
export function laneOf<P extends string, R>(make: (ctx: AppContext) => Lane<P, R>): (ctx: AppContext) => Lane<P, R> {
  const made = new WeakMap<AppContext, Lane<P, R>>();
  return (ctx) => {
    let lane = made.get(ctx);
    if (!lane) made.set(ctx, lane = make(ctx));
    return lane;
  };
}

/** A kept answer (`answerFor`: ETag, 304, the copy `Accept-Encoding` takes) as a lane gives it; null while there is none. */
export function readyAnswer(
  req: Request,
  got: Answer | null | Promise<Answer | null>,
  cacheControl: string,
): LaneResult {
  if (got instanceof Promise) return got.then((answer) => answer && answerFor(req, answer, cacheControl));
  return got && answerFor(req, got, cacheControl);
}

/**
 * The guard's (`guards.user`) first path for a lane: a bearer token `acceptedSession` accepts, for a
 * user who is not banned; then `then(req, id, user)`. Null in every other case (no token, a bad or
 * expired one, a ban): the guard answers those. Without a promise when the token and its session are
 * answered from memory (decision 0188).
 */
export function signedInUser(
  ctx: Pick<AppContext, "tokens">,
  req: Request,
  id: number,
  then: (req: Request, id: number, user: User) => LaneResult,
): LaneResult {
  const token = bearerToken(req.headers.get("authorization"));
  if (!token) return null;
  const found = acceptedSession(ctx.tokens, token);
  if (!(found instanceof Promise)) return found && then(req, id, found.user);
  return found.then((f) => f && then(req, id, f.user));
}

const JSON_TYPE = validPairs([["Content-Type", "application/json"]]);

/** A 200 JSON answer of ready bytes, as `c.json` makes it for an answer under COMPRESS_JSON_MIN. */
export function jsonBytes(body: Uint8Array): Response {
  return responseWith(body as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
}

/** A lane as the table uses it, with what the start-up check learnt from the router. */
interface Planned {
  readonly lane: Lane;
  readonly name: string;
  /** The router's pattern of the lane's route. */
  readonly pattern: string;
  /** The exact path answered, or for an id route the path before the id. */
  readonly path: string;
  readonly byId: boolean;
  readonly head: boolean;
  /** The maintenance gate stands in front of the route. */
  readonly gated: boolean;
  readonly signedIn: boolean;
  readonly noStore: boolean;
  readonly headers: HeaderList;
  /** The middlewares found in front of the route, in order (for tests). */
  readonly front: readonly FrontMiddleware[];
}

type RouteEntry = { method: string; path: string; handler: unknown };

/** Whether a router pattern matches `path` (as `methodMatcher` in app.ts reads patterns). */
function patternMatches(pattern: string, path: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+(\\\{[^}]*\\\})?/g, "[^/]+").replace(
    /\*/g,
    ".*",
  );
  return new RegExp(`^${source}/?$`).test(path);
}

export class LaneError extends Error {}

/**
 * The start-up check: each lane's route found in the router by its handler, its pattern one the
 * table can answer (an exact path, or one ending in `/:id`), and every middleware that the router
 * would run in front of it for a GET of that path one the lanes reproduce. Throws `LaneError`.
 */
export function planLanes(
  routes: readonly RouteEntry[],
  lanes: readonly Lane[],
  middlewares: ReadonlyMap<unknown, FrontMiddleware>,
  security: SecurityHeaderSet,
): Planned[] {
  return lanes.map((lane) => {
    const at = routes.findIndex((r) => r.method === "GET" && r.handler === lane.route);
    const where = `lane "${lane.name}"`;
    if (at < 0) {
      throw new LaneError(
        `${where}: no GET route in the router has its handler (mount it with .get(lane.path, …, lane.route))`,
      );
    }
    const pattern = routes[at].path;
    let path: string;
    let byId = false;
    let sample: string;
    if (lane.only !== undefined) {
      if (/[:*?]/.test(lane.only) || !patternMatches(pattern, lane.only)) {
        throw new LaneError(`${where}: its route ${pattern} does not answer ${lane.only}`);
      }
      path = sample = lane.only;
    } else if (!/[:*]/.test(pattern)) {
      path = sample = pattern;
    } else {
      const m = /^([^:*]*\/):[A-Za-z_]\w*$/.exec(pattern);
      if (!m) throw new LaneError(`${where}: route ${pattern} is neither an exact path nor one ending in /:id`);
      path = m[1];
      sample = `${path}1`;
      byId = true;
    }
    const front: FrontMiddleware[] = [];
    for (let i = 0; i < at; i++) {
      const r = routes[i];
      if ((r.method !== "ALL" && r.method !== "GET") || !patternMatches(r.path, sample)) continue;
      const kind = middlewares.get(r.handler);
      if (!kind) {
        throw new LaneError(
          `${where}: ${r.method} ${r.path} runs in front of GET ${pattern} and the lanes do not reproduce it: ` +
            "name it in app.ts's lane middlewares and reproduce its condition in server/http/lanes.ts, or drop the lane",
        );
      }
      front.push(kind);
    }
    if (!front.includes("edge")) throw new LaneError(`${where}: the edge headers do not run in front of ${pattern}`);
    const signedIn = front.includes("signedIn");
    if (signedIn !== lane.checks.includes("signedIn")) {
      throw new LaneError(
        signedIn
          ? `${where}: ${pattern} is behind the sign-in guard and the lane does not check the session`
          : `${where}: the lane checks a session its route ${pattern} does not ask for`,
      );
    }
    const api = sample.startsWith("/api/");
    return {
      lane,
      name: lane.name,
      pattern,
      path,
      byId,
      head: lane.head,
      gated: front.includes("maintenance"),
      signedIn,
      // The edge's rule for a request without a query: a bearer token under /api/. Anonymous lanes
      // take no request with an Authorization header, signed-in ones none without.
      noStore: api && signedIn && !lane.ownNoStore,
      // The lanes' answers under /api/ are JSON or a 304: data, the API's set (decision 0189).
      headers: api ? security.api : security.document,
      front,
    };
  });
}

export interface LaneOptions {
  lanes: readonly Lane[];
  /** Every middleware the app runs in front of its routes, by its handler, with what it is. */
  middlewares: ReadonlyMap<unknown, FrontMiddleware>;
  config: { maintenance: boolean };
  security: SecurityHeaderSet;
}

/**
 * Puts the lane table in front of `app`'s router (`app.fetch`), after the start-up check
 * (`planLanes`). A GET (or HEAD, for lanes that take it) of exactly a lane's path, or of its prefix and
 * an id, with the gate open where the gate stands in front, and no `Authorization` header for a lane
 * that is not signed in, is offered to the lane; null, a throw or a rejection sends it to the router.
 */
export function withLanes<A extends Hono<AppEnv>>(
  app: A,
  opts: LaneOptions,
): A & { lanes: readonly Planned[]; routed: A["fetch"] } {
  const planned = planLanes(app.routes, opts.lanes, opts.middlewares, opts.security);
  const exact = new Map<string, Planned>();
  const byId: Planned[] = [];
  for (const p of planned) {
    if (p.byId) byId.push(p);
    else exact.set(p.path, p);
  }
  const { config } = opts;
  const routed = app.fetch;
  const finish = (req: Request, res: Response, p: Planned): Response => {
    setAll(res.headers, requestIdOf(req.headers.get("x-request-id")), p.noStore, p.headers);
    return res;
  };
  app.fetch = (req, env, executionCtx) => {
    const method = req.method;
    if (method === "GET" || method === "HEAD") {
      const url = req.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const path = start < 0 ? "/" : url.slice(start);
      let p = exact.get(path);
      let id = 0;
      if (p === undefined) {
        for (const q of byId) {
          if (path.startsWith(q.path)) {
            id = idOf(path, q.path.length);
            if (id !== 0) p = q;
            break;
          }
        }
      }
      if (
        p !== undefined && (method === "GET" || p.head) && (!p.gated || openToAll(config, path)) &&
        (p.signedIn || !req.headers.has("authorization"))
      ) {
        let res: LaneResult;
        try {
          res = p.lane.answer(req, id);
        } catch {
          return routed(req, env, executionCtx);
        }
        if (res === null) return routed(req, env, executionCtx);
        if (!(res instanceof Promise)) return finish(req, res, p);
        const lane = p;
        return res.then(
          (r) => (r === null ? routed(req, env, executionCtx) : finish(req, r, lane)),
          () => routed(req, env, executionCtx),
        );
      }
    }
    return routed(req, env, executionCtx);
  };
  // `lanes` and `routed` (the router without the lanes) are for tests and the bench.
  return Object.assign(app, { lanes: planned, routed });
}

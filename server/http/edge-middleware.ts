import { gzipSync } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { type HeaderList, responseHeaderList } from "./deno-header-list.ts";
import { API_SECURITY_HEADERS, headerListFor, SECURITY_HEADERS, type SecurityHeaderSet } from "./security-headers.ts";

/** JSON answers at least this long (in UTF-16 units) are gzipped when the client takes gzip. */
export const COMPRESS_JSON_MIN = 4096;

/**
 * Whether an `Accept-Encoding` value accepts `coding` (given in lower case): named with a weight
 * above 0, or not named and `*` accepted. Names and `q` are case-insensitive (RFC 9110, 12.5.3).
 */
export function accepts(header: string | undefined | null, coding: string): boolean {
  if (!header) return false;
  // Browsers send lower case: the quick test, and the whole value lowered only when it fails.
  if (header.indexOf(coding) < 0 && header.indexOf("*") < 0) {
    const lower = header.toLowerCase();
    if (lower === header || lower.indexOf(coding) < 0) return false;
  }
  let star = false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.split(";");
    const n = name.trim().toLowerCase();
    if (n !== coding && n !== "*") continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const ok = !q || Number(q.slice(2)) > 0;
    if (n === coding) return ok;
    star = ok;
  }
  return star;
}

const REQUEST_ID = /^[\w\-=]{1,255}$/;

/** The caller's `X-Request-Id` when it is safe to repeat, else a new one. */
export function requestIdOf(given: string | null | undefined): string {
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/**
 * Everything every answer gets, in one middleware in front of the app: the request id
 * (`X-Request-Id`, the caller's when it is safe, else a new UUID; `c.get("requestId")`), the
 * security headers (the API's set on `/api` answers that are not HTML, else the page's: decision
 * 0189), and `Cache-Control: no-store` on `/api` answers to requests with credentials.
 * JSON answers of `/api` are gzipped (level 1) where they are made, and only from
 * COMPRESS_JSON_MIN up: a 60-byte poll answer is not worth compressing, and learning a streamed
 * body's length after the fact meant buffering every answer (issue 15,
 * docs/decisions/0180-hot-paths.md). Other compressible answers are the client's build, served from
 * precompressed copies (serve-file.ts).
 */
export function edgeHeaders(set: SecurityHeaderSet): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const rid = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", rid);
    const path = c.req.path;
    const api = path.startsWith("/api/");
    if (api) compressLargeJson(c);
    await next();
    let res = c.res;
    const noStore = api && carriesCredentials(c.req.raw, path);
    try {
      setAll(res.headers, rid, noStore, headerListFor(set, api, res.headers, path));
    } catch {
      // Some responses (a fetched one passed through) have immutable headers: copy it.
      const headers = new Headers(res.headers);
      setAll(headers, rid, noStore, headerListFor(set, api, headers, path));
      c.res = undefined;
      c.res = res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
  };
}

/** The names `setAll` sets: when a response already has one, it is set, not appended twice. */
const OWN_NAMES = new Set(
  [...SECURITY_HEADERS, ...API_SECURITY_HEADERS].map(([k]) => k.toLowerCase()).concat("x-request-id"),
);

/** Adds the headers every answer gets (its security headers, the request id, no-store if asked). */
export function setAll(headers: Headers, rid: string, noStore: boolean, set: HeaderList) {
  // Appended straight to the response's own list when the fast path is on (deno-header-list.ts).
  const list = responseHeaderList(headers);
  if (list) {
    let cacheControl = false;
    let own = false;
    for (const [name] of list) {
      const lower = name.toLowerCase();
      if (OWN_NAMES.has(lower)) own = true;
      else if (lower === "cache-control") cacheControl = true;
    }
    if (!own) {
      for (const [name, value] of set.lower) list.push([name, value]);
      list.push(["x-request-id", rid]);
      if (noStore) {
        if (cacheControl) headers.set("Cache-Control", "no-store");
        else list.push(["cache-control", "no-store"]);
      }
      return;
    }
  }
  for (const [name, value] of set.pairs) headers.set(name, value);
  headers.set("X-Request-Id", rid);
  if (noStore) headers.set("Cache-Control", "no-store");
}

/**
 * Makes this request's `c.json` gzip a long answer for a client that takes gzip. Otherwise it does
 * what Hono's does: the same headers (`Content-Type: application/json` unless the call gives one),
 * stringified once.
 */
function compressLargeJson(c: Context<AppEnv>) {
  // `newResponse` takes a status or a ResponseInit at run time, like `json`; its types name one overload.
  const respond = c.newResponse as (
    data: string | Uint8Array | undefined,
    arg: unknown,
    headers: Record<string, string | string[]>,
  ) => Response;
  c.json = ((object: unknown, arg?: unknown, headers?: Record<string, string | string[]>) => {
    const text = JSON.stringify(object);
    const h: Record<string, string | string[]> = { "Content-Type": "application/json", ...headers };
    if (text === undefined || text.length < COMPRESS_JSON_MIN) return respond(text, arg, h);
    h.Vary = "Accept-Encoding";
    if (!accepts(c.req.header("accept-encoding"), "gzip")) return respond(text, arg, h);
    h["Content-Encoding"] = "gzip";
    return respond(gzipSync(text, { level: 1 }), arg, h);
  }) as typeof c.json;
}

/**
 * Every `/api` answer to a request with credentials, errors included, is `no-store` (edgeHeaders): a
 * shared computer's browser cache or a proxy must not keep one person's data or a refused token's
 * answer.
 *
 * Whether a request carries a credential: a bearer token, tokens in the address (sign-in links, the
 * download link's `access_token`), or a download or listening link, whose path is itself the
 * credential. Cookies do not count: the site's one cookie, `oauth_browser` (decision 0016), only ties
 * a sign-in to the browser that started it and is sent only under `/api/auth/oauth`.
 */
function carriesCredentials(req: Request, path: string): boolean {
  if (req.headers.has("authorization")) return true;
  if (path.startsWith("/api/downloads/") || path.startsWith("/api/listen/")) return true;
  const url = req.url;
  const q = url.indexOf("?");
  if (q < 0) return false;
  // Parsing the query costs more than the rest of a small answer: only when a name may be there.
  if (!url.includes("_token", q) && !url.includes("%", q)) return false;
  const query = new URL(url).searchParams;
  return query.has("access_token") || query.has("refresh_token");
}

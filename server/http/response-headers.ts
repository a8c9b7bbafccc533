import { gzipSync } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import type { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../deps.ts";

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/** Content Security Policy the app works under: everything from this origin, plus the SoundCloud player. */
export const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:"],
  mediaSrc: ["'self'", "blob:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  frameSrc: ["https://w.soundcloud.com"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
} satisfies SecureHeadersOptions["contentSecurityPolicy"];

/**
 * Browser features the site never uses are switched off for it and for every frame it embeds, so an
 * injected script or a hijacked frame cannot ask for a camera or a location. Autoplay stays for this
 * origin and the SoundCloud player (its frames ask for it with `allow="autoplay"`); fullscreen and
 * the rest keep the browser's defaults (this origin only). Only names Chromium knows are listed: an
 * unknown one costs a console warning on every page.
 */
export const PERMISSIONS_POLICY: SecureHeadersOptions["permissionsPolicy"] = {
  accelerometer: false,
  autoplay: ["self", "https://w.soundcloud.com"],
  camera: false,
  displayCapture: false,
  geolocation: false,
  gyroscope: false,
  hid: false,
  idleDetection: false,
  magnetometer: false,
  microphone: false,
  midi: false,
  payment: false,
  publickeyCredentialsGet: false,
  screenWakeLock: false,
  serial: false,
  usb: false,
  xrSpatialTracking: false,
};

const kebab = (name: string) => name.replace(/([a-z\d])([A-Z])/g, "$1-$2").toLowerCase();

/**
 * The security headers of a page (and of every answer outside `/api`), as `secureHeaders({ contentSecurityPolicy: CSP,
 * crossOriginEmbedderPolicy: false, permissionsPolicy: PERMISSIONS_POLICY })` sets them (the test
 * compares the two), built once: the middleware spent a fifth of a small answer's time rebuilding
 * its per-request state (issue 15).
 */
function securityHeaders(extraImgSrc: readonly string[] = []): readonly (readonly [string, string])[] {
  const csp: Record<string, readonly string[]> = { ...CSP, imgSrc: [...CSP.imgSrc, ...extraImgSrc] };
  return [
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Origin-Agent-Cluster", "?1"],
    ["Referrer-Policy", "no-referrer"],
    ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
    ["X-Content-Type-Options", "nosniff"],
    ["X-DNS-Prefetch-Control", "off"],
    ["X-Download-Options", "noopen"],
    ["X-Frame-Options", "SAMEORIGIN"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
    ["X-XSS-Protection", "0"],
    ["Content-Security-Policy", Object.entries(csp).map(([k, v]) => `${kebab(k)} ${v.join(" ")}`).join("; ")],
    [
      "Permissions-Policy",
      Object.entries(PERMISSIONS_POLICY ?? {}).map(([k, v]) =>
        v === false
          ? `${kebab(k)}=()`
          : v === true
          ? `${kebab(k)}=*`
          : `${kebab(k)}=(${(v as string[]).map((o) => (o === "self" || o === "src" ? o : `"${o}"`)).join(" ")})`
      ).join(", "),
    ],
  ];
}

/** The headers with the CSP as it stands: images from this origin only. */
export const SECURITY_HEADERS = securityHeaders();

/**
 * The security headers of an `/api` answer that is not a page (JSON, an error, a download, the
 * listening stream): what protects an answer that is data, not a document (OWASP's REST Security
 * Cheat Sheet, decision 0189). It is never sniffed into something else (`nosniff`), never framed
 * (`frame-ancestors 'none'`, and `X-Frame-Options: DENY` for browsers without CSP), never read by
 * another site's `<script>`/`<img>` (`Cross-Origin-Resource-Policy`), sent over HTTPS only, with no
 * referrer. A page's policy (what scripts, styles, frames and browser features it may use; its
 * opener and agent cluster; old IE's switches) has nothing to govern in a JSON answer; sent with
 * every one it tripled the headers (1,120 bytes) and pushed the FAQ over the size where Deno writes
 * an answer in two system calls (issue 15). HTML answers always get the page's set.
 */
export const API_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["Content-Security-Policy", "frame-ancestors 'none'"],
];

/** One list of constant headers, validated once, in the two forms `setAll` uses. */
export interface HeaderList {
  readonly pairs: readonly (readonly [string, string])[];
  /** Lower-case names, as the fast path appends them. */
  readonly lower: readonly (readonly [string, string])[];
}

/**
 * One deployment's security headers: the page's set (`securityHeaders` with the extra image origins,
 * the bucket's public address, decision 0113), for pages, the client's files and public images, and
 * the API's set for `/api` answers that are not HTML (decision 0189).
 */
export interface SecurityHeaderSet {
  readonly document: HeaderList;
  readonly api: HeaderList;
}

function headerList(pairs: readonly (readonly [string, string])[]): HeaderList {
  // Throws if a value were not a valid header: checked once, here.
  validPairs(pairs as [string, string][]);
  return { pairs, lower: pairs.map(([k, v]) => [k.toLowerCase(), v] as const) };
}

export function securityHeaderSet(extraImgSrc: readonly string[]): SecurityHeaderSet {
  return { document: headerList(securityHeaders(extraImgSrc)), api: headerList(API_SECURITY_HEADERS) };
}

/**
 * Content types an `/api` answer may have and still get the API's set: data a browser never runs
 * (JSON, the tracks' audio, a ZIP), or none (204, 304, a redirect). Anything else, HTML, SVG, XML
 * or a type a future route sets, gets the page's set with its full policy.
 */
const DATA_TYPES = /^(?:application\/json|audio\/|application\/zip)/i;

/** The list an answer gets: the API's for an `/api` answer that is data (DATA_TYPES), else the page's. */
function headerListFor(set: SecurityHeaderSet, api: boolean, headers: Headers): HeaderList {
  if (!api) return set.document;
  const type = headers.get("content-type");
  return type === null || DATA_TYPES.test(type) ? set.api : set.document;
}

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
 * precompressed copies (static-files.ts).
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
      setAll(res.headers, rid, noStore, headerListFor(set, api, res.headers));
    } catch {
      // Some responses (a fetched one passed through) have immutable headers: copy it.
      const headers = new Headers(res.headers);
      setAll(headers, rid, noStore, headerListFor(set, api, headers));
      c.res = undefined;
      c.res = res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
  };
}

/**
 * Deno keeps a `Headers` object's entries as an array of `[name, value]` pairs under an
 * internal symbol; `set` validates both strings and searches the list on every call, and for the
 * headers every answer gets (13 constant security headers on a page, file or image, 7 on an `/api`
 * answer that is data, plus the request id and maybe `no-store`) that was a third of a small
 * answer's cost (issue 15). When the running Deno keeps its headers that way (checked once here,
 * with a probe), the constant pairs, validated once, are appended to a fresh response's list
 * directly; otherwise, or when the response already has one of them, `set` is used as before.
 */
const fastHeaders = (() => {
  try {
    const probe = new Response("x", { headers: { "content-type": "text/plain" } });
    const symbols = Object.getOwnPropertySymbols(probe.headers);
    const list = symbols.find((s) => s.description === "header list");
    const guard = symbols.find((s) => s.description === "guard");
    if (!list || !guard) return null;
    const raw = (probe.headers as unknown as Record<symbol, unknown>)[list];
    if ((probe.headers as unknown as Record<symbol, unknown>)[guard] !== "response") return null;
    if (!Array.isArray(raw) || raw.length !== 1 || raw[0]?.[0] !== "content-type") return null;
    raw.push(["x-probe", "1"]);
    if (probe.headers.get("X-Probe") !== "1" || [...probe.headers].length !== 2) return null;
    return { list, guard };
  } catch {
    return null;
  }
})();
const OWN_NAMES = new Set([...SECURITY_HEADERS, ...API_SECURITY_HEADERS].map(([k]) => k.toLowerCase()).concat("x-request-id"));

/** Whether `fastHeaders` is in use (reported by the hot-paths bench). */
export const FAST_HEADERS = fastHeaders !== null;

/**
 * A response with a ready-made header list: `pairs` (validated once by the caller: see
 * `validPairs`) are appended to its list directly when the fast path is on, else set one by one.
 */
export function responseWith(body: BodyInit | null, status: number, pairs: readonly (readonly [string, string])[]): Response {
  const res = new Response(body, { status });
  const list = fastHeaders ? (res.headers as unknown as Record<symbol, unknown>)[fastHeaders.list] : null;
  if (Array.isArray(list) && list.length === 0) {
    for (const [name, value] of pairs) list.push([name, value]);
  } else {
    for (const [name, value] of pairs) res.headers.set(name, value);
  }
  return res;
}

/** `pairs` checked as `Headers` would check them; throws on an invalid one. */
export function validPairs(pairs: [string, string][]): [string, string][] {
  new Headers(pairs);
  return pairs;
}

/** Adds the headers every answer gets (its security headers, the request id, no-store if asked). */
export function setAll(headers: Headers, rid: string, noStore: boolean, set: HeaderList) {
  if (fastHeaders) {
    const h = headers as unknown as Record<symbol, unknown>;
    const list = h[fastHeaders.list] as [string, string][];
    if (h[fastHeaders.guard] === "response" && Array.isArray(list)) {
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
  const respond = c.newResponse as (data: string | Uint8Array | undefined, arg: unknown, headers: Record<string, string | string[]>) => Response;
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

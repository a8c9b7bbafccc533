import type { secureHeaders } from "hono/secure-headers";
import { type HeaderList, headerList } from "./deno-header-list.ts";

/**
 * The security policy: which headers an answer gets. Pages, the client's files and public images get
 * the page's set; `/api` answers that are data get the API's set (decision 0189). The edge middleware
 * (`edge-middleware.ts`) puts them on every answer; the fast lanes put them on theirs.
 */

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
function securityHeaders(
  extraImgSrc: readonly string[] = [],
  extraConnectSrc: readonly string[] = [],
  frameAncestors: readonly string[] = CSP.frameAncestors,
): readonly (readonly [string, string])[] {
  const csp: Record<string, readonly string[]> = {
    ...CSP,
    imgSrc: [...CSP.imgSrc, ...extraImgSrc],
    connectSrc: [...CSP.connectSrc, ...extraConnectSrc],
    frameAncestors,
  };
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

/**
 * One deployment's security headers: the page's set (`securityHeaders` with the extra image origins,
 * the bucket's public address, decision 0113, and the bucket's own origin the upload page sends
 * resumable parts to, issue 26), for pages, the client's files and public images, and
 * the API's set for `/api` answers that are not HTML (decision 0189).
 */
export interface SecurityHeaderSet {
  readonly document: HeaderList;
  readonly api: HeaderList;
  /** The Mini App's page (`/tg`, issue 36): the page's set, framed by Telegram Web only. */
  readonly miniApp: HeaderList;
}

/**
 * Telegram Web (web.telegram.org, its /k and /a clients) shows a Mini App in an iframe; Telegram's
 * apps open it in a web view, which no frame rule touches. Only the Mini App's address may be framed,
 * and only there: `frame-ancestors` names them, and `X-Frame-Options` (which cannot name another
 * origin, and which CSP's `frame-ancestors` overrides where both are known) is left out for it.
 */
export const MINI_APP_FRAME_ANCESTORS = ["'self'", "https://web.telegram.org"] as const;

/** The Mini App's page: `/tg` and anything under it. */
export function isMiniAppPath(path: string): boolean {
  return path === "/tg" || path.startsWith("/tg/");
}

export function securityHeaderSet(
  extraImgSrc: readonly string[],
  extraConnectSrc: readonly string[] = [],
): SecurityHeaderSet {
  return {
    document: headerList(securityHeaders(extraImgSrc, extraConnectSrc)),
    api: headerList(API_SECURITY_HEADERS),
    miniApp: headerList(
      securityHeaders(extraImgSrc, extraConnectSrc, MINI_APP_FRAME_ANCESTORS).filter(([k]) => k !== "X-Frame-Options"),
    ),
  };
}

/**
 * Content types an `/api` answer may have and still get the API's set: data a browser never runs
 * (JSON, the tracks' audio, a ZIP), or none (204, 304, a redirect). Anything else, HTML, SVG, XML
 * or a type a future route sets, gets the page's set with its full policy.
 */
const DATA_TYPES = /^(?:application\/json|audio\/|application\/zip)/i;

/**
 * The list an answer gets: the API's for an `/api` answer that is data (DATA_TYPES), the Mini App's
 * for its page, else the page's.
 */
export function headerListFor(set: SecurityHeaderSet, api: boolean, headers: Headers, path = ""): HeaderList {
  if (!api) return isMiniAppPath(path) ? set.miniApp : set.document;
  const type = headers.get("content-type");
  return type === null || DATA_TYPES.test(type) ? set.api : set.document;
}

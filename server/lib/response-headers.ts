import type { MiddlewareHandler } from "hono";
import type { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../deps.ts";

/**
 * Browser features the site never uses are switched off for it and for every frame it embeds, so an
 * injected script or a hijacked frame cannot ask for a camera or a location. Autoplay stays for this
 * origin and the SoundCloud player (its frames ask for it with `allow="autoplay"`); fullscreen and
 * the rest keep the browser's defaults (this origin only). Only names Chromium knows are listed: an
 * unknown one costs a console warning on every page.
 */
export const PERMISSIONS_POLICY: NonNullable<Parameters<typeof secureHeaders>[0]>["permissionsPolicy"] = {
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

/**
 * Whether a request carries a credential: a bearer token, tokens in the address (sign-in links, the
 * download link's `access_token`), or a download or listening link, whose path is itself the
 * credential. The site uses no cookies.
 */
export function carriesCredentials(req: Request, path: string): boolean {
  if (req.headers.has("authorization")) return true;
  if (path.startsWith("/api/downloads/") || path.startsWith("/api/listen/")) return true;
  const query = new URL(req.url).searchParams;
  return query.has("access_token") || query.has("refresh_token");
}

/**
 * Every `/api` answer to a request with credentials, errors included, is `no-store`: a shared
 * computer's browser cache or a proxy must not keep one person's data or a refused token's answer.
 */
export function noStoreWithCredentials(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!carriesCredentials(c.req.raw, c.req.path)) return;
    try {
      c.res.headers.set("Cache-Control", "no-store");
    } catch {
      // Some responses (a fetched one passed through) have immutable headers: copy it.
      const res = c.res;
      const headers = new Headers(res.headers);
      headers.set("Cache-Control", "no-store");
      c.res = undefined;
      c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
  };
}

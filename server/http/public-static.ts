import type { Context } from "hono";
import { getMimeType } from "hono/utils/mime";
import { isS3Storage, type S3Storage } from "../storage/s3-file-storage.ts";
import { serveFile } from "./serve-file.ts";
import { notModified } from "./public-answer.ts";
import { type FileStorage, isSafeKey } from "../storage/file-storage.ts";

/**
 * Public files under /static/: the committed assets from STATIC_DIR, and the public uploads
 * (avatars, slider images) under /static/storage/, which come from public storage: files in
 * STATIC_DIR/storage by default, objects of the bucket (prefix `public/`) when S3_BUCKET is set
 * (decision 0113). Either way with Content-Length, ETag, Cache-Control and nosniff, 304 for a
 * matching If-None-Match, HEAD without a body, and null (the caller's 404) for anything missing.
 */

/** The address the database keeps for a public upload: this, then its storage key. */
export const PUBLIC_UPLOADS_PATH = "/static/storage/";

const UPLOADS_CACHE = "public, max-age=86400";
const ASSETS_CACHE = "public, max-age=3600";

/** `rel`: the request path after `/static/`, still URL-encoded. */
export async function servePublicFile(
  c: Context,
  place: { staticDir: string; publicStorage: FileStorage },
  rel: string,
): Promise<Response | null> {
  const upload = rel.startsWith("storage/");
  if (upload && isS3Storage(place.publicStorage)) {
    return await serveStoredObject(c, place.publicStorage, rel.slice("storage/".length), UPLOADS_CACHE);
  }
  return await serveFile(c, place.staticDir, rel, upload ? UPLOADS_CACHE : ASSETS_CACHE);
}

/** One object of an S3 store as a static file. */
async function serveStoredObject(
  c: Context,
  storage: S3Storage,
  relKey: string,
  cacheControl: string,
): Promise<Response | null> {
  let key: string;
  try {
    key = decodeURIComponent(relKey);
  } catch {
    return null;
  }
  // A key the stores refuse cannot be stored, so it is not there.
  if (!isSafeKey(key) || /(^|\/)\./.test(key)) return null;
  const headers: Record<string, string> = {
    // By the key's extension, as for files on disk; never the type stored with the object.
    "Content-Type": getMimeType(key) ?? "application/octet-stream",
    "Cache-Control": cacheControl,
    "X-Content-Type-Options": "nosniff",
  };
  const ifNoneMatch = c.req.header("if-none-match");
  if (c.req.method === "HEAD" || ifNoneMatch) {
    const info = await storage.stat(key);
    if (!info) return null;
    if (info.etag) headers.ETag = info.etag;
    if (info.etag && notModified(ifNoneMatch, info.etag)) return new Response(null, { status: 304, headers });
    if (c.req.method === "HEAD") {
      headers["Content-Length"] = String(info.size);
      return new Response(null, { status: 200, headers });
    }
  }
  let object;
  try {
    object = await storage.read(key);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  if (object.etag) headers.ETag = object.etag;
  headers["Content-Length"] = String(object.size);
  return new Response(object.body, { status: 200, headers });
}

/**
 * The address a client is given for a stored public upload (`/static/storage/<key>`): the bucket's
 * public address when S3_PUBLIC_URL is set, else the stored one (decision 0113). Anything else
 * (null, an outside address) is returned as it is.
 */
function publicAddress(storage: FileStorage, stored: string | null): string | null {
  if (stored === null || !stored.startsWith(PUBLIC_UPLOADS_PATH) || !isS3Storage(storage)) return stored;
  try {
    return storage.publicUrl(stored.slice(PUBLIC_UPLOADS_PATH.length)) ?? stored;
  } catch {
    // Not a key the store could hold (publicUrl checks it): leave the address alone.
    return stored;
  }
}

/** `publicAddress` bound to a store, for views. */
export type PublicAddress = (stored: string | null) => string | null;

export function publicAddresses(storage: FileStorage): PublicAddress {
  return (stored) => publicAddress(storage, stored);
}

/** Origins public uploads are served from besides this site: the bucket's public address, if any. */
export function publicUploadOrigins(config: { s3?: { publicUrl?: string } }): string[] {
  const url = config.s3?.publicUrl;
  return url ? [new URL(url).origin] : [];
}

/**
 * The origin the upload page sends resumable parts to (presigned addresses, issue 26): the
 * endpoint's (path-style) or AWS's virtual-hosted one, as `server/storage/s3-client.ts` builds them.
 * The page's `connect-src` must allow it.
 */
export function bucketOrigins(config: { s3?: { endpoint?: string; bucket: string; region: string } }): string[] {
  const s3 = config.s3;
  if (!s3) return [];
  return [
    s3.endpoint ? new URL(s3.endpoint).origin : `https://${s3.bucket}.s3.${s3.region || "us-east-1"}.amazonaws.com`,
  ];
}

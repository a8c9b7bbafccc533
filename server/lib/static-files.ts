import type { Context } from "hono";
import { getMimeType } from "hono/utils/mime";

/**
 * Serves one file from `root` for a request path, streaming it with length, ETag and cache headers.
 * Returns null when there is no such file, so the caller can fall through.
 * Path traversal, dot files and encoded separators are refused.
 */
export async function serveFile(
  c: Context,
  root: string,
  relPath: string,
  cacheControl: string,
): Promise<Response | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relPath);
  } catch {
    return null;
  }
  if (!decoded || decoded.includes("\0") || decoded.includes("\\") || /(^|\/)\./.test(decoded)) return null;
  const path = `${root}/${decoded.replace(/^\/+/, "")}`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return null;
  }
  const info = await file.stat();
  if (!info.isFile) {
    file.close();
    return null;
  }
  const etag = `W/"${info.size.toString(16)}-${(info.mtime?.getTime() ?? 0).toString(16)}"`;
  const headers: Record<string, string> = {
    "Content-Type": getMimeType(path) ?? "application/octet-stream",
    "Cache-Control": cacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (c.req.header("if-none-match") === etag) {
    file.close();
    return new Response(null, { status: 304, headers });
  }
  headers["Content-Length"] = String(info.size);
  if (c.req.method === "HEAD") {
    file.close();
    return new Response(null, { status: 200, headers });
  }
  return new Response(file.readable, { status: 200, headers });
}

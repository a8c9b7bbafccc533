import type { Context } from "hono";
import { getMimeType } from "hono/utils/mime";
import { notModified } from "./public-answer.ts";
import { accepts } from "./edge-middleware.ts";

/*
 * One file from a directory on disk, for the committed assets under /static/ (public-static.ts) and
 * the client's build (client-build.ts, app.ts).
 */

/** Types the build keeps brotli and gzip copies of (`scripts/vite.ts`); served by `Accept-Encoding`. */
export const PRECOMPRESSED = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;

async function openFile(path: string): Promise<{ file: Deno.FsFile; info: Deno.FileInfo } | null> {
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
  return { file, info };
}

/**
 * Serves one file from `root` for a request path, streaming it with length, ETag and cache headers.
 * Returns null when there is no such file, so the caller can fall through.
 * Path traversal, dot files and encoded separators are refused. With `precompressed`, a text file
 * is sent from its build-time `.br` or `.gz` copy when the client takes that coding and the copy
 * exists (issue 15): nothing is compressed per request.
 */
/**
 * Compressed copies (`….br`, `….gz`) found missing for immutable files (the build's hashed assets
 * under 1 KB, or where a copy was not smaller): every request for one of them would otherwise try
 * two opens that fail. Bounded; past that, misses are simply looked up again.
 */
const NO_COPY = new Set<string>();
const NO_COPY_MAX = 10_000;

export async function serveFile(
  c: Context,
  root: string,
  relPath: string,
  cacheControl: string,
  opts: { precompressed?: boolean } = {},
): Promise<Response | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relPath);
  } catch {
    return null;
  }
  if (!decoded || decoded.includes("\0") || decoded.includes("\\") || /(^|\/)\./.test(decoded)) return null;
  const path = `${root}/${decoded.replace(/^\/+/, "")}`;
  const variants = opts.precompressed && PRECOMPRESSED.test(path);
  let opened: Awaited<ReturnType<typeof openFile>> = null;
  let encoding: string | null = null;
  if (variants) {
    const ae = c.req.header("accept-encoding");
    // An immutable file's missing copy stays missing: it is not looked for again.
    const remember = cacheControl.includes("immutable");
    for (const [coding, ext] of [["br", ".br"], ["gzip", ".gz"]] as const) {
      if (!accepts(ae, coding) || NO_COPY.has(path + ext)) continue;
      opened = await openFile(path + ext);
      if (opened) {
        encoding = coding;
        break;
      }
      if (remember && NO_COPY.size < NO_COPY_MAX) NO_COPY.add(path + ext);
    }
  }
  opened ??= await openFile(path);
  if (!opened) return null;
  const { file, info } = opened;
  const etag = `W/"${info.size.toString(16)}-${(info.mtime?.getTime() ?? 0).toString(16)}"`;
  const headers: Record<string, string> = {
    "Content-Type": getMimeType(path) ?? "application/octet-stream",
    "Cache-Control": cacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (variants) headers.Vary = "Accept-Encoding";
  if (encoding) headers["Content-Encoding"] = encoding;
  if (notModified(c.req.header("if-none-match"), etag)) {
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

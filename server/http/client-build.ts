import type { Context } from "hono";
import { getMimeType } from "hono/utils/mime";
import { type Answer, makeAnswer, sendAnswer } from "./public-answer.ts";

/*
 * The built client (CLIENT_DIST_DIR): its page shell, kept in memory. The build's other files (the
 * hashed ones under /assets/, the rest at the root) are sent from disk by `serveFile` (serve-file.ts)
 * with their precompressed copies; the routes are in app.ts. Public files under /static/ are
 * public-static.ts.
 */

/**
 * One file answered from memory (the client's `index.html`, the shell of every page): read with its
 * build-time `.br`/`.gz` copies, sent with a content ETag and 304 by `sendAnswer`. Looked at again on
 * disk at most once a second, in the background, so a rebuild is picked up without a restart.
 * Returns null while the file does not exist.
 */
export function fileAnswer(root: string, name: string, cacheControl: string, checkEveryMs = 1000) {
  const path = `${root}/${name}`;
  let current: { answer: Answer; stamp: string; checked: number } | null = null;
  let checking: Promise<void> | null = null;
  const read = async (path: string) => {
    try {
      return await Deno.readFile(path);
    } catch {
      return null;
    }
  };
  const check = (): Promise<void> => {
    checking ??= (async () => {
      try {
        const info = await Deno.stat(path).catch(() => null);
        if (!info?.isFile) {
          current = null;
          return;
        }
        const stamp = `${info.size}-${info.mtime?.getTime() ?? 0}`;
        if (current?.stamp === stamp) {
          current.checked = Date.now();
          return;
        }
        const bytes = await read(path);
        if (!bytes) {
          current = null;
          return;
        }
        const [br, gzip] = await Promise.all([read(`${path}.br`), read(`${path}.gz`)]);
        const type = getMimeType(path) ?? "application/octet-stream";
        current = { answer: await makeAnswer(bytes, type, { br, gzip }), stamp, checked: Date.now() };
      } finally {
        checking = null;
      }
    })();
    return checking;
  };
  /** The answer, or null while the file does not exist. */
  const get = (): Answer | Promise<Answer | null> => {
    if (!current) return check().then(() => current?.answer ?? null);
    if (Date.now() - current.checked > checkEveryMs) void check();
    return current.answer;
  };
  const send = async (c: Context): Promise<Response | null> => {
    const answer = await get();
    return answer ? sendAnswer(c, answer, cacheControl) : null;
  };
  return Object.assign(send, { get, cacheControl });
}

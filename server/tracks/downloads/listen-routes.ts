import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import type { AppContext } from "../../wiring.ts";
import { forbidden, notFound, unauthorized } from "../../lib/http-error.ts";
import { TRACK_FILE_NOT_FOUND } from "../service.ts";
import { linkSigner, ownLinkSigner, verifyDownloadToken } from "./token.ts";

export const BAD_LISTEN_LINK = "Ссылка для прослушивания недействительна или устарела";
export const BAD_RANGE = "Запрошенный диапазон байтов вне файла";

export type RangeAnswer =
  | { kind: "whole" }
  | { kind: "part"; start: number; end: number }
  | { kind: "unsatisfiable" };

/**
 * The `Range` header of a request for `size` bytes (RFC 9110 §14.1.2, §14.2; docs/protocols.md).
 * One range is served as asked, clamped to the file; several, or another unit, are answered with the
 * whole file, which the RFC allows and `<audio>` never asks for. A `bytes=` range that is malformed
 * or starts past the end is unsatisfiable (416): the player asked for something that is not there.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: "whole" };
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m) return { kind: "whole" };
  const specs = m[1].split(",").map((s) => s.trim()).filter(Boolean);
  if (specs.length > 1) return { kind: "whole" };
  const spec = /^(\d*)-(\d*)$/.exec(specs[0] ?? "");
  if (!spec || (spec[1] === "" && spec[2] === "")) return { kind: "unsatisfiable" };
  if (spec[1] === "") {
    // A suffix: the last N bytes.
    const n = Number(spec[2]);
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "part", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === "" ? size - 1 : Math.min(Number(spec[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || Number(spec[2] || start) < start) {
    return { kind: "unsatisfiable" };
  }
  return { kind: "part", start, end };
}

/**
 * GET and HEAD /api/listen/:token — a track's MP3 for the staff player's `<audio>`: byte ranges
 * (206) for seeking, streamed from storage a chunk at a time. The signed link is the credential (an
 * `<audio src>` sends no Authorization header); like a download link, its signer is checked again on
 * every request, so a sign-out, a ban, a lost staff role or changed categories close it at once. Listening is not
 * downloading: the track's downloaded flag is left alone (docs/decisions/0102-listening-links.md).
 */
export function createListenRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get("/:token", async (c) => {
    const token = c.req.param("token");
    const staff = await verifyDownloadToken(ctx, token, "listen");
    // An artist's link to their own file (decision 0232): the same checks, the owner's tracks only.
    const own = staff ? null : await verifyDownloadToken(ctx, token, "own-listen");
    const claims = staff ?? own;
    if (!claims || claims.trackIds.length !== 1) throw unauthorized(BAD_LISTEN_LINK);
    const signer = staff ? await linkSigner(ctx, claims) : await ownLinkSigner(ctx, claims);
    if (!signer) throw forbidden(BAD_LISTEN_LINK);
    const track = staff
      ? await ctx.tracks.listenSource(signer, claims.trackIds[0])
      : await ctx.artist.ownListenSource(signer.id, claims.trackIds[0]);

    const missing = () => notFound(`${TRACK_FILE_NOT_FOUND}: ${track.filename}`);
    const headOnly = c.req.method === "HEAD";
    // The size recorded at upload (stored files are never rewritten under their key) spares every
    // seek a round trip to the bucket; a GET of a file gone from storage is still a 404, from the
    // read. HEAD, which reads nothing, and rows without a size ask the store.
    const size = track.size !== null && !headOnly ? track.size : (await ctx.storage.stat(track.storage_key))?.size;
    if (size === undefined) throw missing();
    const read = (range?: { start: number; end: number }) =>
      ctx.storage.read(track.storage_key, range && { range }).catch((err) => {
        throw err instanceof Deno.errors.NotFound ? missing() : err;
      });
    const headers: Record<string, string> = {
      "Content-Type": "audio/mpeg",
      "Accept-Ranges": "bytes",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    };
    const range = parseRange(c.req.header("range"), size);
    if (range.kind === "unsatisfiable") {
      c.header("Content-Range", `bytes */${size}`);
      c.header("Accept-Ranges", "bytes");
      return c.json({ success: false as const, error: BAD_RANGE }, 416);
    }
    if (range.kind === "whole") {
      headers["Content-Length"] = String(size);
      if (headOnly) return new Response(null, { headers });
      const { body } = await read();
      return new Response(body, { headers });
    }
    headers["Content-Length"] = String(range.end - range.start + 1);
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
    if (headOnly) return new Response(null, { status: 206, headers });
    const part = await read({ start: range.start, end: range.end });
    // A store that sent the whole object (S3 may) is cut to the range here.
    const body = part.range ? part.body : slice(part.body, range.start, range.end - range.start + 1);
    return new Response(body, { status: 206, headers });
  });
}

/** `length` bytes of `body` from `start`, cancelling the rest. */
function slice(body: ReadableStream<Uint8Array>, start: number, length: number): ReadableStream<Uint8Array> {
  let skip = start;
  let left = length;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        let chunk = value;
        if (skip > 0) {
          const drop = Math.min(skip, chunk.length);
          skip -= drop;
          chunk = chunk.subarray(drop);
        }
        if (chunk.length === 0) continue;
        const take = chunk.subarray(0, Math.min(left, chunk.length));
        left -= take.length;
        controller.enqueue(take);
        if (left === 0) {
          await reader.cancel();
          controller.close();
        }
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

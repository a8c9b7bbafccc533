import { downloadZip } from "client-zip";
import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import type { AppContext } from "../../wiring.ts";
import { forbidden, notFound, unauthorized } from "../../lib/http-error.ts";
import { NO_FILES_FOUND, TRACK_FILE_NOT_FOUND } from "../service.ts";
import { releaseBehind } from "./release-behind.ts";
import { linkSigner, verifyDownloadToken } from "./token.ts";

export const BAD_LINK = "Ссылка для скачивания недействительна или устарела";

/** Hono's Deno adapter passes `Deno.serve`'s handler info as the env; `app.request()` passes none. */
function isDenoServeInfo(env: unknown): boolean {
  return typeof env === "object" && env !== null && "remoteAddr" in env && "completed" in env;
}

/** A file name safe inside a ZIP and a header: no path separators or control characters. */
export function safeName(name: string): string {
  // deno-lint-ignore no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, "_").replace(/^\.+/, "_").trim();
  return cleaned.slice(0, 240) || "track.mp3";
}

/** Names inside one archive must differ; later duplicates get " (2)", " (3)", ... before the extension. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw) => {
    const name = safeName(raw);
    const dot = name.lastIndexOf(".");
    const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    let candidate = name;
    for (let i = 2; seen.has(candidate.toLowerCase()); i++) candidate = `${base} (${i})${ext}`;
    seen.add(candidate.toLowerCase());
    return candidate;
  });
}

export const MISSING_NOTE_NAME = "missing.txt";

/** The text of missing.txt: what was left out of the archive and why, one track name a line. */
export function missingNote(filenames: readonly string[]): Uint8Array {
  // deno-lint-ignore no-control-regex
  const lines = filenames.map((n) => n.replace(/[\u0000-\u001f\u007f]/g, "_"));
  return new TextEncoder().encode(
    `Эти треки не вошли в архив: их файлов нет в хранилище.\n\n${lines.join("\n")}\n`,
  );
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name for Cyrillic file names. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /api/downloads/:token — one MP3, or a stored (uncompressed) ZIP of several, streamed file by
 * file with a known length. The `access_token` query value the client appends is accepted and not
 * needed: the signed link is the credential. A served download marks the tracks downloaded.
 */
export function createDownloadRoutes(ctx: AppContext) {
  const service = ctx.tracks;

  return new Hono<AppEnv>().get("/:token", async (c) => {
    const claims = await verifyDownloadToken(ctx, c.req.param("token"));
    if (!claims) throw unauthorized(BAD_LINK);

    // The link is only as good as its signer and their session are now: signed out, banned, no
    // longer staff, or rights changed since it was made means no file (decision 0203).
    const signer = await linkSigner(ctx, claims);
    if (!signer) throw forbidden(BAD_LINK);
    // One track is its file, so it must have one. Several tracks are always a ZIP, even when only one
    // file is left: it leaves out the tracks without a file (none stored, or gone from storage since)
    // and names them in missing.txt (issue 12, decision 0103; issue 20).
    const single = claims.trackIds.length === 1;
    const selected = single
      ? { files: await service.forDownload(signer, claims.trackIds), missing: [] }
      : await service.forArchive(signer, claims.trackIds);
    const found = await Promise.all(selected.files.map((f) => ctx.storage.stat(f.storage_key)));
    if (single && !found[0]) throw notFound(`${TRACK_FILE_NOT_FOUND}: ${selected.files[0].filename}`);
    const files = selected.files.filter((_, i) => found[i]);
    const stats = found.filter((s) => s !== null);
    if (files.length === 0) throw notFound(NO_FILES_FOUND);
    const order = new Map(claims.trackIds.map((id, i) => [id, i]));
    const missing = [...selected.missing, ...selected.files.filter((_, i) => !found[i])]
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!);

    const headOnly = c.req.method === "HEAD";
    if (!headOnly) await service.markDownloaded(files.map((f) => f.id));
    const common = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

    if (single) {
      const name = safeName(files[0].filename);
      const { body, size } = await ctx.storage.read(files[0].storage_key);
      if (headOnly) await body.cancel();
      return new Response(headOnly ? null : body, {
        headers: {
          ...common,
          "Content-Type": "audio/mpeg",
          "Content-Length": String(size),
          "Content-Disposition": contentDisposition(name),
        },
      });
    }

    const note = missing.length ? missingNote(missing.map((m) => m.filename)) : null;
    const names = uniqueNames([...files.map((f) => f.filename), ...(note ? [MISSING_NOTE_NAME] : [])]);
    const lastModified = ctx.clock.now();
    const entries = files.map((f, i) => ({ name: names[i], size: stats[i].size, key: f.storage_key }));
    const noteEntry = note ? { name: names[files.length], size: note.byteLength } : null;
    // Chunks may only be released early when Deno's HTTP server itself consumes the body (it keeps
    // its own reference to the bytes); a consumer inside JavaScript (tests calling app.request, a
    // body-reading middleware) would still hold the chunks it has read.
    const servedByDeno = isDenoServeInfo(c.env);
    // Files are opened one at a time as the archive reaches them, so memory does not grow with the count.
    async function* inputs() {
      for (const e of entries) {
        const { body } = await ctx.storage.read(e.key);
        yield { name: e.name, input: servedByDeno ? releaseBehind(body) : body, size: e.size, lastModified };
      }
      if (note && noteEntry) yield { ...noteEntry, input: note, lastModified };
    }
    const zip = downloadZip(inputs(), {
      metadata: [...entries, ...(noteEntry ? [noteEntry] : [])].map((e) => ({ name: e.name, size: e.size })),
      buffersAreUTF8: true,
    });
    const stamp = lastModified.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
    const headers = new Headers(zip.headers);
    for (const [k, v] of Object.entries(common)) headers.set(k, v);
    headers.set("Content-Type", "application/zip");
    headers.set("Content-Disposition", contentDisposition(`tracks-${stamp}.zip`));
    if (headOnly) {
      await zip.body?.cancel();
      return new Response(null, { headers });
    }
    return new Response(zip.body, { headers });
  });
}

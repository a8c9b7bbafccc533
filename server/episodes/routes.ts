import { downloadZip } from "client-zip";
import { type Context, Hono } from "hono";
import { episodeName } from "../../domain/episodes.ts";
import { asciiName } from "../../domain/ascii-name.ts";
import type { Direction } from "../../domain/directions.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { parseId, validate } from "../http/validate.ts";
import { sendJsonAnswer } from "../http/public-answer.ts";
import { notFound } from "../lib/http-error.ts";
import { contentDisposition, MISSING_NOTE_NAME, missingNote, uniqueNames } from "../tracks/downloads/routes.ts";
import {
  airedSchema,
  episodeCreateSchema,
  episodeListSchema,
  episodeUpdateSchema,
  poolQuerySchema,
  runningOrderSchema,
  suggestOrderSchema,
} from "./schemas.ts";
import type { PublicEpisode } from "./service.ts";
import { studioFileName, tracklistCsv, tracklistText } from "./tracklist.ts";

const NO_STORE = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/** `podkast-koster-57`: the exports' file names, ASCII like the files inside. */
function exportBase(direction: string, number: number): string {
  const ascii = asciiName(episodeName(direction as Direction, number)).replace(/#/g, "").replace(/\s+/g, "-");
  return ascii.toLowerCase() || `episode-${number}`;
}

/** GET …/files.zip: `NN - Artist - Title.mp3` in ASCII and tracklist.txt, streamed one file at a time. */
async function filesZip(ctx: AppContext, c: Context<AppEnv>, id: number) {
  const { episode, entries, order, files } = await ctx.episodes.exportsOf(c.get("user"), id);
  const byId = new Map(files.map((f) => [f.id, f]));
  const rows = order.map((trackId, i) => ({ entry: entries[i], file: byId.get(trackId)! }));
  const stats = await Promise.all(rows.map((r) => r.file.storage_key ? ctx.storage.stat(r.file.storage_key) : null));
  const present = rows.filter((_, i) => stats[i]);
  const missing = rows.filter((_, i) => !stats[i]);
  const list = new TextEncoder().encode(tracklistText(entries));
  const note = missing.length ? missingNote(missing.map((m) => m.file.filename)) : null;
  const names = uniqueNames([
    ...present.map((r) => studioFileName(r.entry)),
    "tracklist.txt",
    ...(note ? [MISSING_NOTE_NAME] : []),
  ]);
  const sizes = stats.filter((s) => s !== null).map((s) => s!.size);
  const lastModified = ctx.clock.now();
  const meta = [
    ...present.map((_, i) => ({ name: names[i], size: sizes[i] })),
    { name: names[present.length], size: list.byteLength },
    ...(note ? [{ name: names[present.length + 1], size: note.byteLength }] : []),
  ];
  async function* inputs() {
    for (const [i, r] of present.entries()) {
      const { body } = await ctx.storage.read(r.file.storage_key!);
      yield { name: names[i], input: body, size: sizes[i], lastModified };
    }
    yield { name: names[present.length], input: list, lastModified };
    if (note) yield { name: names[present.length + 1], input: note, lastModified };
  }
  const zip = downloadZip(inputs(), { metadata: meta, buffersAreUTF8: true });
  const headers = new Headers(zip.headers);
  for (const [k, v] of Object.entries(NO_STORE)) headers.set(k, v);
  headers.set("Content-Type", "application/zip");
  headers.set("Content-Disposition", contentDisposition(`${exportBase(episode.direction, episode.number)}.zip`));
  return new Response(zip.body, { headers });
}

function textFile(body: string, type: string, name: string) {
  return new Response(body, {
    headers: { ...NO_STORE, "Content-Type": `${type}; charset=utf-8`, "Content-Disposition": contentDisposition(name) },
  });
}

/**
 * /api/{admin|moderator}/episodes (issue 35): the shows' episode desk. The same handlers for both
 * panels; the caller's categories decide (an episode outside them 404, a direction outside them 403).
 */
export function createEpisodeRoutes(ctx: AppContext) {
  const e = ctx.episodes;
  return new Hono<AppEnv>()
    .get("/", validate("query", episodeListSchema), async (c) => {
      return c.json({ success: true as const, ...await e.list(c.get("user"), c.req.valid("query")) });
    })
    .get("/pool", validate("query", poolQuerySchema), async (c) => {
      return c.json({ success: true as const, pool: await e.pool(c.get("user"), c.req.valid("query").direction) });
    })
    .post("/", validate("json", episodeCreateSchema), async (c) => {
      return c.json({ success: true as const, episode: await e.create(c.get("user"), c.req.valid("json")) }, 201);
    })
    .get("/:id", async (c) => {
      return c.json({ success: true as const, episode: await e.get(c.get("user"), parseId(c.req.param("id"))) });
    })
    .patch("/:id", validate("json", episodeUpdateSchema), async (c) => {
      const episode = await e.update(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true as const, episode });
    })
    .delete("/:id", async (c) => {
      await e.remove(c.get("user"), parseId(c.req.param("id")));
      return c.json({ success: true as const });
    })
    .put("/:id/tracks", validate("json", runningOrderSchema), async (c) => {
      const episode = await e.setRunningOrder(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true as const, episode });
    })
    .post("/:id/suggest-order", validate("json", suggestOrderSchema), async (c) => {
      const answer = await e.suggest(c.get("user"), parseId(c.req.param("id")), c.req.valid("json").first_track_id);
      return c.json({ success: true as const, ...answer });
    })
    .post("/:id/aired", validate("json", airedSchema), async (c) => {
      const episode = await e.aired(c.get("user"), parseId(c.req.param("id")), c.req.valid("json"));
      return c.json({ success: true as const, episode });
    })
    .get("/:id/tracklist.txt", async (c) => {
      const { episode, entries } = await e.exportsOf(c.get("user"), parseId(c.req.param("id")));
      return textFile(tracklistText(entries), "text/plain", `${exportBase(episode.direction, episode.number)}.txt`);
    })
    .get("/:id/tracklist.csv", async (c) => {
      const { episode, entries } = await e.exportsOf(c.get("user"), parseId(c.req.param("id")));
      return textFile(tracklistCsv(entries), "text/csv", `${exportBase(episode.direction, episode.number)}.csv`);
    })
    .get("/:id/files.zip", (c) => filesZip(ctx, c, parseId(c.req.param("id"))));
}

/** GET /api/shows/{direction}: the aired episodes, newest first, kept ready (service.ts). */
export function createShowRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get("/:direction", async (c) => {
    const direction = c.req.param("direction");
    const answer = ctx.episodes.publicAnswer(direction);
    if (!answer) throw notFound();
    return sendJsonAnswer<{ success: true; show: { direction: string; name: string }; episodes: PublicEpisode[] }>(
      c,
      await answer,
    );
  });
}

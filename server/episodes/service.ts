import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import type { User } from "../../db/schema.ts";
import { episodes, episodeTracks } from "../../db/schema.ts";
import { type Direction, DIRECTION_LABELS, isDirection } from "../../domain/directions.ts";
import { airedMessage, episodeName, isShowDirection, SHOW_DIRECTIONS } from "../../domain/episodes.ts";
import { orderFigures, suggestOrder } from "../../domain/running-order.ts";
import { inScope, scopeOf } from "../../domain/scope.ts";
import type { Clock } from "../deps.ts";
import { keptJsonAnswers } from "../http/kept-answers.ts";
import { SHARED_ANSWER_TTL_MS } from "../http/public-answer.ts";
import { badRequest, conflict, forbidden, notFound } from "../lib/http-error.ts";
import type { ArtistText } from "../notifications/outbox.ts";
import { escapeHtml } from "../notifications/message-text.ts";
import {
  type EpisodeRow,
  episodeRow,
  episodeView,
  heldElsewhere,
  listEpisodes,
  nextNumber,
  tracklistOf,
} from "./reads.ts";
import { acceptedOf, episodeTrackFiles, episodeTrackOwners, poolOf, runningOrder } from "../tracks/episode-sql.ts";
import type {
  airedSchema,
  episodeCreateSchema,
  episodeListSchema,
  episodeUpdateSchema,
  runningOrderSchema,
} from "./schemas.ts";
import type { TracklistEntry } from "./tracklist.ts";

export const EPISODE_TEXTS = {
  notFound: "Выпуск не найден",
  notShow: "Выпуски есть только у передач: podcast_neuropunk, podcast_koster, show_neurogon, radio_k_profit",
  outside: "Эта передача не входит в ваши категории",
  numberTaken: "Выпуск с таким номером у этой передачи уже есть",
  stale: "Выпуск изменился: обновите страницу",
  aired: "Выпуск уже в эфире: его треки не меняются",
  airedDelete: "Выпуск уже в эфире: его нельзя удалить",
  duplicate: "Трек указан дважды",
  notAccepted: "Эти треки не приняты в передачу",
  elsewhere: "Эти треки уже стоят в другом невышедшем выпуске",
  notInEpisode: "Этот трек не стоит в выпуске",
  firstUnknown: "Первый трек должен быть в выпуске",
} as const;

export interface EpisodeDeps {
  db: Db;
  clock: Clock;
  /** The outbox's non-decision messages (server/notifications/outbox.ts). */
  outbox: { artistTextStatements(m: ArtistText): readonly BatchItem<"sqlite">[] };
  /** After a batch that wrote messages: the sender looks at once. */
  kick(): void;
  logger: { error(msg: string, data?: Record<string, unknown>): void };
}

type Staff = Pick<User, "id" | "is_admin" | "is_moderator" | "moderator_categories">;

/** 400 for a direction that is no show, 403 for one outside the caller's categories. */
function showIn(user: Staff, direction: string): Direction {
  if (!isDirection(direction) || !isShowDirection(direction)) throw badRequest(EPISODE_TEXTS.notShow);
  if (!inScope(direction, scopeOf(user))) throw forbidden(EPISODE_TEXTS.outside);
  return direction;
}

/** The episode within the caller's sight: outside it (or none), 404 like a track's. */
async function visible(db: Db, user: Staff, id: number): Promise<EpisodeRow> {
  const row = Number.isSafeInteger(id) && id > 0 ? await episodeRow(db, id) : null;
  if (!row || !isDirection(row.direction) || !inScope(row.direction, scopeOf(user))) {
    throw notFound(EPISODE_TEXTS.notFound);
  }
  return row;
}

function isUniqueClash(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? "") + String((err as { cause?: unknown })?.cause ?? "");
  return /UNIQUE constraint failed: episodes\.direction, episodes\.number/.test(text);
}

async function createEpisode(d: EpisodeDeps, user: Staff, input: z.output<typeof episodeCreateSchema>) {
  const direction = showIn(user, input.direction);
  const now = d.clock.now();
  try {
    const [row] = await d.db.insert(episodes).values({
      direction,
      number: input.number ?? await nextNumber(d.db, direction),
      title: input.title,
      air_date: input.air_date,
      created_by: user.id,
      created_at: now,
      updated_at: now,
    }).returning();
    return await episodeView(d.db, row);
  } catch (err) {
    if (isUniqueClash(err)) throw conflict(EPISODE_TEXTS.numberTaken);
    throw err;
  }
}

async function updateEpisode(
  d: EpisodeDeps,
  user: Staff,
  id: number,
  input: z.output<typeof episodeUpdateSchema>,
  changed: (direction: Direction) => void,
) {
  const row = await visible(d.db, user, id);
  try {
    const [next] = await d.db.update(episodes).set({
      ...(input.title === undefined ? {} : { title: input.title }),
      ...(input.air_date === undefined ? {} : { air_date: input.air_date }),
      ...(input.number === undefined ? {} : { number: input.number }),
      revision: sql`${episodes.revision} + 1`,
      updated_at: d.clock.now(),
    }).where(and(eq(episodes.id, row.id), eq(episodes.revision, input.revision))).returning();
    if (!next) throw conflict(EPISODE_TEXTS.stale, { episode: await episodeView(d.db, row) });
    if (next.aired_at) changed(next.direction as Direction);
    return await episodeView(d.db, next);
  } catch (err) {
    if (isUniqueClash(err)) throw conflict(EPISODE_TEXTS.numberTaken);
    throw err;
  }
}

/** PUT …/tracks: the whole running order at once, each an accepted pair of the episode's direction. */
async function setRunningOrder(d: EpisodeDeps, user: Staff, id: number, input: z.output<typeof runningOrderSchema>) {
  const row = await visible(d.db, user, id);
  if (row.aired_at) throw conflict(EPISODE_TEXTS.aired);
  if (input.revision !== undefined && input.revision !== row.revision) {
    throw conflict(EPISODE_TEXTS.stale, { episode: await episodeView(d.db, row) });
  }
  const ids = input.items.map((i) => i.track_id);
  if (new Set(ids).size !== ids.length) throw badRequest(EPISODE_TEXTS.duplicate);
  const direction = row.direction as Direction;
  const ok = await acceptedOf(d.db, direction, ids);
  const refused = ids.filter((t) => !ok.has(t));
  if (refused.length > 0) throw conflict(EPISODE_TEXTS.notAccepted, { track_ids: refused });
  const elsewhere = await heldElsewhere(d.db, row, ids);
  if (elsewhere.length > 0) throw conflict(EPISODE_TEXTS.elsewhere, { track_ids: elsewhere });
  const bump = d.db.update(episodes).set({ revision: sql`${episodes.revision} + 1`, updated_at: d.clock.now() })
    .where(and(eq(episodes.id, row.id), eq(episodes.revision, row.revision)));
  const [bumped] = await d.db.batch([
    bump,
    d.db.delete(episodeTracks).where(eq(episodeTracks.episode_id, row.id)),
    ...input.items.map((item, i) =>
      d.db.insert(episodeTracks).values({
        episode_id: row.id,
        track_id: item.track_id,
        direction,
        position: i + 1,
        note: item.note || null,
      })
    ),
  ]);
  if (bumped.rowsAffected === 0) throw conflict(EPISODE_TEXTS.stale);
  return await episodeView(d.db, (await episodeRow(d.db, row.id))!);
}

async function suggest(d: EpisodeDeps, user: Staff, id: number, firstId: number | undefined) {
  const row = await visible(d.db, user, id);
  const list = await runningOrder(d.db, row);
  const order = list.map((t) => ({ id: t.track_id, bpm: t.bpm, camelot: t.camelot }));
  if (firstId !== undefined && !order.some((t) => t.id === firstId)) throw badRequest(EPISODE_TEXTS.firstUnknown);
  const started = performance.now();
  const ids = suggestOrder(order, firstId);
  const took_ms = Math.round((performance.now() - started) * 10) / 10;
  const byId = new Map(order.map((t) => [t.id, t]));
  return {
    current: { order: order.map((t) => t.id), ...orderFigures(order) },
    suggested: { order: ids, ...orderFigures(ids.map((i) => byId.get(i)!)) },
    took_ms,
  };
}

/**
 * POST …/aired: the episode is on air at `url`; cues, when given, replace the old ones. Each artist
 * with a track in it gets one message, keyed by the episode and their first track in the order, so
 * a repeated call (new cues, a corrected link) writes nothing new (docs/decisions/0373).
 */
async function markAired(
  d: EpisodeDeps,
  user: Staff,
  id: number,
  input: z.output<typeof airedSchema>,
  changed: (direction: Direction) => void,
) {
  const row = await visible(d.db, user, id);
  const list = await runningOrder(d.db, row);
  const inEpisode = new Set(list.map((t) => t.track_id));
  const cues = input.cues;
  if (cues) {
    if (cues.some((c) => !inEpisode.has(c.track_id))) throw badRequest(EPISODE_TEXTS.notInEpisode);
    if (new Set(cues.map((c) => c.track_id)).size !== cues.length) throw badRequest(EPISODE_TEXTS.duplicate);
  }
  const now = d.clock.now();
  const cueOf = new Map((cues ?? list.filter((t) => t.at_s !== null).map((t) => ({ ...t, at_s: t.at_s! })))
    .map((c) => [c.track_id, c.at_s]));
  const owners = await episodeTrackOwners(d.db, row.id);
  const ownerOf = new Map(owners.map((o) => [o.id, o.user_id]));
  const byArtist = new Map<number, typeof list>();
  for (const t of list) {
    const owner = ownerOf.get(t.track_id);
    if (owner === null || owner === undefined) continue;
    byArtist.set(owner, [...(byArtist.get(owner) ?? []), t]);
  }
  const name = episodeName(row.direction as Direction, row.number);
  const messages = [...byArtist].flatMap(([userId, mine]) =>
    d.outbox.artistTextStatements({
      key: `episode:${row.id}:${mine[0].track_id}:aired`,
      userId,
      text: escapeHtml(
        airedMessage(name, input.url, mine.map((t) => ({ title: t.title, at_s: cueOf.get(t.track_id) ?? null }))),
      ),
    })
  );
  await d.db.batch([
    d.db.update(episodes).set({
      aired_at: new Date(input.aired_at),
      url: input.url,
      revision: sql`${episodes.revision} + 1`,
      updated_at: now,
    }).where(eq(episodes.id, row.id)),
    ...(cues
      ? [
        d.db.update(episodeTracks).set({ at_s: null }).where(eq(episodeTracks.episode_id, row.id)),
        ...cues.map((c) =>
          d.db.update(episodeTracks).set({ at_s: c.at_s }).where(
            and(eq(episodeTracks.episode_id, row.id), eq(episodeTracks.track_id, c.track_id)),
          )
        ),
      ]
      : []),
    ...messages,
  ] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  d.kick();
  changed(row.direction as Direction);
  return await episodeView(d.db, (await episodeRow(d.db, row.id))!);
}

/** One aired episode as the public page shows it: no ids, notes or file names (issue 35). */
export interface PublicEpisode {
  number: number;
  title: string;
  name: string;
  air_date: string;
  aired_at: string;
  url: string | null;
  tracklist: TracklistEntry[];
}

async function publicShow(db: Db, direction: Direction) {
  const rows = await db.select().from(episodes)
    .where(and(eq(episodes.direction, direction), sql`${episodes.aired_at} IS NOT NULL`))
    .orderBy(sql`${episodes.aired_at} DESC`, sql`${episodes.number} DESC`).limit(200);
  const list: PublicEpisode[] = [];
  for (const row of rows) {
    list.push({
      number: row.number,
      title: row.title,
      name: episodeName(direction, row.number),
      air_date: row.air_date,
      aired_at: row.aired_at!.toISOString(),
      url: row.url,
      tracklist: await tracklistOf(db, await runningOrder(db, row)),
    });
  }
  return { success: true as const, show: { direction, name: DIRECTION_LABELS[direction] }, episodes: list };
}

export function createEpisodes(d: EpisodeDeps) {
  // GET /api/shows/{direction}, kept ready per direction like the public reads (kept-answers.ts):
  // every write to an aired episode drops its direction's copy; other instances within 2 s.
  const shows = keptJsonAnswers<Direction>((direction) => publicShow(d.db, direction), {
    ttlMs: SHARED_ANSWER_TTL_MS,
    stale: "serve-stale-while-reloading",
    now: () => d.clock.now().getTime(),
    onError: (err) => d.logger.error("shows: reload failed", { err }),
    compression: "br+gzip",
  });
  const changed = (direction: Direction) => shows.forget(direction);
  return {
    list: async (user: Staff, q: z.output<typeof episodeListSchema>) => {
      const directions = q.direction
        ? [showIn(user, q.direction)]
        : SHOW_DIRECTIONS.filter((s) => inScope(s, scopeOf(user)));
      const aired = q.aired === undefined ? undefined : q.aired === "true" || q.aired === "1";
      const list = await listEpisodes(d.db, { directions, from: q.from, to: q.to, aired });
      return { episodes: list, next_number: q.direction ? await nextNumber(d.db, directions[0]) : null };
    },
    get: async (user: Staff, id: number) => await episodeView(d.db, await visible(d.db, user, id)),
    create: (user: Staff, input: z.output<typeof episodeCreateSchema>) => createEpisode(d, user, input),
    update: (user: Staff, id: number, input: z.output<typeof episodeUpdateSchema>) =>
      updateEpisode(d, user, id, input, changed),
    async remove(user: Staff, id: number) {
      const row = await visible(d.db, user, id);
      if (row.aired_at) throw conflict(EPISODE_TEXTS.airedDelete);
      await d.db.delete(episodes).where(and(eq(episodes.id, row.id), sql`${episodes.aired_at} IS NULL`));
    },
    pool: async (user: Staff, direction: string) => await poolOf(d.db, showIn(user, direction)),
    setRunningOrder: (user: Staff, id: number, input: z.output<typeof runningOrderSchema>) =>
      setRunningOrder(d, user, id, input),
    suggest: (user: Staff, id: number, firstId?: number) => suggest(d, user, id, firstId),
    aired: (user: Staff, id: number, input: z.output<typeof airedSchema>) => markAired(d, user, id, input, changed),
    /** The tracklist's lines and the files' rows for the studio exports. */
    async exportsOf(user: Staff, id: number) {
      const row = await visible(d.db, user, id);
      const list = await runningOrder(d.db, row);
      const files = await episodeTrackFiles(d.db, row.id);
      return { episode: row, entries: await tracklistOf(d.db, list), order: list.map((t) => t.track_id), files };
    },
    /** The public page's answer for a show direction (404 for anything else). */
    publicAnswer(direction: string) {
      if (!isDirection(direction) || !isShowDirection(direction)) throw notFound("Передача не найдена");
      return shows.get(direction);
    },
  };
}

export type EpisodesService = ReturnType<typeof createEpisodes>;

import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { episodeNotices, episodes, episodeTracks, releases } from "../../db/schema.ts";
import { type Direction, DIRECTION_LABELS, isDirection } from "../../domain/directions.ts";
import { episodeName, SELF_RELEASED } from "../../domain/episodes.ts";
import { type OrderFigures, orderFigures, type Transition, transitions } from "../../domain/running-order.ts";
import { type EpisodeTrack, runningOrder } from "../tracks/episode-sql.ts";
import type { TracklistEntry } from "./tracklist.ts";

/**
 * The episode desk's reads (issue 35): an episode with its running order, the list, the
 * tracklist's lines (the track SQL is server/tracks/episode-sql.ts). Plain functions over the database; scope is checked by the caller (service.ts).
 */

export type EpisodeRow = typeof episodes.$inferSelect;

export interface EpisodeSummary {
  id: number;
  direction: Direction;
  number: number;
  title: string;
  /** «Подкаст Костёр #57». */
  name: string;
  air_date: string;
  aired_at: string | null;
  url: string | null;
  revision: number;
  track_count: number;
}

export interface EpisodeView extends EpisodeSummary {
  tracks: EpisodeTrack[];
  /** Between row i and i + 1: the tempo change (%) and the Camelot relation. */
  transitions: Transition[];
  figures: OrderFigures;
  /** Tracks that left this episode because their pair stopped being accepted (newest first). */
  notices: { track_id: number; filename: string; reason: string; created_at: string }[];
}

/** Which of `ids` sit in another unaired episode of `direction`. */
export async function heldElsewhere(db: Db, episode: EpisodeRow, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: episodeTracks.track_id }).from(episodeTracks)
    .innerJoin(episodes, eq(episodes.id, episodeTracks.episode_id))
    .where(and(
      eq(episodeTracks.direction, episode.direction),
      inArray(episodeTracks.track_id, [...ids]),
      ne(episodes.id, episode.id),
      isNull(episodes.aired_at),
    ));
  return [...new Set(rows.map((r) => r.id))];
}

export async function episodeRow(db: Db, id: number): Promise<EpisodeRow | null> {
  const [row] = await db.select().from(episodes).where(eq(episodes.id, id)).limit(1);
  return row ?? null;
}

function summary(row: EpisodeRow, trackCount: number): EpisodeSummary {
  const direction = row.direction as Direction;
  return {
    id: row.id,
    direction,
    number: row.number,
    title: row.title,
    name: episodeName(direction, row.number),
    air_date: row.air_date,
    aired_at: row.aired_at ? row.aired_at.toISOString() : null,
    url: row.url,
    revision: row.revision,
    track_count: trackCount,
  };
}

export async function episodeView(db: Db, row: EpisodeRow): Promise<EpisodeView> {
  const list = await runningOrder(db, row);
  const notices = await db.select().from(episodeNotices).where(eq(episodeNotices.episode_id, row.id))
    .orderBy(desc(episodeNotices.id)).limit(50);
  const order = list.map((t) => ({ id: t.track_id, bpm: t.bpm, camelot: t.camelot }));
  return {
    ...summary(row, list.length),
    tracks: list,
    transitions: transitions(order),
    figures: orderFigures(order),
    notices: notices.map((n) => ({
      track_id: n.track_id,
      filename: n.filename,
      reason: n.reason,
      created_at: n.created_at.toISOString(),
    })),
  };
}

export interface ListFilter {
  directions: readonly Direction[];
  from?: string;
  to?: string;
  aired?: boolean;
}

/** The episodes of `directions`, newest air day first. */
export async function listEpisodes(db: Db, f: ListFilter): Promise<EpisodeSummary[]> {
  if (f.directions.length === 0) return [];
  const count = sql<number>`(SELECT count(*) FROM ${episodeTracks} WHERE ${episodeTracks.episode_id} = ${episodes.id})`;
  const rows = await db.select({ e: episodes, n: count }).from(episodes).where(and(
    inArray(episodes.direction, [...f.directions]),
    f.from ? sql`${episodes.air_date} >= ${f.from}` : undefined,
    f.to ? sql`${episodes.air_date} <= ${f.to}` : undefined,
    f.aired === undefined ? undefined : f.aired ? isNotNull(episodes.aired_at) : isNull(episodes.aired_at),
  )).orderBy(desc(episodes.air_date), desc(episodes.number)).limit(500);
  return rows.map((r) => summary(r.e, Number(r.n)));
}

/** The number the next episode of `direction` gets by default: the last + 1. */
export async function nextNumber(db: Db, direction: Direction): Promise<number> {
  const [row] = await db.select({ n: sql<number | null>`max(${episodes.number})` }).from(episodes)
    .where(eq(episodes.direction, direction));
  return (row?.n ?? 0) + 1;
}

/**
 * The tracklist's lines: title and version from the release desk when the track has a release not
 * cancelled, its label the release direction's public name; else the file name's parts and
 * «Self-Released» (docs/decisions/0374).
 */
export async function tracklistOf(db: Db, list: readonly EpisodeTrack[]): Promise<TracklistEntry[]> {
  const ids = list.map((t) => t.track_id);
  const rel = ids.length === 0 ? [] : await db.select({
    track_id: releases.track_id,
    direction: releases.direction,
    title: releases.title,
    version: releases.version,
  }).from(releases).where(and(inArray(releases.track_id, ids), ne(releases.stage, "cancelled")))
    .orderBy(asc(releases.id));
  const byTrack = new Map<number, (typeof rel)[number]>();
  for (const r of rel) if (!byTrack.has(r.track_id)) byTrack.set(r.track_id, r);
  return list.map((t) => {
    const r = byTrack.get(t.track_id);
    return {
      position: t.position,
      artist: t.artist,
      title: r?.title?.trim() || t.title,
      version: r?.version?.trim() || null,
      label: r && isDirection(r.direction) ? DIRECTION_LABELS[r.direction] : SELF_RELEASED,
      at_s: t.at_s,
    };
  });
}

import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  episodeNotices,
  episodes,
  episodeTracks,
  releases,
  trackAnalysis,
  trackDecisions,
  tracks,
} from "../../db/schema.ts";
import { type Direction, DIRECTION_LABELS, isDirection } from "../../domain/directions.ts";
import { episodeName, SELF_RELEASED } from "../../domain/episodes.ts";
import { type OrderFigures, orderFigures, type Transition, transitions } from "../../domain/running-order.ts";
import { trackNameParts } from "../../domain/track-name.ts";
import type { TracklistEntry } from "./tracklist.ts";

/**
 * The episode desk's reads (issue 35): the pool, an episode with its running order, the list, the
 * tracklist's lines. Plain functions over the database; scope is checked by the caller (service.ts).
 */

export type EpisodeRow = typeof episodes.$inferSelect;

/** A track as the desk shows it, in the pool or in a running order. */
export interface DeskTrack {
  track_id: number;
  artist: string;
  title: string;
  filename: string;
  duration_s: number | null;
  bpm: number | null;
  key: string | null;
  camelot: string | null;
  drop_s: number | null;
  /** When its pair was accepted (ISO). */
  accepted_at: string | null;
}

export interface EpisodeTrack extends DeskTrack {
  position: number;
  note: string | null;
  at_s: number | null;
}

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

const deskColumns = {
  track_id: tracks.id,
  filename: tracks.filename,
  duration_ms: tracks.duration,
  a_duration: trackAnalysis.duration_s,
  bpm: trackAnalysis.bpm,
  key: trackAnalysis.musical_key,
  camelot: trackAnalysis.camelot,
  drop_s: trackAnalysis.drop_s,
};

type DeskRow = {
  track_id: number;
  filename: string;
  duration_ms: number | null;
  a_duration: number | null;
  bpm: number | null;
  key: string | null;
  camelot: string | null;
  drop_s: number | null;
  decided_at: Date | null;
};

function deskTrack(r: DeskRow): DeskTrack {
  const { artist, title } = trackNameParts(r.filename);
  return {
    track_id: r.track_id,
    artist,
    title,
    filename: r.filename,
    duration_s: r.a_duration ?? (r.duration_ms === null ? null : r.duration_ms / 1000),
    bpm: r.bpm === null ? null : Math.round(r.bpm * 10) / 10,
    key: r.key,
    camelot: r.camelot,
    drop_s: r.drop_s,
    accepted_at: r.decided_at ? r.decided_at.toISOString() : null,
  };
}

/** The pair is accepted and the direction is still one of the track's. */
const accepted = (direction: string) =>
  and(
    eq(trackDecisions.track_id, tracks.id),
    eq(trackDecisions.direction, direction),
    eq(trackDecisions.status, "accepted"),
    sql`(',' || ${tracks.directions} || ',') LIKE ${`%,${direction},%`}`,
  );

/** The direction's pool: accepted pairs in no episode of it, oldest accept first. */
export async function poolOf(db: Db, direction: Direction): Promise<DeskTrack[]> {
  const rows = await db.select({ ...deskColumns, decided_at: trackDecisions.decided_at }).from(trackDecisions)
    .innerJoin(tracks, accepted(direction))
    .leftJoin(trackAnalysis, eq(trackAnalysis.track_id, tracks.id))
    .where(sql`NOT EXISTS (SELECT 1 FROM ${episodeTracks} WHERE ${episodeTracks.direction} = ${direction}
      AND ${episodeTracks.track_id} = ${tracks.id})`)
    .orderBy(asc(trackDecisions.decided_at), asc(tracks.id));
  return rows.map(deskTrack);
}

/** Which of `ids` are accepted pairs of `direction` (a set of track ids). */
export async function acceptedOf(db: Db, direction: Direction, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: tracks.id }).from(trackDecisions).innerJoin(tracks, accepted(direction))
    .where(inArray(tracks.id, [...ids]));
  return new Set(rows.map((r) => r.id));
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

export async function runningOrder(db: Db, episode: EpisodeRow): Promise<EpisodeTrack[]> {
  const rows = await db.select({
    ...deskColumns,
    decided_at: trackDecisions.decided_at,
    position: episodeTracks.position,
    note: episodeTracks.note,
    at_s: episodeTracks.at_s,
  }).from(episodeTracks)
    .innerJoin(tracks, eq(tracks.id, episodeTracks.track_id))
    .leftJoin(trackAnalysis, eq(trackAnalysis.track_id, tracks.id))
    .leftJoin(
      trackDecisions,
      and(eq(trackDecisions.track_id, tracks.id), eq(trackDecisions.direction, episode.direction)),
    )
    .where(eq(episodeTracks.episode_id, episode.id))
    .orderBy(asc(episodeTracks.position), asc(tracks.id));
  // Positions are shown 1…n even after a track left the order (review-effects.ts removes rows).
  return rows.map((r, i) => ({ ...deskTrack(r), position: i + 1, note: r.note, at_s: r.at_s }));
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

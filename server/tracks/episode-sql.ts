import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { episodeTracks, trackAnalysis, trackDecisions, tracks } from "../../db/schema.ts";
import type { Direction } from "../../domain/directions.ts";
import { trackNameParts } from "../../domain/track-name.ts";

/**
 * The episode desk's track SQL (issue 35; the desk itself is server/episodes/): the pool's pairs,
 * an episode's tracks with their audio figures, their owners and files. Kept beside the track row
 * like intake-sql.ts, so the track tables are read only here among the rooms (track-services.test.ts).
 */

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

/** An episode's running order: its tracks by position, numbered 1…n. */
export async function runningOrder(db: Db, episode: { id: number; direction: string }): Promise<EpisodeTrack[]> {
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

/** The owners of an episode's tracks (null: a guest's). */
export async function episodeTrackOwners(db: Db, episodeId: number) {
  return await db.select({ id: tracks.id, user_id: tracks.user_id }).from(tracks)
    .where(
      sql`${tracks.id} IN (SELECT ${episodeTracks.track_id} FROM ${episodeTracks} WHERE ${episodeTracks.episode_id} = ${episodeId})`,
    );
}

/** The stored files of an episode's tracks. */
export async function episodeTrackFiles(db: Db, episodeId: number) {
  return await db.select({ id: tracks.id, storage_key: tracks.storage_key, filename: tracks.filename }).from(tracks)
    .where(
      sql`${tracks.id} IN (SELECT ${episodeTracks.track_id} FROM ${episodeTracks} WHERE ${episodeTracks.episode_id} = ${episodeId})`,
    );
}

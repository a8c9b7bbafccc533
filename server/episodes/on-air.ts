import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { episodes, episodeTracks } from "../../db/schema.ts";
import type { Direction } from "../../domain/directions.ts";
import { episodeName } from "../../domain/episodes.ts";

/** One aired episode a track played in, as the artist's history shows it (issue 35). */
export interface OnAir {
  /** «Подкаст Костёр #57». */
  episode: string;
  /** The cue in seconds; null when none was given. */
  at_s: number | null;
  url: string | null;
  aired_at: string;
}

/** The aired episodes of each of `trackIds`, oldest first; never an unaired one. */
export async function onAirOf(db: Db, trackIds: readonly number[]): Promise<Map<number, OnAir[]>> {
  const out = new Map<number, OnAir[]>();
  if (trackIds.length === 0) return out;
  const rows = await db.select({
    track_id: episodeTracks.track_id,
    direction: episodes.direction,
    number: episodes.number,
    at_s: episodeTracks.at_s,
    url: episodes.url,
    aired_at: episodes.aired_at,
  }).from(episodeTracks).innerJoin(episodes, eq(episodes.id, episodeTracks.episode_id))
    .where(and(inArray(episodeTracks.track_id, [...trackIds]), isNotNull(episodes.aired_at)))
    .orderBy(asc(episodes.aired_at), asc(episodes.id));
  for (const r of rows) {
    const list = out.get(r.track_id) ?? [];
    list.push({
      episode: episodeName(r.direction as Direction, r.number),
      at_s: r.at_s,
      url: r.url,
      aired_at: r.aired_at!.toISOString(),
    });
    out.set(r.track_id, list);
  }
  return out;
}

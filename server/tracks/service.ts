import type { TrackAnalysisService } from "../processing/analysis.ts";
import {
  cardTrack,
  forArchive,
  forDownload,
  getTrack,
  listenSource,
  listTrackRows,
  trackDetail,
  trackDirections,
} from "./staff-reads.ts";
import {
  createTrackRow,
  markDownloaded,
  moderateTrack,
  removeTrack,
  type StaffEditDeps,
  updateTrack,
} from "./staff-edits.ts";
import type { TrackListQuery } from "./schemas.ts";
import type { TrackInput, TrackModeration, TrackUpdate } from "./schemas.ts";
import type { StaffCaller } from "./views.ts";
import type { Direction } from "../../domain/directions.ts";
import type { TrackComments } from "../review/comments.ts";

export * from "./schemas.ts";
export * from "./views.ts";

/**
 * The track row's front, `ctx.tracks` (docs/decisions/0120, 0210, 0325): the staff's reads
 * (staff-reads.ts: the list, one track, its detail, a download's rows, a card's facts) and edits
 * (staff-edits.ts), each within the caller's current sight; the HTTP input schemas of the track calls
 * (schemas.ts) and the rows seen by staff (views.ts). It is built with its siblings (uploads,
 * processing, review, artist) in server/track-services.ts.
 */
export function createTracksService(
  deps: StaffEditDeps & {
    analysis: Pick<TrackAnalysisService, "listenSource">;
    /** The staff track detail carries the track's comments, by moment (issue 24). */
    comments: Pick<TrackComments, "ofTrack">;
  },
) {
  const { db, analysis } = deps;
  return {
    list: (who: StaffCaller, q: TrackListQuery) => listTrackRows(deps, who, q),
    get: (who: StaffCaller, id: number) => getTrack(deps, who, id),
    async detail(who: StaffCaller, id: number) {
      const track = await trackDetail(deps, who, id);
      return { ...track, comments: await deps.comments.ofTrack(track.id) };
    },
    create: (input: TrackInput) => createTrackRow(deps, input),
    update: (who: StaffCaller, id: number, input: TrackUpdate) => updateTrack(deps, who, id, input),
    moderate: (who: StaffCaller, id: number, input: TrackModeration) => moderateTrack(deps, who, id, input),
    remove: (who: StaffCaller, id: number) => removeTrack(deps, who, id),
    forDownload: (who: StaffCaller, ids: readonly number[]) => forDownload(db, who, ids),
    forArchive: (who: StaffCaller, ids: readonly number[]) => forArchive(db, who, ids),
    listenSource: (who: StaffCaller, id: number) => listenSource(analysis, who, id),
    markDownloaded: (ids: readonly number[]) => markDownloaded(deps, ids),
    /** The staff desk's card reads in Telegram (issue 27). */
    cardTrack: (id: number, direction: Direction) => cardTrack(deps, id, direction),
    trackDirections: (id: number) => trackDirections(db, id),
  };
}

export type TracksService = ReturnType<typeof createTracksService>;

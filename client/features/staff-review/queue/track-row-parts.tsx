import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { hasAudio } from "../player/playable.ts";
import type { StaffTrackRow as StaffTrack } from "../../../lib/staff-queries.ts";
import type { TrackTableTexts } from "../texts/track-table-texts.ts";
import type { TrackSort } from "./track-list-search.ts";
import { parseDirections } from "../../../../domain/directions.ts";
import type { ReviewTexts } from "../texts/review-texts.ts";

export interface TrackTableProps {
  tracks: StaffTrack[];
  selected: ReadonlySet<number>;
  onSelectedChange: (next: Set<number>) => void;
  editHref: (id: number) => string;
  onDownload: (track: StaffTrack) => void;
  onDelete: (track: StaffTrack) => void;
  directionLabel: (code: string) => string;
  /** Id of the track whose download is being prepared. */
  busyId?: number | null;
  texts?: TrackTableTexts;
  /** The review player (issue 12): a play button per row with a file, and the played row marked. */
  review?: {
    currentId: number | null;
    playing: boolean;
    onPlay: (track: StaffTrack) => void;
    /** A row that no longer belongs to the filter (decided in «Новые»): kept in place, marked (issue 23). */
    left?: (track: StaffTrack) => boolean;
  };
  /** Sorting by the report's figures (issue 12): the current `sort` and where a header click goes. */
  sort?: { value: TrackSort; onChange: (next: TrackSort) => void };
  /** Marks under a track's name from other parts of the queue (issue 24: assignee, «Слушает @name»). */
  rowExtra?: (track: StaffTrack) => ReactNode;
  /**
   * The rows shown are the previous filter's, sort's or page's while the new ones load: the list is
   * marked busy (`aria-busy`, dimmed) so nobody takes their order for the new one (decision 0451).
   */
  stale?: boolean;
}

/** A track's Edit, Download and Delete: the same in the table's row and on the phone's card. */
export function TrackActions(
  { track, texts, editHref, busyId, onDownload, onDelete, className = "st-actions" }:
    & Pick<TrackTableProps, "editHref" | "busyId" | "onDownload" | "onDelete">
    & { track: StaffTrack; texts: TrackTableTexts; className?: string },
) {
  return (
    <span className={className}>
      <Link to={editHref(track.id) as "/"} className="st-btn st-btn-sm" aria-label={`${texts.edit}: ${track.filename}`}>
        {texts.edit}
      </Link>
      {hasAudio(track) && (
        <button
          type="button"
          className="st-btn st-btn-sm"
          aria-label={`${texts.download}: ${track.filename}`}
          disabled={busyId === track.id}
          onClick={() => onDownload(track)}
        >
          {texts.download}
        </button>
      )}
      <button
        type="button"
        className="st-btn st-btn-sm st-btn-danger"
        aria-label={`${texts.delete}: ${track.filename}`}
        onClick={() => onDelete(track)}
      >
        {texts.delete}
      </button>
    </span>
  );
}

/** Who uploaded: the account's name (login underneath), else the guest name, else the unknown mark. */
export function trackUserLabel(track: StaffTrack, texts: TrackTableTexts): { main: string; sub?: string } {
  if (track.user_info) {
    const name = track.user_info.name?.trim();
    return name && name !== track.user_info.username
      ? { main: name, sub: `@${track.user_info.username}` }
      : { main: track.user_info.username };
  }
  if (track.guest_username) return { main: track.guest_username, sub: texts.guest };
  return { main: texts.unknownUser };
}

/** The directions cell's badges in one line, on hover (a narrow column cuts them): «Лейбл Костер · Новый». */
export function directionsTitle(
  track: StaffTrack,
  directionLabel: (code: string) => string,
  words: ReviewTexts,
): string {
  const state = new Map((track.decisions ?? []).map((d) => [d.direction, d.status]));
  return parseDirections(track.directions)
    .map((d) =>
      track.status === "failed" ? directionLabel(d) : `${directionLabel(d)} · ${words.states[state.get(d) ?? "new"]}`
    )
    .join(", ");
}

/** The status cell's words in one line, on hover (a narrow column may cut the second badge). */
export function statusTitle(track: StaffTrack, texts: TrackTableTexts): string {
  const status = track.status === "processing" ? texts.processing : track.status === "failed" ? texts.failed : null;
  return [track.downloaded ? texts.downloaded : texts.notDownloaded, status].filter(Boolean).join(", ");
}

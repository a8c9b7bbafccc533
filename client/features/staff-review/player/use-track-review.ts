import { useMemo } from "react";
import type { StaffBase, TrackList } from "../../../lib/staff-queries.ts";
import type { ReviewTrack } from "./figures.ts";
import type { PlayerTexts } from "./player-texts.ts";
import { useReviewKeys } from "./use-review-keys.ts";
import { hasAudio, useReviewPlayer } from "./use-review-player.ts";

const NO_ROWS: ReviewTrack[] = [];

interface TrackReviewOptions {
  base: StaffBase;
  keys: { tracks: readonly string[] };
  /** What `useStaffTrackList` returns (the list, its page and how to turn it). */
  list: {
    list: TrackList | undefined;
    query: { isPlaceholderData: boolean };
    page: number;
    setPage: (page: number) => void;
  };
  texts: PlayerTexts;
}

/**
 * A staff track list's review: the player over the rows that have audio, the keyboard while the list
 * shows rows, and the props of the table's play buttons.
 */
export function useTrackReview({ base, keys, list: l, texts }: TrackReviewOptions) {
  const rows: readonly ReviewTrack[] = l.list?.tracks ?? NO_ROWS;
  const playable = useMemo(() => rows.filter(hasAudio), [rows]);
  const player = useReviewPlayer({
    base,
    tracksKey: keys.tracks,
    tracks: playable,
    rowsPage: l.query.isPlaceholderData ? undefined : l.list?.page,
    page: l.page,
    pages: l.list?.pages ?? 1,
    setPage: l.setPage,
    texts,
  });
  useReviewKeys(
    {
      toggle: player.toggle,
      next: player.next,
      previous: player.previous,
      back: player.back,
      forward: player.forward,
      drop: player.toDrop,
    },
    rows.length > 0,
  );
  return {
    player,
    table: { currentId: player.current?.id ?? null, playing: player.playing, onPlay: player.start },
  };
}

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Direction } from "../../../../domain/directions.ts";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { type StaffBase, staffTrackQuery, type TrackList } from "../../../lib/staff-queries.ts";
import type { ReviewTrack } from "../player/figures.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";
import { useDecisionDesk, waitsFor } from "./use-decision-desk.ts";
import { type ReviewKeyAction, useReviewKeys } from "../player/use-review-keys.ts";
import { DECLINE_REASONS } from "../../../../domain/decline-reasons.ts";
import { hasAudio } from "../player/playable.ts";
import { useReviewPlayer } from "../player/use-review-player.ts";
import { useTrackComments } from "../comments/use-track-comments.ts";
import { useVersionAB } from "../player/use-version-ab.ts";
import type { CommentTexts } from "../texts/comment-texts.ts";

const NO_ROWS: ReviewTrack[] = [];

/** Shift+1–9: the decline reason of that number, while the chooser of a decline or shortlist is open. */
const reasonKeys = (desk: ReturnType<typeof useDecisionDesk>) =>
  Object.fromEntries(DECLINE_REASONS.map((r, i) => [
    `reason${i + 1}`,
    () => {
      if (desk.chooser === "declined" || desk.chooser === "shortlisted") desk.toggleReason(r);
    },
  ])) as Partial<Record<ReviewKeyAction, () => void>>;

interface TrackReviewOptions {
  base: StaffBase;
  keys: { tracks: readonly string[] };
  /** What `useStaffTrackList` returns (the list, its page and how to turn it, the track in the address). */
  list: {
    list: TrackList | undefined;
    query: { isPlaceholderData: boolean; refetch: () => Promise<unknown> };
    page: number;
    setPage: (page: number) => void;
    search: { track?: number; review?: string; page?: number };
    setTrack: (id: number | null) => void;
  };
  texts: PlayerTexts;
  /** The directions the caller decides (a moderator: their categories; an admin: all). */
  canDecide: (d: Direction) => boolean;
  /** The words of the comments on the waveform (issue 24). */
  commentTexts: CommentTexts;
}

function readFromDrop(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.reviewFromDrop) === "true";
  } catch {
    return false;
  }
}

/**
 * A staff track list's review: the player over the rows that have audio, the decision desk for the
 * track it holds (issue 23), the keyboard while the list shows rows, the playing track kept in the
 * address (`?track=`), and the props of the table's play buttons.
 */
export function useTrackReview({ base, keys, list: l, texts, canDecide, commentTexts }: TrackReviewOptions) {
  const rows: readonly ReviewTrack[] = l.list?.tracks ?? NO_ROWS;
  const playable = useMemo(() => rows.filter(hasAudio), [rows]);
  const [fromDrop, setFromDrop] = useState(readFromDrop);
  const canDecideRef = useRef(canDecide);
  canDecideRef.current = canDecide;
  const isUndecided = useCallback((t: ReviewTrack) => waitsFor(t, canDecideRef.current), []);
  const player = useReviewPlayer({
    base,
    tracksKey: keys.tracks,
    tracks: playable,
    rowsPage: l.query.isPlaceholderData ? undefined : l.list?.page,
    page: l.page,
    pages: l.list?.pages ?? 1,
    setPage: l.setPage,
    texts,
    isUndecided,
    fromDrop,
    refresh: l.query.refetch,
  });
  const desk = useDecisionDesk({ base, tracksKey: keys.tracks, player, canDecide });
  const comments = useTrackComments({ base, tracksKey: keys.tracks, player, texts: commentTexts });
  // Issue 37: a new version heard against the previous one (B).
  const versions = useVersionAB({ base, tracksKey: keys.tracks, player });

  // The address names the track the player holds; Back, a reload, a shared link and the way back
  // from the edit page hold it ready again (playing when the browser lets a page start sound).
  const wanted = useRef(l.search.track ?? null);
  const single = useQuery({
    ...staffTrackQuery(base, keys.tracks)(wanted.current ?? 0),
    enabled: wanted.current !== null && l.list !== undefined && !rows.some((t) => t.id === wanted.current),
  });
  useEffect(() => {
    const id = wanted.current;
    if (id === null || player.current || !l.list) return;
    const found = rows.find((t) => t.id === id) ?? (single.data?.id === id ? single.data : undefined);
    if (found && hasAudio(found)) {
      wanted.current = null;
      player.ready(found);
    } else if (single.isError || (single.data && !hasAudio(single.data))) {
      wanted.current = null;
      l.setTrack(null);
    }
  }, [l.list, single.data, single.isError]);
  useEffect(() => {
    if (player.current && wanted.current === null) l.setTrack(player.current.id);
  }, [player.current?.id]);

  // Another view (filters, sort) after the last one was done: the desk may move on again (0276).
  const { track: _track, page: _page, ...view } = l.search;
  const viewKey = JSON.stringify(view);
  useEffect(() => player.resume(), [viewKey]);

  const toggleFromDrop = () => {
    setFromDrop((on) => {
      try {
        localStorage.setItem(STORAGE_KEYS.reviewFromDrop, String(!on));
      } catch {
        // Storage refused: the switch holds for this page only.
      }
      return !on;
    });
  };

  useReviewKeys(
    {
      toggle: player.toggle,
      next: player.next,
      previous: player.previous,
      back: player.back,
      forward: player.forward,
      drop: player.toDrop,
      accept: () => desk.choose("accepted"),
      shortlist: () => desk.choose("shortlisted"),
      decline: () => desk.choose("declined"),
      send: desk.send,
      message: desk.focusMessage,
      note: desk.focusNote,
      undo: () => void desk.undo(),
      legend: desk.toggleLegend,
      close: desk.close,
      pick1: () => desk.pick(1),
      pick2: () => desk.pick(2),
      pick3: () => desk.pick(3),
      pick4: () => desk.pick(4),
      pick5: () => desk.pick(5),
      pick6: () => desk.pick(6),
      pick7: () => desk.pick(7),
      pick8: () => desk.pick(8),
      pick9: () => desk.pick(9),
      // Issue 37: Shift+1–9 toggles a decline reason while a decline's (or shortlist's) chooser is open.
      ...reasonKeys(desk),
      versions: versions.toggle,
      comment: comments.startAtNow,
    },
    rows.length > 0 || player.current !== null,
    { choosing: desk.chooser !== null, legend: desk.legend },
  );
  return {
    player,
    desk,
    fromDrop: { on: fromDrop, toggle: toggleFromDrop },
    comments: { state: comments, texts: commentTexts },
    versions,
    table: {
      currentId: player.current?.id ?? null,
      playing: player.playing,
      onPlay: player.start,
      // In «Новые» a row decided here stays in place, marked, until the list is read again (0225).
      left: l.search.review === "new" ? (t: ReviewTrack) => !isUndecided(t) : undefined,
    },
  };
}

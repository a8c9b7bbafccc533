import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import type { ReviewTrack } from "./figures.ts";
import { PLAY_BUTTON_ATTR } from "./playable.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";

/** What the walk reads of the list the player plays. */
export interface WalkOptions {
  /** The rows shown, in their order. */
  tracks: readonly ReviewTrack[];
  /** The page the rows belong to (the server's answer), the page asked for, and the number of pages. */
  rowsPage: number | undefined;
  page: number;
  pages: number;
  setPage: (page: number) => void;
  texts: PlayerTexts;
  /** Whether a row still waits for the caller's decision (the desk moves on to the next such row). */
  isUndecided?: (track: ReviewTrack) => boolean;
  /** «С дропа» (issue 23): a track the player moves on to starts at its drop. */
  fromDrop?: boolean;
  /** Reads the shown page again (the desk at the end of its rows: decided rows may have left it). */
  refresh?: () => Promise<unknown>;
}

/** What the walk uses of the player. */
interface WalkPlayer {
  latest: { readonly current: { o: WalkOptions; audio: HTMLAudioElement | null; current: ReviewTrack | null } };
  load: (track: ReviewTrack, options?: { fresh?: boolean; at?: number }) => Promise<void>;
  setNotice: (notice: string) => void;
  /** Set when the focus was on a row's play button: it follows J/K to the next row's. */
  moveFocus: RefObject<boolean>;
}

/**
 * The review player's walk through the queue (issues 12, 23, 31): J and K along the rows and across
 * pages, the next undecided row after a decision (the page read again past its last one), the end of
 * the view, and the tracks left with J.
 */
export function useQueueWalk(o: WalkOptions, { latest, load, setNotice, moveFocus }: WalkPlayer) {
  const pending = useRef<"first" | "last" | "undecided" | "refreshing" | "firstUndecided" | null>(null);
  /** Counts the desk's finished refreshes, so the rows read again are looked at once they are shown. */
  const [refreshed, setRefreshed] = useState(0);
  /** The track just decided: after a refresh it is not the next one even if the answer still lists it. */
  const leaving = useRef<number | null>(null);
  /**
   * The end of the view (issue 31, decision 0276): after the last undecided track the player stops,
   * the desk's outcomes rest and the dock says so; another track started (or another view) ends it.
   */
  const [done, setDone] = useState(false);
  /**
   * Tracks left undecided with J (issue 31, decision 0278): the desk does not offer them again while
   * the list is open (a row's Play, K or J onto one takes it back). Kept with their rows, so the
   * dock can go back to them.
   */
  const skipped = useRef(new Map<number, ReviewTrack>());
  const [skippedCount, setSkippedCount] = useState(0);
  const doneRef = useRef(done);
  doneRef.current = done;

  const rows = () => latest.current.o.tracks;
  const indexOfCurrent = () => {
    const id = latest.current.current?.id;
    return id === undefined ? -1 : rows().findIndex((t) => t.id === id);
  };
  const noteFocus = () => {
    moveFocus.current = document.activeElement?.hasAttribute(PLAY_BUTTON_ATTR) ?? false;
  };

  /** Where a track the player moves on to starts: its drop when «С дропа» is on and it has one. */
  const startAt = (track: ReviewTrack) => latest.current.o.fromDrop ? track.analysis?.drop_s ?? 0 : 0;
  const moveTo = (track: ReviewTrack) => load(track, { at: startAt(track) });

  /** The view is done: the sound stops and the dock says so (decision 0276). */
  const finish = () => {
    latest.current.audio?.pause();
    setDone(true);
    setNotice(latest.current.o.texts.desk.queueDone);
  };

  const next = useCallback(() => {
    const list = rows();
    const i = indexOfCurrent();
    noteFocus();
    const { current, o } = latest.current;
    if (doneRef.current) return setNotice(o.texts.desk.queueDone);
    // Left undecided with J: not offered again after a decision (decision 0278).
    if (current && o.isUndecided?.(current)) {
      skipped.current.set(current.id, current);
      setSkippedCount(skipped.current.size);
    }
    if (i === -1) {
      if (list[0]) void moveTo(list[0]);
    } else if (i < list.length - 1) {
      void moveTo(list[i + 1]);
    } else {
      const { page, pages, setPage, texts } = latest.current.o;
      if (page < pages) {
        pending.current = "first";
        setPage(page + 1);
      } else {
        setNotice(texts.endOfList);
      }
    }
  }, [load]);

  const previous = useCallback(() => {
    const list = rows();
    const i = indexOfCurrent();
    noteFocus();
    if (i === -1) {
      const last = list[list.length - 1];
      if (last) void load(last);
    } else if (i > 0) {
      void load(list[i - 1]);
    } else {
      const { page, setPage } = latest.current.o;
      if (page > 1) {
        pending.current = "last";
        setPage(page - 1);
      } else if (latest.current.audio) {
        latest.current.audio.currentTime = 0;
      }
    }
  }, [load]);

  /** The first row after `from` (or from the top) that still waits for a decision and was not skipped. */
  const nextUndecided = (list: readonly ReviewTrack[], from: number, skip: number | null) => {
    const waits = latest.current.o.isUndecided ?? (() => true);
    for (let j = from + 1; j < list.length; j++) {
      if (list[j].id !== skip && !skipped.current.has(list[j].id) && waits(list[j])) return list[j];
    }
    return undefined;
  };

  /**
   * After a decision (issue 23): the next undecided row of the current view starts. Past the last
   * one, the page is read again (in «Новые» the decided rows leave it and the waiting ones move up);
   * when it has none either, the next page.
   */
  const advance = useCallback((decidedId: number) => {
    const list = rows();
    const i = list.findIndex((t) => t.id === decidedId);
    const found = nextUndecided(list, i, decidedId);
    if (found) return void moveTo(found);
    leaving.current = decidedId;
    const { refresh } = latest.current.o;
    if (!refresh) return next();
    pending.current = "refreshing";
    void refresh().catch(() => {}).finally(() => {
      if (pending.current !== "refreshing") return;
      pending.current = "undecided";
      setRefreshed((n) => n + 1);
    });
  }, [load, next]);

  // J past the last row (K before the first) turned the page: start there once its rows arrive.
  // After a refresh (or the page the desk turned to), the first row still waiting starts.
  useEffect(() => {
    if (!pending.current || pending.current === "refreshing" || o.rowsPage !== o.page) return;
    if (pending.current === "undecided") {
      const found = nextUndecided(o.tracks, -1, leaving.current);
      if (found) {
        pending.current = null;
        return void moveTo(found);
      }
      if (o.page < o.pages) {
        // The next page: its first row still waiting starts once it is shown (the branch below).
        pending.current = "firstUndecided";
        o.setPage(o.page + 1);
      } else {
        pending.current = null;
        finish();
      }
      return;
    }
    if (o.tracks.length === 0) return;
    const which = pending.current;
    pending.current = null;
    if (which === "firstUndecided") {
      // The desk turned the page: the first row there still waiting.
      const found = nextUndecided(o.tracks, -1, leaving.current);
      if (found) void moveTo(found);
      else finish();
      return;
    }
    void moveTo(which === "first" ? o.tracks[0] : o.tracks[o.tracks.length - 1]);
  }, [o.rowsPage, o.page, o.tracks, load, refreshed]);

  return {
    next,
    previous,
    advance,
    nextUndecided,
    startAt,
    /** A track starts (any way): the view is not done, and a track left with J is offered again. */
    onLoad: useCallback((track: ReviewTrack) => {
      setDone(false);
      if (skipped.current.delete(track.id)) setSkippedCount(skipped.current.size);
    }, []),
    done,
    resume: useCallback(() => setDone(false), []),
    skippedCount,
    backToSkipped: useCallback(() => {
      const [first] = skipped.current.values();
      skipped.current.clear();
      setSkippedCount(0);
      if (first) void load(first, { at: startAt(first) });
    }, [load]),
  };
}

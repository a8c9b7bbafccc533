import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../../../lib/api.ts";
import type { StaffBase } from "../../../lib/staff-queries.ts";
import type { ReviewTrack } from "./figures.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";
import { useListenReports } from "./use-listen-reports.ts";
import { type ListenAnswer, listenQuery, PLAY_BUTTON_ATTR } from "./playable.ts";
import { useRowInView } from "./use-row-in-view.ts";
import { useSeek } from "./use-seek.ts";

/**
 * The staff review player (issue 12 §2): one `<audio>` per track list, so one track plays at a time.
 * A track starts from its listening link (GET {base}/tracks/:id/listen: a signed, short-lived
 * address the `<audio>` streams with byte ranges, plus the stored waveform peaks, so the browser never
 * decodes the file). J/K walk the list and cross pages; the played row is kept in view. Opening a
 * track marks nothing: the time really played is reported (use-listen-reports.ts, issue 20).
 */

export interface ReviewPlayerOptions {
  base: StaffBase;
  tracksKey: readonly string[];
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

export function useReviewPlayer(o: ReviewPlayerOptions) {
  const queryClient = useQueryClient();
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const [current, setCurrent] = useState<ReviewTrack | null>(null);
  const [listen, setListen] = useState<ListenAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** A short message for screen readers (the live region of the player bar). */
  const [notice, setNotice] = useState("");
  const seq = useRef(0);
  const retried = useRef(false);
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
  /** The next track's audio, asked for ahead (decision 0225): detached, so the page keeps one player. */
  const ahead = useRef<HTMLAudioElement | null>(null);
  const moveFocus = useRef(false);
  const latest = useRef({ o, audio, current, listen, loading, error });
  latest.current = { o, audio, current, listen, loading, error };
  const doneRef = useRef(done);
  doneRef.current = done;
  const reports = useListenReports(audio, {
    current: () => ({ base: latest.current.o.base, tracksKey: latest.current.o.tracksKey }),
  });
  const reportsRef = useRef(reports);
  reportsRef.current = reports;

  const load = useCallback(async (track: ReviewTrack, { fresh = false, at = 0 } = {}) => {
    const my = ++seq.current;
    const { o, audio } = latest.current;
    if (!fresh) retried.current = false;
    // What the previous track played is reported now; loading and skipping count nothing.
    reportsRef.current.leave();
    audio?.pause();
    setDone(false);
    if (skipped.current.delete(track.id)) setSkippedCount(skipped.current.size);
    setCurrent(track);
    setError(null);
    setLoading(true);
    if (!fresh) setListen(null);
    let answer: ListenAnswer;
    try {
      const q = listenQuery(o.base, o.tracksKey, track.id);
      answer = await queryClient.fetchQuery(fresh ? { ...q, staleTime: 0 } : q);
    } catch (err) {
      if (my !== seq.current) return;
      setLoading(false);
      setError(errorText(err, o.texts.failed));
      return;
    }
    if (my !== seq.current) return;
    setListen(answer);
    const el = latest.current.audio;
    if (!el) return setLoading(false);
    reportsRef.current.follow(track.id);
    el.src = answer.stream_url;
    if (at > 0) el.currentTime = at;
    try {
      await el.play();
    } catch (err) {
      if (my !== seq.current) return;
      // The browser refused to start without a gesture: the track waits, paused, for Play or Space.
      if (!(err instanceof DOMException && (err.name === "NotAllowedError" || err.name === "AbortError"))) {
        setError(o.texts.failed);
      }
    } finally {
      if (my === seq.current) setLoading(false);
    }
  }, [queryClient]);

  // The element's own events say whether it plays; an expired link is asked for again once.
  useEffect(() => {
    if (!audio) return;
    const sync = () => setPlaying(!audio.paused && !audio.ended);
    const onError = () => {
      const { current } = latest.current;
      if (!current || !audio.getAttribute("src")) return;
      if (!retried.current) {
        retried.current = true;
        void load(current, { fresh: true, at: audio.currentTime || 0 });
      } else {
        setLoading(false);
        setError(latest.current.o.texts.failed);
      }
    };
    const events = ["play", "playing", "pause", "ended", "emptied"] as const;
    for (const e of events) audio.addEventListener(e, sync);
    audio.addEventListener("error", onError);
    return () => {
      for (const e of events) audio.removeEventListener(e, sync);
      audio.removeEventListener("error", onError);
      // A removed element would play on; leaving the list stops it.
      audio.pause();
    };
  }, [audio, load]);

  const rows = () => latest.current.o.tracks;
  const indexOfCurrent = () => {
    const id = latest.current.current?.id;
    return id === undefined ? -1 : rows().findIndex((t) => t.id === id);
  };
  const noteFocus = () => {
    moveFocus.current = document.activeElement?.hasAttribute(PLAY_BUTTON_ATTR) ?? false;
  };

  const seek = useSeek(latest, setNotice);

  /** A row's play button: another track starts; the current one pauses or goes on. */
  const start = useCallback((track: ReviewTrack) => {
    const { current, audio, loading, error } = latest.current;
    if (current?.id === track.id && audio && !error) {
      if (loading) return;
      if (audio.paused) void audio.play().catch(() => {});
      else audio.pause();
      return;
    }
    void load(track);
  }, [load]);

  /** Space: the current track pauses or goes on; with none yet, the first row starts. */
  const toggle = useCallback(() => {
    const { current } = latest.current;
    if (current) return start(current);
    const first = rows()[0];
    if (first) void load(first);
  }, [load, start]);

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

  // The next undecided row's listening link and peaks, and the start of its audio, are fetched ahead,
  // so it starts at once after the decision (decision 0225).
  useEffect(() => {
    if (!current || !o.isUndecided) return;
    const list = o.tracks;
    const upcoming = nextUndecided(list, list.findIndex((t) => t.id === current.id), current.id);
    if (!upcoming) return;
    let gone = false;
    void queryClient.fetchQuery(listenQuery(o.base, o.tracksKey, upcoming.id)).then((answer) => {
      if (gone || typeof Audio === "undefined") return;
      const el = ahead.current ?? (ahead.current = new Audio());
      el.preload = "auto";
      el.muted = true;
      if (el.getAttribute("src") !== answer.stream_url) el.src = answer.stream_url;
      const at = startAt(upcoming);
      if (at > 0) el.currentTime = at;
    }, () => {});
    return () => {
      gone = true;
    };
  }, [current?.id, o.tracks]);

  // A refetched list (analysis finished, directions edited) refreshes the playing track's row data.
  // (An update of the state as it is then: a track started in the same commit is not undone.)
  useEffect(() => {
    setCurrent((c) => {
      const fresh = c && o.tracks.find((t) => t.id === c.id);
      return fresh && fresh !== c ? fresh : c;
    });
  }, [o.tracks]);

  // The played row stays in view (declared last, as its effect was: the notice it clears is cleared
  // after the effects above have set theirs).
  useRowInView(current?.id, moveFocus, () => setNotice(""));

  return {
    /** Give it to the one `<audio>` element (the player bar renders it). */
    audioRef: setAudio,
    audio,
    current,
    listen,
    loading,
    playing,
    error,
    notice,
    duration: current ? (listen?.duration_s ?? current.analysis?.duration_s ?? null) : null,
    start,
    toggle,
    next,
    advance,
    /** Holds `track` ready (the address named it): it plays when the browser lets it, else waits for Play. */
    ready: useCallback((track: ReviewTrack) => void load(track), [load]),
    previous,
    ...seek,
    /** The view is done (decision 0276): nothing waits, the player stopped. */
    done,
    /** Another view is shown: the desk may move on again. */
    resume: useCallback(() => setDone(false), []),
    /** How many tracks were left with J and are not offered again (decision 0278). */
    skippedCount,
    /** Back to the tracks left with J: they are offered again, the first of them starts. */
    backToSkipped: useCallback(() => {
      const [first] = skipped.current.values();
      skipped.current.clear();
      setSkippedCount(0);
      if (first) void load(first, { at: startAt(first) });
    }, [load]),
  };
}

export type ReviewPlayer = ReturnType<typeof useReviewPlayer>;

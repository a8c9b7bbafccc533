import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../../../lib/api.ts";
import type { StaffBase } from "../../../lib/staff-queries.ts";
import type { ReviewTrack } from "./figures.ts";
import { useListenReports } from "./use-listen-reports.ts";
import { type ListenAnswer, listenQuery } from "./playable.ts";
import { useRowInView } from "./use-row-in-view.ts";
import { useSeek } from "./use-seek.ts";
import { useQueueWalk, type WalkOptions } from "./use-queue-walk.ts";

/**
 * The staff review player (issue 12 §2): one `<audio>` per track list, so one track plays at a time.
 * A track starts from its listening link (GET {base}/tracks/:id/listen: a signed, short-lived
 * address the `<audio>` streams with byte ranges, plus the stored waveform peaks, so the browser never
 * decodes the file). J/K walk the list and cross pages; the played row is kept in view. Opening a
 * track marks nothing: the time really played is reported (use-listen-reports.ts, issue 20).
 */

export interface ReviewPlayerOptions extends WalkOptions {
  base: StaffBase;
  tracksKey: readonly string[];
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
  /**
   * A start on its way (its link asked for, `play()` not yet answered), set and cleared where the
   * start itself moves on: a press reads this, not `loading`, which shows only once React has rendered
   * it (a press right after the browser refused to start was dropped until then; decision 0465).
   */
  const starting = useRef(false);
  const retried = useRef(false);
  /** The next track's audio, asked for ahead (decision 0225): detached, so the page keeps one player. */
  const ahead = useRef<HTMLAudioElement | null>(null);
  const moveFocus = useRef(false);
  const latest = useRef({ o, audio, current, listen, error });
  latest.current = { o, audio, current, listen, error };
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
    walk.onLoad(track);
    setCurrent(track);
    setError(null);
    starting.current = true;
    setLoading(true);
    if (!fresh) setListen(null);
    let answer: ListenAnswer;
    try {
      const q = listenQuery(o.base, o.tracksKey, track.id);
      answer = await queryClient.fetchQuery(fresh ? { ...q, staleTime: 0 } : q);
    } catch (err) {
      if (my !== seq.current) return;
      starting.current = false;
      setLoading(false);
      setError(errorText(err, o.texts.failed));
      return;
    }
    if (my !== seq.current) return;
    setListen(answer);
    const el = latest.current.audio;
    if (!el) {
      starting.current = false;
      return setLoading(false);
    }
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
      if (my === seq.current) {
        starting.current = false;
        setLoading(false);
      }
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
        starting.current = false;
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

  const seek = useSeek(latest, setNotice);

  /** A row's play button: another track starts; the current one pauses or goes on. */
  const start = useCallback((track: ReviewTrack) => {
    const { current, audio, error } = latest.current;
    if (current?.id === track.id && audio && !error) {
      // What the element does decides, not the start still settling: a press while the audio
      // already plays (its start not yet acknowledged) pauses it, like any other press.
      if (!audio.paused) return audio.pause();
      // Paused with its start still on its way: it is about to play, as the button shows.
      if (starting.current) return;
      void audio.play().catch(() => {});
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

  // The walk through the rows (J/K, after a decision, across pages); `load` tells it of each track
  // started through `walk.onLoad` (a stable callback, so the first render's is the one `load` keeps).
  const walk = useQueueWalk(o, { latest, load, setNotice, moveFocus });
  const { nextUndecided, startAt } = walk;

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
    next: walk.next,
    advance: walk.advance,
    /** Holds `track` ready (the address named it): it plays when the browser lets it, else waits for Play. */
    ready: useCallback((track: ReviewTrack) => void load(track), [load]),
    previous: walk.previous,
    ...seek,
    /** The view is done (decision 0276): nothing waits, the player stopped. */
    done: walk.done,
    /** Another view is shown: the desk may move on again. */
    resume: walk.resume,
    /** How many tracks were left with J and are not offered again (decision 0278). */
    skippedCount: walk.skippedCount,
    /** Back to the tracks left with J: they are offered again, the first of them starts. */
    backToSkipped: walk.backToSkipped,
  };
}

export type ReviewPlayer = ReturnType<typeof useReviewPlayer>;

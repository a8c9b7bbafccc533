import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { read } from "../../../lib/api.ts";
import { panel, type StaffBase, type TrackList } from "../../../lib/staff-queries.ts";

/**
 * The player's listening receipts (issue 20, decision 0197): the time the `<audio>` really played,
 * measured from `timeupdate` while playing, and reported to POST {base}/tracks/:id/listened every
 * few seconds of playing and on pause, end, track change, hiding and leaving the page. Seeks,
 * skips and loading count nothing: only the media time that advanced in small steps while playing
 * is added. The server caps every report again; a track becomes «Прослушан» there.
 */

/** Played seconds gathered before a report goes while the track plays on. */
export const REPORT_EVERY_S = 5;
/** A larger move of the position between two `timeupdate`s is a seek, not playing. */
const MAX_STEP_S = 2;
/** Less than this is not worth a request. */
const MIN_REPORT_S = 0.05;

export interface ListenReportOptions {
  /** The panel and its track query key prefix, read when a report goes. */
  current: () => { base: StaffBase; tracksKey: readonly string[] };
}

export function useListenReports(audio: HTMLAudioElement | null, o: ListenReportOptions) {
  const queryClient = useQueryClient();
  /** The track the element plays, what it played since the last report, and where it was last seen playing. */
  const state = useRef<{ id: number | null; pending: number; last: number | null }>({
    id: null,
    pending: 0,
    last: null,
  });
  /** Tracks this page already saw reach «Прослушан»: the lists are refreshed once per track. */
  const heard = useRef(new Set<number>());
  const opts = useRef(o);
  opts.current = o;

  const send = useCallback((id: number, seconds: number) => {
    const { base, tracksKey } = opts.current.current();
    // `keepalive` lets the last report outlive the page; it still carries the bearer token.
    read(
      panel(base).tracks[":id"].listened.$post(
        { param: { id: String(id) }, json: { seconds: Math.round(seconds * 1000) / 1000 } },
        { init: { keepalive: true } },
      ),
    )
      .then((answer) => {
        if (!answer.heard || heard.current.has(id)) return;
        heard.current.add(id);
        // The row reads «Прослушан» in place: the list is not read again, so rows decided at the desk
        // keep their places (issue 23, decision 0225). The track's own page reads it again.
        const by = new Map(answer.decisions.map((d) => [d.direction, d]));
        queryClient.setQueriesData<TrackList>({ queryKey: [...tracksKey, "list"] }, (old) =>
          old && {
            ...old,
            tracks: old.tracks.map((t) =>
              t.id === id ? { ...t, decisions: t.decisions.map((d) => ({ ...d, ...by.get(d.direction) })) } : t
            ),
          });
        void queryClient.invalidateQueries({ queryKey: [...tracksKey, "one", id] });
      })
      // Bookkeeping never disturbs listening.
      .catch(() => {});
  }, [queryClient]);

  /** Adds the play since the last seen position (a small forward step only). */
  const settle = useCallback(() => {
    const s = state.current;
    if (!audio || s.last === null || audio.seeking) return;
    const now = audio.currentTime;
    const step = now - s.last;
    if (step > 0 && step <= MAX_STEP_S * Math.max(1, audio.playbackRate || 1)) s.pending += step;
    s.last = now;
  }, [audio]);

  const flush = useCallback(() => {
    const s = state.current;
    if (s.id !== null && s.pending >= MIN_REPORT_S) send(s.id, s.pending);
    s.pending = 0;
  }, [send]);

  /** Before another track is loaded: what the current one played is reported, and nothing more counts. */
  const leave = useCallback(() => {
    if (audio && !audio.paused) settle();
    flush();
    state.current = { id: null, pending: 0, last: null };
  }, [audio, settle, flush]);

  /** The element now plays `id` (its address was just set). */
  const follow = useCallback((id: number) => {
    state.current = { id, pending: 0, last: null };
  }, []);

  useEffect(() => {
    if (!audio) return;
    const s = () => state.current;
    const onPlaying = () => {
      if (!audio.seeking) s().last = audio.currentTime;
    };
    const onTime = () => {
      if (audio.paused || s().last === null) return;
      settle();
      if (s().pending >= REPORT_EVERY_S) flush();
    };
    const onSeeking = () => {
      // The position already moved: the jump is not played time.
      s().last = null;
    };
    const onSeeked = () => {
      if (!audio.paused) s().last = audio.currentTime;
    };
    const onStop = () => {
      settle();
      s().last = null;
      flush();
    };
    const onHide = () => {
      if (document.visibilityState !== "hidden") return;
      settle();
      flush();
    };
    const onLeave = () => {
      settle();
      flush();
    };
    // One signal removes every listener below when the effect ends.
    const listening = new AbortController();
    const on = { signal: listening.signal };
    audio.addEventListener("playing", onPlaying, on);
    audio.addEventListener("timeupdate", onTime, on);
    audio.addEventListener("seeking", onSeeking, on);
    audio.addEventListener("seeked", onSeeked, on);
    audio.addEventListener("pause", onStop, on);
    audio.addEventListener("ended", onStop, on);
    audio.addEventListener("emptied", onStop, on);
    document.addEventListener("visibilitychange", onHide, on);
    globalThis.addEventListener("pagehide", onLeave, on);
    return () => {
      listening.abort();
      // Leaving the list: what was played is reported.
      if (!audio.paused) settle();
      flush();
      state.current = { id: null, pending: 0, last: null };
    };
  }, [audio, settle, flush]);

  return { leave, follow };
}

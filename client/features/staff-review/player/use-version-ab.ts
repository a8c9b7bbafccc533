import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { type StaffBase, staffTrackQuery } from "../../../lib/staff-queries.ts";
import type { TrackCommentView } from "../../../../domain/track-comments.ts";
import type { TrackAnalysis } from "./figures.ts";
import { listenQuery } from "./playable.ts";
import type { ReviewPlayer } from "./use-review-player.ts";
import { loudnessMatch, volumeOf } from "./loudness-match.ts";

/**
 * Heard side by side (issue 37, docs/decisions/0406): a track sent as a new version plays against
 * the version it replaces. B switches between them at the same moment; both play through their own
 * `<audio>` (the player's, and one more here), the louder turned down by the difference of their
 * integrated loudness (the element's gain, so a bucket's stream without CORS still plays). The
 * previous version's comments and report come with it.
 */

interface VersionFields {
  id: number;
  version_of?: number | null;
  version_number?: number;
  versions?: Array<{ id: number; number: number }>;
  analysis?: TrackAnalysis | null;
}

export type AbSide = "current" | "previous";

export function useVersionAB({ base, tracksKey, player }: {
  base: StaffBase;
  tracksKey: readonly string[];
  player: ReviewPlayer;
}) {
  const current = player.current as VersionFields | null;
  const previousId = current?.version_of ?? null;
  const prev = useQuery({ ...staffTrackQuery(base, tracksKey)(previousId ?? 0), enabled: previousId !== null });
  const prevListen = useQuery({ ...listenQuery(base, tracksKey, previousId ?? 0), enabled: previousId !== null });
  const previous = prev.data?.id === previousId ? prev.data as VersionFields & { comments?: TrackCommentView[] } : null;
  const other = useRef<HTMLAudioElement | null>(null);
  const [side, setSide] = useState<AbSide>("current");
  /**
   * The side as last chosen, before React renders it: the player's "play" event and the next B read
   * this, so a play that lands in between stops the other version rather than reading the side the
   * last render had (both versions would sound at once).
   */
  const sideRef = useRef<AbSide>("current");
  const choose = (next: AbSide) => {
    sideRef.current = next;
    setSide(next);
  };
  const match = loudnessMatch(current?.analysis?.loudness_lufs, previous?.analysis?.loudness_lufs);
  const main = player.audio;

  // The other version's element leaves with the desk.
  useEffect(() => () => {
    other.current?.pause();
    other.current?.remove();
    other.current = null;
  }, []);

  // Another track: back to it, the other version stopped, the player's level as it was.
  useEffect(() => {
    choose("current");
    other.current?.pause();
    if (main) main.volume = 1;
  }, [current?.id]);

  // The matched levels, while the track is a version with both loudness figures.
  useEffect(() => {
    if (!main) return;
    main.volume = previousId !== null ? volumeOf(match.current_db) : 1;
    if (other.current) other.current.volume = volumeOf(match.previous_db);
  }, [main, previousId, match.current_db, match.previous_db]);

  // Space (or Play) on the player while the other version sounds: back to this one at that moment.
  useEffect(() => {
    if (!main) return;
    const onPlay = () => {
      const o = other.current;
      if (sideRef.current !== "previous" || !o) return;
      main.currentTime = Math.min(o.currentTime, main.duration || o.currentTime);
      o.pause();
      choose("current");
    };
    main.addEventListener("play", onPlay);
    return () => main.removeEventListener("play", onPlay);
  }, [main]);

  const toggle = useCallback(() => {
    const url = prevListen.data?.stream_url;
    if (!main || previousId === null || !url) return;
    let o = other.current;
    if (!o) {
      // In the page (hidden, no controls), so the tests can read its level and position.
      o = other.current = document.createElement("audio");
      o.dataset.versionAb = "previous";
      o.hidden = true;
      document.body.appendChild(o);
    }
    o.preload = "auto";
    o.volume = volumeOf(match.previous_db);
    if (sideRef.current === "current") {
      const at = main.currentTime;
      main.pause();
      if (o.getAttribute("src") !== url) o.src = url;
      const start = () => {
        // Back on this version before the other one could start: it stays silent.
        if (sideRef.current !== "previous") return;
        o.currentTime = Math.min(at, o.duration || at);
        void o.play().catch(() => {});
      };
      if (o.readyState >= 1) start();
      else o.addEventListener("loadedmetadata", start, { once: true });
      choose("previous");
    } else {
      const at = o.currentTime;
      o.pause();
      choose("current");
      main.currentTime = Math.min(at, main.duration || at);
      void main.play().catch(() => {});
    }
  }, [main, previousId, prevListen.data?.stream_url, match.previous_db]);

  return {
    /** The track is a new version and the previous one can be heard. */
    active: previousId !== null,
    ready: previousId !== null && Boolean(prevListen.data?.stream_url),
    side,
    toggle,
    match,
    current,
    previous,
    /** The other version's element (tests read its level and position). */
    other,
  };
}

export type VersionAB = ReturnType<typeof useVersionAB>;

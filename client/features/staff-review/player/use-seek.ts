import { useCallback } from "react";
import type { ReviewTrack } from "./figures.ts";
import type { ListenAnswer } from "./playable.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";

export const SEEK_STEP_S = 5;

/** What the seeking reads of the player as it is now (the player's `latest`). */
interface SeekState {
  audio: HTMLAudioElement | null;
  current: ReviewTrack | null;
  listen: ListenAnswer | null;
  o: { texts: PlayerTexts };
}

/** The player's seeking (issue 12): to a moment, five seconds back or on, and D to the drop. */
export function useSeek(latest: { readonly current: SeekState }, setNotice: (notice: string) => void) {
  const duration = () => {
    const { audio, listen } = latest.current;
    return audio && Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : listen?.duration_s ?? null;
  };

  const seekTo = useCallback((seconds: number) => {
    const { audio } = latest.current;
    if (!audio || !latest.current.current) return;
    const end = duration();
    audio.currentTime = Math.max(0, end === null ? seconds : Math.min(seconds, end));
  }, []);

  const seekBy = useCallback((delta: number) => {
    const { audio } = latest.current;
    if (audio) seekTo((audio.currentTime || 0) + delta);
  }, [seekTo]);

  /** D: to the drop the analysis found, playing from there. */
  const toDrop = useCallback(() => {
    const { current, audio, o } = latest.current;
    if (!current || !audio) return;
    const drop = current.analysis?.drop_s;
    if (drop === null || drop === undefined) {
      setNotice(o.texts.noDrop);
      return;
    }
    seekTo(drop);
    if (audio.paused) void audio.play().catch(() => {});
  }, [seekTo]);

  return {
    seekTo,
    back: useCallback(() => seekBy(-SEEK_STEP_S), [seekBy]),
    forward: useCallback(() => seekBy(SEEK_STEP_S), [seekBy]),
    toDrop,
  };
}

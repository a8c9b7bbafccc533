import { PauseIcon, PlayIcon } from "../../../components/icons.tsx";
import { PHONE_QUERY, useMediaQuery } from "../../../components/ui/use-media-query.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";
import { TrackReport } from "./track-report.tsx";
import type { ReviewPlayer } from "./use-review-player.ts";
import { Waveform, type WaveMarker } from "./waveform.tsx";
import { commentMarkers, CommentsPanel } from "../comments/comments-panel.tsx";
import type { CommentTexts } from "../texts/comment-texts.ts";
import type { TrackCommentsState } from "../comments/use-track-comments.ts";
import "../../../components/ui/staff.css";
import "./player.css";
import "./player-phone.css";

const Svg = ({ children }: { children: React.ReactNode }) => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    {children}
  </svg>
);
const PrevIcon = () => (
  <Svg>
    <path d="M6 5h2v14H6zM20 5v14L9 12z" />
  </Svg>
);
const NextIcon = () => (
  <Svg>
    <path d="M16 5h2v14h-2zM4 5v14l11-7z" />
  </Svg>
);

/** «С дропа»: a track the player moves on to starts at its drop (remembered in this browser). */
export function FromDropSwitch(
  { fromDrop, texts }: {
    fromDrop: { on: boolean; toggle: () => void };
    texts: Pick<PlayerTexts, "fromDrop" | "fromDropTitle">;
  },
) {
  return (
    <button
      type="button"
      role="switch"
      className="st-btn st-btn-sm st-from-drop"
      aria-checked={fromDrop.on}
      title={texts.fromDropTitle}
      onClick={fromDrop.toggle}
    >
      <span aria-hidden="true">{fromDrop.on ? "● " : "○ "}</span>
      {texts.fromDrop}
    </button>
  );
}

/**
 * The player bar under a staff track list (issue 12 §2): the one `<audio>`, the track's name, the
 * waveform with elapsed and total time, the controls (each a named button with its key in
 * `aria-keyshortcuts`, so screen-reader users have every key's action) and the technical report.
 */
export function PlayerBar(
  { player, texts, dock, fromDrop, comments, extraMarkers, versionBar }: {
    player: ReviewPlayer;
    texts: PlayerTexts;
    /** The decision dock for the track playing (issue 23), under the player. */
    dock?: React.ReactNode;
    /** «С дропа»: a track the player moves on to starts at its drop (remembered in this browser). */
    fromDrop?: { on: boolean; toggle: () => void };
    /** The comments on the waveform (issue 24): markers, a dragged range, the list beside the report. */
    comments?: { state: TrackCommentsState; texts: CommentTexts };
    /** Issue 37: the previous version's comments on this waveform. */
    extraMarkers?: readonly WaveMarker[];
    /** Issue 37: «v2 of #N», the changes and the A/B switch, above the waveform. */
    versionBar?: React.ReactNode;
  },
) {
  const { current, listen, playing, loading, error, notice } = player;
  const phone = useMediaQuery(PHONE_QUERY);
  const drop = current?.analysis?.drop_s ?? null;
  const live = notice || (current && playing ? texts.nowPlaying(current.filename) : "");
  return (
    <section className="st-player" aria-label={texts.region} data-playing={playing || undefined}>
      <audio ref={player.audioRef} preload="none" />
      <p className="visually-hidden" role="status" aria-live="polite">{live}</p>
      {!current
        ? (
          <p className="st-player-idle">
            {texts.idle} <span className="st-muted st-small">{texts.keysHint}</span>
          </p>
        )
        : (
          <>
            <div className="st-player-main">
              <div className="st-player-title">
                <strong>{current.filename}</strong>
                {loading && <span className="st-muted st-small">{texts.loading}</span>}
                {error && <span className="st-player-error" role="alert">{error}</span>}
              </div>
              {versionBar}
              <Waveform
                audio={player.audio}
                peaks={listen?.peaks ?? null}
                duration={player.duration}
                drop={drop}
                onSeek={player.seekTo}
                texts={texts}
                markers={[...(comments ? commentMarkers(comments.state, comments.texts) : []), ...(extraMarkers ?? [])]}
                onRange={comments?.state.startRange}
              />
              <div className="st-player-controls" role="group" aria-label={texts.region}>
                <button
                  type="button"
                  className="st-btn st-btn-sm st-icon-btn st-player-skip"
                  aria-label={texts.previous}
                  aria-keyshortcuts="K"
                  title={`${texts.previous} (K)`}
                  onClick={player.previous}
                >
                  <PrevIcon />
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-primary st-player-toggle"
                  aria-label={texts.playPause}
                  aria-pressed={playing}
                  aria-keyshortcuts="Space"
                  title={`${texts.playPause} (Space)`}
                  onClick={player.toggle}
                >
                  {playing ? <PauseIcon /> : <PlayIcon />}
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-sm st-icon-btn st-player-skip"
                  aria-label={texts.next}
                  aria-keyshortcuts="J"
                  title={`${texts.next} (J)`}
                  onClick={player.next}
                >
                  <NextIcon />
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-sm"
                  aria-keyshortcuts="ArrowLeft"
                  title={`${texts.back5} (←)`}
                  onClick={player.back}
                >
                  <span aria-hidden="true">−5 {texts.secondsShort}</span>
                  <span className="visually-hidden">{texts.back5}</span>
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-sm"
                  aria-keyshortcuts="ArrowRight"
                  title={`${texts.forward5} (→)`}
                  onClick={player.forward}
                >
                  <span aria-hidden="true">+5 {texts.secondsShort}</span>
                  <span className="visually-hidden">{texts.forward5}</span>
                </button>
                <button
                  type="button"
                  className="st-btn st-btn-sm"
                  aria-keyshortcuts="D"
                  title={drop === null ? texts.noDrop : `${texts.toDrop} (D)`}
                  disabled={drop === null}
                  onClick={player.toDrop}
                >
                  {texts.toDrop}
                </button>
                {fromDrop && <FromDropSwitch fromDrop={fromDrop} texts={texts} />}
              </div>
              {/* On a phone the comments are in the dock's sheet (issue 31): the bar stays short. */}
              {comments && !phone && <CommentsPanel state={comments.state} texts={comments.texts} />}
            </div>
            <TrackReport analysis={current.analysis} texts={texts} />
            {dock}
          </>
        )}
    </section>
  );
}

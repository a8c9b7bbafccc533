import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { COMMENT_SIGNATURE } from "../../../domain/track-comments.ts";
import { useAudioTime, useWaveCanvas } from "../../components/ui/wave-drawing.ts";
import { formatDuration } from "../../lib/format.ts";
import { ownListenQuery } from "./api.ts";
import "./comment-player.css";

/** A comment the label shared on the artist's track (GET /api/tracks/history `comments`). */
export interface SharedComment {
  at_s: number;
  end_s: number | null;
  text: string;
}

export const COMMENT_PLAYER_TEXTS = {
  region: "Комментарии команды лейбла к треку",
  play: "Слушать",
  pause: "Пауза",
  position: "Позиция воспроизведения",
  playFrom: (at: string) => `Слушать с ${at}`,
  marker: (at: string, text: string) => `Комментарий на ${at}: ${text}`,
  failed: "Не удалось загрузить трек для прослушивания",
} as const;

const span = (c: SharedComment) =>
  c.end_s === null ? formatDuration(c.at_s) : `${formatDuration(c.at_s)}–${formatDuration(c.end_s)}`;

/**
 * The artist's own track with the label's shared comments (issue 24, decision 0232): the waveform
 * from the stored peaks with a marker per comment, a player of their own file through their own
 * signed listening link, and each comment's text signed «Команда лейбла», never a staff name. A
 * marker or a comment's moment plays from there.
 */
export function CommentPlayer(
  { trackId, comments, durationS }: { trackId: number; comments: readonly SharedComment[]; durationS: number | null },
) {
  const listen = useQuery(ownListenQuery(trackId));
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  const time = useAudioTime(audio);
  const length = listen.data?.duration_s ?? durationS ?? 0;
  const { boxRef, canvasRef } = useWaveCanvas({
    peaks: listen.data?.peaks ?? null,
    progress: length > 0 ? Math.min(1, time / length) : 0,
    drop: null,
  });
  const pct = (s: number) => `${(Math.min(length, Math.max(0, s)) / (length || 1)) * 100}%`;

  const playFrom = (at: number) => {
    if (!audio) return;
    audio.currentTime = at;
    void audio.play().catch(() => {});
  };
  const toggle = () => {
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => {});
    else audio.pause();
  };

  return (
    <section className="comment-player" aria-label={COMMENT_PLAYER_TEXTS.region} data-testid="comment-player">
      <audio
        ref={setAudio}
        preload="none"
        src={listen.data?.stream_url}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
      <p className="comment-player-title">{COMMENT_PLAYER_TEXTS.region}</p>
      <div className="comment-player-row">
        <button
          type="button"
          className="btn btn-primary comment-player-toggle"
          aria-pressed={playing}
          disabled={!listen.data}
          onClick={toggle}
        >
          {playing ? COMMENT_PLAYER_TEXTS.pause : COMMENT_PLAYER_TEXTS.play}
        </button>
        <span className="comment-player-time" data-testid="comment-player-time">
          {formatDuration(time)} / {formatDuration(length || null)}
        </span>
      </div>
      <div className="comment-wave-stack">
        <div
          ref={boxRef}
          className="comment-wave"
          role="slider"
          tabIndex={0}
          aria-label={COMMENT_PLAYER_TEXTS.position}
          aria-valuemin={0}
          aria-valuemax={Math.round(length)}
          aria-valuenow={Math.round(Math.min(time, length))}
          aria-valuetext={`${formatDuration(time)} из ${formatDuration(length || null)}`}
          onClick={(e) => {
            const rect = e.currentTarget.getBoundingClientRect();
            if (rect.width > 0 && length) playFrom(((e.clientX - rect.left) / rect.width) * length);
          }}
        >
          <canvas ref={canvasRef} className="comment-wave-canvas" />
        </div>
        {/* Beside the slider, not in it: a slider's children are presentational (ARIA), buttons are not. */}
        {length > 0 && (
          <div className="comment-markers">
            {comments.map((c, i) => (
              <button
                key={i}
                type="button"
                className="comment-marker"
                data-at={c.at_s}
                style={{
                  left: pct(c.at_s),
                  ...(c.end_s !== null ? { width: `calc(${pct(c.end_s)} - ${pct(c.at_s)})` } : {}),
                }}
                aria-label={COMMENT_PLAYER_TEXTS.marker(span(c), c.text)}
                title={c.text}
                onClick={(e) => {
                  e.stopPropagation();
                  playFrom(c.at_s);
                }}
              />
            ))}
          </div>
        )}
      </div>
      {listen.isError && <p className="track-failure" role="alert">{COMMENT_PLAYER_TEXTS.failed}</p>}
      <ol className="comment-items">
        {comments.map((c, i) => (
          <li key={i} className="comment-item" data-testid="shared-comment">
            <button
              type="button"
              className="comment-at"
              aria-label={COMMENT_PLAYER_TEXTS.playFrom(span(c))}
              onClick={() => playFrom(c.at_s)}
            >
              {span(c)}
            </button>
            <div className="comment-item-body">
              <p className="comment-text">{c.text}</p>
              <p className="comment-signature">{COMMENT_SIGNATURE}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

import { useEffect, useRef, useState } from "react";
import { CheckIcon, CrossIcon, PauseIcon, PlayIcon, TrashIcon } from "../../components/icons.tsx";
import { formatClock } from "./upload-rules.ts";

/** A file in the list (spec 1 §3 "Upload item"); `isPlaying` is derived from the page's one player. */
export interface UploadItem {
  id: string;
  file: File;
  name: string;
  valid: boolean;
  progress: number;
  audioUrl: string;
  /**
   * The share (0–100) an unfinished upload of this very file already holds on the server (issue 26):
   * the row offers «Продолжить» from there. `null`: nothing to resume.
   */
  resume: number | null;
}

interface Props {
  item: UploadItem;
  playing: boolean;
  showProgress: boolean;
  locked: boolean;
  onPlay(): void;
  onStop(): void;
  onRemove(): void;
  /** Continues this file's stored upload. */
  onResume(): void;
}

/** One row: validity mark, name, remove button, preview player and, while sending, progress. */
export function FileRow({ item, playing, showProgress, locked, onPlay, onStop, onRemove, onResume }: Props) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    if (playing) {
      audio.play()?.catch(() => onStop());
    } else if (!audio.paused) {
      audio.pause();
    }
  }, [playing]);

  const ended = () => {
    const audio = audioRef.current;
    if (audio) audio.currentTime = 0;
    setCurrent(0);
    onStop();
  };

  const seek = (value: number) => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.currentTime = value;
    setCurrent(value);
  };

  const errorId = `${item.id}-error`;
  // While sending, the live share; otherwise what a stored upload already holds.
  const shown = locked ? item.progress : (item.resume ?? item.progress);
  return (
    <li
      className={item.valid ? "file-row" : "file-row file-row-invalid"}
      data-testid="file-row"
      data-valid={item.valid}
    >
      <div className="file-head">
        <span
          className={item.valid ? "file-status file-status-valid" : "file-status file-status-invalid"}
          role="img"
          aria-label={item.valid ? "Имя файла в порядке" : "Неверный формат имени"}
        >
          {item.valid ? <CheckIcon size={16} /> : <CrossIcon size={16} />}
        </span>
        <span className="file-name" aria-describedby={item.valid ? undefined : errorId}>{item.name}</span>
        <button
          type="button"
          className="icon-btn icon-btn-danger"
          aria-label={`Удалить ${item.name}`}
          onClick={onRemove}
          disabled={locked}
        >
          <TrashIcon />
        </button>
      </div>
      {!item.valid && (
        <p className="file-error" id={errorId}>
          Неверный формат имени файла. Нужно: «Артист - Название.mp3»
        </p>
      )}
      <div className="player">
        <button
          type="button"
          className={playing ? "icon-btn icon-btn-accent" : "icon-btn"}
          aria-label={playing ? `Пауза: ${item.name}` : `Слушать: ${item.name}`}
          aria-pressed={playing}
          onClick={playing ? onStop : onPlay}
        >
          {playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <input
          type="range"
          className="seek"
          min={0}
          max={duration || 0}
          step={0.1}
          value={Math.min(current, duration || 0)}
          onChange={(e) => seek(Number(e.currentTarget.value))}
          aria-label={`Позиция воспроизведения: ${item.name}`}
          aria-valuetext={`${formatClock(current)} из ${formatClock(duration)}`}
          disabled={!duration}
        />
        <span className="player-time">
          {formatClock(current)} / {formatClock(duration)}
        </span>
        <audio
          ref={audioRef}
          src={item.audioUrl}
          preload="metadata"
          onLoadedMetadata={(e) => setDuration(e.currentTarget.duration)}
          onDurationChange={(e) => Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)}
          onTimeUpdate={(e) => setCurrent(e.currentTarget.currentTime)}
          onPause={() => playing && !audioRef.current?.ended && onStop()}
          onEnded={ended}
        />
      </div>
      {showProgress && (
        <div className="progress-row">
          <div
            className="progress"
            role="progressbar"
            aria-label={`Загрузка: ${item.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={shown}
          >
            <div className="progress-bar" style={{ width: `${shown}%` }} />
          </div>
          <span className="progress-value">{shown}%</span>
          {!locked && item.resume !== null && (
            <button
              type="button"
              className="btn btn-primary btn-resume"
              aria-label={`Продолжить: ${item.name}`}
              onClick={onResume}
            >
              Продолжить
            </button>
          )}
        </div>
      )}
    </li>
  );
}

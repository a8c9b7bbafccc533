import { useEffect, useRef, useState } from "react";
import { formatDuration } from "../../../lib/format.ts";
import type { PlayerTexts } from "./player-texts.ts";

/**
 * The waveform of the playing track, drawn on a <canvas> from the peaks the server stored (about
 * 1,000 [min, max] pairs), so the browser never decodes the file (decision 0142: our own ~100 lines
 * instead of wavesurfer.js or peaks.js). A click seeks; the drop is marked; as a `slider` it tells
 * screen readers the position, and Home/End jump to either end (the arrows are the page's ←/→).
 */

export type Peaks = ReadonlyArray<readonly [number, number]>;

export const WAVE_COLORS = { played: "#c6ff00", rest: "#4d4d63", drop: "#ffb020" };
const BAR_PX = 2;
const GAP_PX = 1;

export interface WaveDrawing {
  width: number;
  height: number;
  peaks: Peaks | null;
  /** 0..1 of the track played. */
  progress: number;
  /** 0..1 where the drop is, or null. */
  drop: number | null;
}

/**
 * Draws bars of BAR_PX with GAP_PX between them, each the extent of the peaks under it, the played
 * share in the accent. Without peaks (not analysed yet) a thin line shows the progress.
 */
export function drawWaveform(ctx: CanvasRenderingContext2D, d: WaveDrawing) {
  const { width, height, peaks } = d;
  ctx.clearRect(0, 0, width, height);
  const mid = height / 2;
  const playedTo = d.progress * width;
  if (!peaks || peaks.length === 0) {
    ctx.fillStyle = WAVE_COLORS.rest;
    ctx.fillRect(0, mid - 1, width, 2);
    ctx.fillStyle = WAVE_COLORS.played;
    ctx.fillRect(0, mid - 1, playedTo, 2);
  } else {
    const step = BAR_PX + GAP_PX;
    const bars = Math.max(1, Math.floor(width / step));
    for (let b = 0; b < bars; b++) {
      const from = Math.floor((b / bars) * peaks.length);
      const to = Math.max(from + 1, Math.floor(((b + 1) / bars) * peaks.length));
      let lo = 0;
      let hi = 0;
      for (let i = from; i < to && i < peaks.length; i++) {
        if (peaks[i][0] < lo) lo = peaks[i][0];
        if (peaks[i][1] > hi) hi = peaks[i][1];
      }
      const top = mid - Math.min(1, hi) * mid;
      const bottom = mid - Math.max(-1, lo) * mid;
      const x = b * step;
      ctx.fillStyle = x < playedTo ? WAVE_COLORS.played : WAVE_COLORS.rest;
      ctx.fillRect(x, top, BAR_PX, Math.max(1, bottom - top));
    }
  }
  if (d.drop !== null) {
    ctx.fillStyle = WAVE_COLORS.drop;
    ctx.fillRect(Math.min(width - 2, Math.round(d.drop * width)), 0, 2, height);
  }
}

/** The element's position, followed on every frame while it plays and on each seek. */
export function useAudioTime(audio: HTMLAudioElement | null): number {
  const [time, setTime] = useState(0);
  useEffect(() => {
    if (!audio) return;
    let frame = 0;
    const read = () => setTime(audio.currentTime || 0);
    const loop = () => {
      read();
      frame = requestAnimationFrame(loop);
    };
    const onPlay = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(loop);
    };
    const onStop = () => {
      cancelAnimationFrame(frame);
      read();
    };
    const events: Array<[string, () => void]> = [
      ["playing", onPlay],
      ["pause", onStop],
      ["ended", onStop],
      ["seeked", read],
      ["timeupdate", read],
      ["emptied", read],
    ];
    for (const [e, f] of events) audio.addEventListener(e, f);
    read();
    if (!audio.paused) onPlay();
    return () => {
      cancelAnimationFrame(frame);
      for (const [e, f] of events) audio.removeEventListener(e, f);
    };
  }, [audio]);
  return time;
}

interface WaveformProps {
  audio: HTMLAudioElement | null;
  peaks: Peaks | null;
  /** Seconds; the peaks and the drop are placed on it. */
  duration: number | null;
  drop: number | null;
  onSeek: (seconds: number) => void;
  texts: PlayerTexts;
}

export function Waveform({ audio, peaks, duration, drop, onSeek, texts }: WaveformProps) {
  const time = useAudioTime(audio);
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const length = duration && duration > 0 ? duration : 0;
  const progress = length ? Math.min(1, time / length) : 0;
  const dropAt = length && drop !== null ? Math.min(1, drop / length) : null;

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    setWidth(box.clientWidth);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setWidth(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return;
    const height = canvas.clientHeight || 56;
    const ratio = globalThis.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    drawWaveform(ctx, { width, height, peaks, progress, drop: dropAt });
  }, [width, peaks, progress, dropAt]);

  const seekAt = (clientX: number) => {
    const box = boxRef.current;
    if (!box || !length) return;
    const rect = box.getBoundingClientRect();
    if (rect.width <= 0) return;
    onSeek(Math.min(1, Math.max(0, (clientX - rect.left) / rect.width)) * length);
  };

  const valueText = `${formatDuration(time)} ${texts.of} ${formatDuration(length || null)}`;
  return (
    <div className="st-wave-row">
      <span className="st-time" aria-hidden="true">{formatDuration(time)}</span>
      <div
        ref={boxRef}
        className="st-wave"
        role="slider"
        tabIndex={0}
        aria-label={texts.position}
        aria-valuemin={0}
        aria-valuemax={Math.round(length)}
        aria-valuenow={Math.round(Math.min(time, length))}
        aria-valuetext={valueText}
        data-peaks={peaks?.length ?? 0}
        onClick={(e) => seekAt(e.clientX)}
        onKeyDown={(e) => {
          if (e.key === "Home") onSeek(0);
          else if (e.key === "End" && length) onSeek(length);
          else return;
          e.preventDefault();
        }}
      >
        <canvas ref={canvasRef} className="st-wave-canvas" />
        {dropAt !== null && (
          <span className="st-wave-drop" style={{ left: `${dropAt * 100}%` }} aria-hidden="true">
            {texts.drop}
          </span>
        )}
      </div>
      <span className="st-time" aria-hidden="true">{formatDuration(length || null)}</span>
    </div>
  );
}

import { useEffect, useRef, useState } from "react";

/**
 * The waveform drawing shared by the staff player and the artist's history (issue 24): bars from
 * the stored peaks (about 1,000 [min, max] pairs) on a <canvas>, so the browser never decodes the
 * file (decision 0142), and the position of an `<audio>` followed on every frame while it plays.
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

/**
 * A box and its <canvas>, the waveform drawn at the box's width (followed on resize) and the
 * device's pixel ratio; drawn again when `d` changes.
 */
export function useWaveCanvas(d: Omit<WaveDrawing, "width" | "height">) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
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
    drawWaveform(ctx, { width, height, ...d });
  }, [width, d.peaks, d.progress, d.drop]);
  return { boxRef, canvasRef };
}

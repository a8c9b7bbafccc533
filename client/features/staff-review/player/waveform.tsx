import { useRef, useState } from "react";
import { formatDuration } from "../../../lib/format.ts";
import { type Peaks, useAudioTime, useWaveCanvas } from "../../../components/ui/wave-drawing.ts";
import type { PlayerTexts } from "../texts/player-texts.ts";

export {
  drawWaveform,
  type Peaks,
  useAudioTime,
  WAVE_COLORS,
  type WaveDrawing,
} from "../../../components/ui/wave-drawing.ts";

/**
 * The waveform of the playing track, drawn on a <canvas> from the peaks the server stored (about
 * 1,000 [min, max] pairs), so the browser never decodes the file (decision 0142: our own ~100 lines
 * instead of wavesurfer.js or peaks.js). A click seeks; the drop is marked; as a `slider` it tells
 * screen readers the position, and Home/End jump to either end (the arrows are the page's ←/→).
 */

interface WaveformProps {
  audio: HTMLAudioElement | null;
  peaks: Peaks | null;
  /** Seconds; the peaks and the drop are placed on it. */
  duration: number | null;
  drop: number | null;
  onSeek: (seconds: number) => void;
  texts: PlayerTexts;
  /** Comments pinned to moments (issue 24): a marker each, a band for a range; a click seeks there. */
  markers?: readonly WaveMarker[];
  /** A range dragged across the waveform (issue 24): a comment over it is started. */
  onRange?: (from: number, to: number) => void;
}

/** A comment on the waveform. */
export interface WaveMarker {
  id: number;
  at_s: number;
  end_s: number | null;
  /** The marker's accessible name and title, e.g. «Комментарий на 0:20: …». */
  label: string;
  shared: boolean;
  /** Issue 37: a comment on the previous version of the track, shown at its moment. */
  previous?: boolean;
}

/** Pixels a pointer must travel across the waveform before a press is a range rather than a click. */
const DRAG_PX = 6;

export function Waveform({ audio, peaks, duration, drop, onSeek, texts, markers, onRange }: WaveformProps) {
  const time = useAudioTime(audio);
  const length = duration && duration > 0 ? duration : 0;
  const progress = length ? Math.min(1, time / length) : 0;
  const dropAt = length && drop !== null ? Math.min(1, drop / length) : null;

  const { boxRef, canvasRef } = useWaveCanvas({ peaks, progress, drop: dropAt });

  /** Seconds under a pointer at `clientX`, or null without a length. */
  const secondsAt = (clientX: number): number | null => {
    const box = boxRef.current;
    if (!box || !length) return null;
    const rect = box.getBoundingClientRect();
    if (rect.width <= 0) return null;
    return Math.min(1, Math.max(0, (clientX - rect.left) / rect.width)) * length;
  };
  const seekAt = (clientX: number) => {
    const at = secondsAt(clientX);
    if (at !== null) onSeek(at);
  };
  // A press dragged across the waveform selects a range; the click that ends it does not seek.
  const drag = useRef<{ x: number; moved: boolean } | null>(null);
  const [band, setBand] = useState<{ from: number; to: number } | null>(null);
  const pct = (s: number) => `${(Math.min(length, Math.max(0, s)) / (length || 1)) * 100}%`;

  const valueText = `${formatDuration(time)} ${texts.of} ${formatDuration(length || null)}`;
  return (
    <div className="st-wave-row">
      <span className="st-time" aria-hidden="true">{formatDuration(time)}</span>
      <div className="st-wave-stack">
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
          onClick={(e) => {
            if (drag.current?.moved) {
              drag.current = null;
              return;
            }
            drag.current = null;
            seekAt(e.clientX);
          }}
          onPointerDown={onRange
            ? (e) => {
              if (e.button !== 0 || (e.target as Element).closest("button")) return;
              drag.current = { x: e.clientX, moved: false };
            }
            : undefined}
          onPointerMove={onRange
            ? (e) => {
              const d = drag.current;
              if (!d || (!d.moved && Math.abs(e.clientX - d.x) < DRAG_PX)) return;
              d.moved = true;
              const a = secondsAt(d.x);
              const b = secondsAt(e.clientX);
              if (a !== null && b !== null) setBand({ from: Math.min(a, b), to: Math.max(a, b) });
            }
            : undefined}
          onPointerUp={onRange
            ? () => {
              if (drag.current?.moved && band && band.to > band.from) onRange(band.from, band.to);
              if (!drag.current?.moved) drag.current = null;
              setBand(null);
            }
            : undefined}
          onKeyDown={(e) => {
            if (e.key === "Home") onSeek(0);
            else if (e.key === "End" && length) onSeek(length);
            else return;
            e.preventDefault();
          }}
        >
          <canvas ref={canvasRef} className="st-wave-canvas" />
          {band && (
            <span
              className="st-wave-band st-wave-band-live"
              style={{ left: pct(band.from), width: `calc(${pct(band.to)} - ${pct(band.from)})` }}
              aria-hidden="true"
            />
          )}
          {dropAt !== null && (
            <span className="st-wave-drop" style={{ left: `${dropAt * 100}%` }} aria-hidden="true">
              {texts.drop}
            </span>
          )}
        </div>
        {/* Beside the slider, not in it: a slider's children are presentational (ARIA), buttons are not. */}
        {length > 0 && markers && markers.length > 0 && (
          <div className="st-wave-markers">
            {markers.map((m) => (
              <button
                key={m.id}
                type="button"
                className="st-wave-marker"
                data-shared={m.shared || undefined}
                data-previous={m.previous || undefined}
                data-at={m.at_s}
                style={{
                  left: pct(m.at_s),
                  ...(m.end_s !== null ? { width: `calc(${pct(m.end_s)} - ${pct(m.at_s)})` } : {}),
                }}
                title={m.label}
                aria-label={m.label}
                onClick={(e) => {
                  e.stopPropagation();
                  onSeek(m.at_s);
                }}
              />
            ))}
          </div>
        )}
      </div>
      <span className="st-time" aria-hidden="true">{formatDuration(length || null)}</span>
    </div>
  );
}

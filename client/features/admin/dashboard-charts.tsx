import { useLayoutEffect, useState } from "react";

/** Timeline bar height in percent of the chart: 5 + 95 × value / max (spec 2 "Admin statistics dashboard"). */
export function timelineBarHeight(value: number, max: number): number {
  if (!(max > 0)) return 5;
  return 5 + (95 * Math.max(0, value)) / max;
}

export const NO_CHART_DATA = "Нет данных для отображения";

/*
 * Room a label or number needs at the chart's 11 px type: about 7 px a character plus a gap. An
 * estimate is enough: it only decides how many labels are left out, never how one is drawn.
 */
const CHAR_PX = 7;
const LABEL_GAP_PX = 8;
const BAR_GAP_PX = 4;

/**
 * Every how many buckets a label is shown so that labels never crowd at this chart width: 1 when
 * all fit (or the width is unknown), else labels are spaced evenly counting back from the last,
 * current bucket, which is always named.
 */
export function timelineLabelStep(labels: string[], widthPx: number): number {
  if (!(widthPx > 0) || labels.length === 0) return 1;
  const longest = Math.max(...labels.map((l) => l.length));
  const perColumn = widthPx / labels.length;
  return Math.max(1, Math.ceil((longest * CHAR_PX + LABEL_GAP_PX) / perColumn));
}

/** The width of an element's box, followed as the window changes (0 until it is laid out). */
function useBoxWidth(): [(el: HTMLElement | null) => void, number] {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, width];
}

export function TimelineChart({ labels, data }: { labels: string[]; data: number[] }) {
  const [boxRef, width] = useBoxWidth();
  const max = Math.max(0, ...data);
  if (data.length === 0 || max === 0) return <p className="st-empty">{NO_CHART_DATA}</p>;
  // Thirty days on a phone leave about 10 px a bar: name every few days and leave the numbers to
  // the tooltip and the chart's accessible name rather than print them on top of each other.
  const step = timelineLabelStep(labels, width);
  const last = labels.length - 1;
  const column = width > 0 ? width / data.length - BAR_GAP_PX : Infinity;
  const showNumbers = String(max).length * CHAR_PX <= column;
  return (
    <div ref={boxRef}>
      <div className="st-chart" role="img" aria-label={labels.map((l, i) => `${l}: ${data[i] ?? 0}`).join(", ")}>
        {data.map((value, i) => (
          <div key={`${labels[i]}-${i}`} className="st-chart-col" title={`${labels[i] ?? ""}: ${value}`}>
            {showNumbers && <span className="st-chart-num">{value}</span>}
            <div
              className="st-chart-bar"
              data-testid="timeline-bar"
              style={{ height: `${timelineBarHeight(value, max)}%` }}
            />
          </div>
        ))}
      </div>
      <div className="st-chart-labels" aria-hidden="true">
        {labels.map((l, i) => {
          const named = (last - i) % step === 0;
          // Wider than its bar when spaced out: centred under it, but the edge ones stay inside the chart.
          const edge = step > 1 ? (i === last ? " st-chart-label-end" : i === 0 ? " st-chart-label-start" : "") : "";
          return (
            <span key={`${l}-${i}`} className={step > 1 ? "st-chart-slot-spaced" : undefined}>
              {named && <span className={`st-chart-label${edge}`} title={l}>{l}</span>}
            </span>
          );
        })}
      </div>
    </div>
  );
}

/** Horizontal bars; width is value / scale (platforms: total users; directions: the maximum). */
export function HorizontalBars({ rows, scale }: { rows: Array<{ label: string; value: number }>; scale: number }) {
  return (
    <div className="st-hbars">
      {rows.map((r) => (
        <div key={r.label} className="st-hbar-row">
          <span>{r.label}</span>
          <div className="st-hbar-track" aria-hidden="true">
            <div
              className="st-hbar-fill"
              data-testid="hbar"
              style={{ width: `${scale > 0 ? Math.min(100, (100 * r.value) / scale) : 0}%` }}
            />
          </div>
          <span className="st-hbar-value">{r.value}</span>
        </div>
      ))}
    </div>
  );
}

/** Two-slice pie (downloaded vs not) drawn with circle strokes: circumference 100 = percent. */
export function DownloadPie({ downloaded, notDownloaded }: { downloaded: number; notDownloaded: number }) {
  const total = downloaded + notDownloaded;
  const share = total > 0 ? (100 * downloaded) / total : 0;
  const r = 15.91549430918954;
  return (
    <div className="st-pie-wrap">
      <svg
        width="160"
        height="160"
        viewBox="0 0 42 42"
        role="img"
        aria-label={`Скачано ${downloaded}, не скачано ${notDownloaded}`}
      >
        <circle cx="21" cy="21" r={r} fill="transparent" stroke="#3a3a4c" strokeWidth="8" />
        {share > 0 && (
          <circle
            cx="21"
            cy="21"
            r={r}
            fill="transparent"
            stroke="var(--accent)"
            strokeWidth="8"
            strokeDasharray={`${share} ${100 - share}`}
            strokeDashoffset="25"
          />
        )}
        <text x="21" y="22.5" textAnchor="middle" fontSize="6" fontWeight="700" fill="var(--text)">
          {total > 0 ? `${Math.round(share)}%` : "—"}
        </text>
      </svg>
      <div className="st-legend">
        <span>
          <i className="st-legend-dot" style={{ background: "var(--accent)" }} />Скачано: <b>{downloaded}</b>
        </span>
        <span>
          <i className="st-legend-dot" style={{ background: "#3a3a4c" }} />Не скачано: <b>{notDownloaded}</b>
        </span>
      </div>
    </div>
  );
}

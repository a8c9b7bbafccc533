
/** Timeline bar height in percent of the chart: 5 + 95 × value / max (spec 2 "Admin statistics dashboard"). */
export function timelineBarHeight(value: number, max: number): number {
  if (!(max > 0)) return 5;
  return 5 + (95 * Math.max(0, value)) / max;
}

export const NO_CHART_DATA = "Нет данных для отображения";

export function TimelineChart({ labels, data }: { labels: string[]; data: number[] }) {
  const max = Math.max(0, ...data);
  if (data.length === 0 || max === 0) return <p className="st-empty">{NO_CHART_DATA}</p>;
  return (
    <div>
      <div className="st-chart" role="img" aria-label={labels.map((l, i) => `${l}: ${data[i] ?? 0}`).join(", ")}>
        {data.map((value, i) => (
          <div key={`${labels[i]}-${i}`} className="st-chart-col" title={`${labels[i] ?? ""}: ${value}`}>
            <span className="st-chart-num">{value}</span>
            <div
              className="st-chart-bar"
              data-testid="timeline-bar"
              style={{ height: `${timelineBarHeight(value, max)}%` }}
            />
          </div>
        ))}
      </div>
      <div className="st-chart-labels" aria-hidden="true">
        {labels.map((l, i) => <span key={`${l}-${i}`} title={l}>{l}</span>)}
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
        <span><i className="st-legend-dot" style={{ background: "var(--accent)" }} />Скачано: <b>{downloaded}</b></span>
        <span><i className="st-legend-dot" style={{ background: "#3a3a4c" }} />Не скачано: <b>{notDownloaded}</b></span>
      </div>
    </div>
  );
}

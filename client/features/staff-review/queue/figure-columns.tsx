import type { ReactNode } from "react";
import { formatDuration } from "../../../lib/format.ts";
import { formatBitrate, formatBpm, formatLoudness } from "../player/figures.ts";
import { isKeySure, uncertainKeyLabel } from "../../../../domain/musical-key.ts";
import type { StaffTrackRow as StaffTrack } from "../../../lib/staff-queries.ts";
import type { TrackSort, TrackSortField } from "./track-list-search.ts";

/** The figure columns, sortable on the server; a first click sorts ascending, the next one flips it. */
export const FIGURE_COLUMNS = [
  "duration",
  "bitrate",
  "loudness",
  "bpm",
  "key",
  "drop",
] as const satisfies readonly TrackSortField[];
export type FigureColumn = (typeof FIGURE_COLUMNS)[number];

/** A figure without its unit (the header names it), so the columns fit beside the others. */
export function figureCell(track: StaffTrack, column: FigureColumn, locale: string): ReactNode {
  const a = track.analysis;
  switch (column) {
    case "duration":
      // Before the analysis, the length processing counted (milliseconds).
      return formatDuration(a?.duration_s ?? (track.duration === null ? null : track.duration / 1000));
    case "bitrate":
      return a ? formatBitrate(a, locale).replace(" kbps", "") : "—";
    case "loudness":
      return a ? formatLoudness(a.loudness_lufs, locale).replace(" LUFS", "") : "—";
    case "bpm":
      return a ? formatBpm(a.bpm, locale) : "—";
    case "key":
      // The Camelot code is what a DJ mixes by (and what the column sorts by); the key's name is
      // on hover, read out with it, and in the player's report («F minor · 4A»): two columns this
      // narrow fit the 1440 px panel (docs/decisions/0217).
      if (!a?.camelot) return a?.key ?? "—";
      if (!a.key) return a.camelot;
      if (!isKeySure(a.key_confidence)) {
        // Uncertain (issue 38, 0411): the code with «?», the key and its relative on hover.
        const label = uncertainKeyLabel(a.key);
        return (
          <span title={label}>
            {`${a.camelot}?`}
            <span className="visually-hidden">{`, ${label}`}</span>
          </span>
        );
      }
      return (
        <span title={a.key}>
          {a.camelot}
          <span className="visually-hidden">{`, ${a.key}`}</span>
        </span>
      );
    case "drop":
      return a ? formatDuration(a.drop_s) : "—";
  }
}

/** A header that sorts its column on the server: a first click ascending, the next one flips it. */
export function SortHeader(
  { column, label, sort, className = "" }: {
    column: TrackSortField;
    label: React.ReactNode;
    sort?: { value: TrackSort; onChange: (next: TrackSort) => void };
    className?: string;
  },
) {
  const direction = sort?.value === column ? "ascending" : sort?.value === `-${column}` ? "descending" : undefined;
  return (
    <th
      scope="col"
      className={`${className}${direction ? " st-th-sorted" : ""}`.trim() || undefined}
      aria-sort={direction}
    >
      {sort
        ? (
          <button
            type="button"
            className="st-sort"
            data-sort={column}
            onClick={() => sort.onChange(direction === "ascending" ? `-${column}` : column)}
          >
            {label}
            {direction && (
              <span className="st-sort-mark" aria-hidden="true">
                {direction === "ascending" ? "▲" : "▼"}
              </span>
            )}
          </button>
        )
        : label}
    </th>
  );
}

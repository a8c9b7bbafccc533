import { Link } from "@tanstack/react-router";
import { type ReactNode, useEffect, useRef } from "react";
import { warningText } from "./review-texts.ts";
import { useReviewTexts } from "./review-texts-context.ts";
import { ReviewBadges } from "./review-badges.tsx";
import { AiUseBadge } from "./ai-use-badge.tsx";
import { VoteScore } from "./vote-score.tsx";
import "./track-votes.css";
import "./decision-panel.css";
import { PauseIcon, PlayIcon } from "../../components/icons.tsx";
import { formatDateTime, formatDuration } from "../../lib/format.ts";
import { formatBitrate, formatBpm, formatLoudness } from "./player/figures.ts";
import { hasAudio, PLAY_BUTTON_ATTR } from "./player/use-review-player.ts";
import type { StaffTrackRow as StaffTrack } from "../../lib/staff-queries.ts";
import type { TrackSort, TrackSortField } from "./track-list-search.ts";
import "../../components/ui/staff.css";
import "./player/player.css";

export interface TrackTableTexts {
  selectAll: string;
  select: (filename: string) => string;
  track: string;
  user: string;
  date: string;
  directions: string;
  status: string;
  actions: string;
  downloaded: string;
  notDownloaded: string;
  processing: string;
  failed: string;
  guest: string;
  unknownUser: string;
  edit: string;
  download: string;
  delete: string;
  empty: string;
  // Issue 12: the audio report's figures (full names for screen readers, short headers), listening.
  duration: string;
  bitrate: string;
  loudness: string;
  bpm: string;
  // Issue 22: the key (Camelot code, the key's name under it) and the drop's time.
  key: string;
  drop: string;
  short: { duration: string; bitrate: string; loudness: string; bpm: string; key: string; drop: string };
  warnings: string;
  /** Issue 24: the votes' score column (decision 0230). */
  votes: string;
  play: (filename: string) => string;
  /** Number formatting of the figures. */
  locale: string;
}

export const TRACK_TABLE_TEXTS_RU: TrackTableTexts = {
  selectAll: "Выбрать все на странице",
  select: (f) => `Выбрать трек ${f}`,
  track: "Трек",
  user: "Пользователь",
  date: "Дата загрузки",
  directions: "Направления",
  status: "Статус",
  actions: "Действия",
  downloaded: "Скачан",
  notDownloaded: "Не скачан",
  processing: "Обработка",
  failed: "Ошибка обработки",
  guest: "гость",
  unknownUser: "—",
  edit: "Изменить",
  download: "Скачать",
  delete: "Удалить",
  empty: "Треки не найдены",
  duration: "Длительность",
  bitrate: "Битрейт",
  loudness: "Громкость",
  bpm: "Темп",
  key: "Тональность",
  drop: "Время дропа",
  short: { duration: "Длина", bitrate: "kbps", loudness: "LUFS", bpm: "BPM", key: "Тон.", drop: "Дроп" },
  warnings: "Предупреждения",
  votes: "Голоса",
  play: (f) => `Слушать: ${f}`,
  locale: "ru-RU",
};

export const TRACK_TABLE_TEXTS_EN: TrackTableTexts = {
  selectAll: "Select all on this page",
  select: (f) => `Select track ${f}`,
  track: "Track",
  user: "User",
  date: "Date uploaded",
  directions: "Directions",
  status: "Status",
  actions: "Actions",
  downloaded: "Downloaded",
  notDownloaded: "Not downloaded",
  processing: "Processing",
  failed: "Failed",
  guest: "guest",
  unknownUser: "Unknown",
  edit: "Edit",
  download: "Download",
  delete: "Delete",
  empty: "No tracks found",
  duration: "Duration",
  bitrate: "Bitrate",
  loudness: "Loudness",
  bpm: "Tempo",
  key: "Musical key",
  drop: "Drop time",
  short: { duration: "Length", bitrate: "kbps", loudness: "LUFS", bpm: "BPM", key: "Key", drop: "Drop" },
  warnings: "Warnings",
  votes: "Votes",
  play: (f) => `Play: ${f}`,
  locale: "en-US",
};

export interface TrackTableProps {
  tracks: StaffTrack[];
  selected: ReadonlySet<number>;
  onSelectedChange: (next: Set<number>) => void;
  editHref: (id: number) => string;
  onDownload: (track: StaffTrack) => void;
  onDelete: (track: StaffTrack) => void;
  directionLabel: (code: string) => string;
  /** Id of the track whose download is being prepared. */
  busyId?: number | null;
  texts?: TrackTableTexts;
  /** The review player (issue 12): a play button per row with a file, and the played row marked. */
  review?: {
    currentId: number | null;
    playing: boolean;
    onPlay: (track: StaffTrack) => void;
    /** A row that no longer belongs to the filter (decided in «Новые»): kept in place, marked (issue 23). */
    left?: (track: StaffTrack) => boolean;
  };
  /** Sorting by the report's figures (issue 12): the current `sort` and where a header click goes. */
  sort?: { value: TrackSort; onChange: (next: TrackSort) => void };
  /** Marks under a track's name from other parts of the queue (issue 24: assignee, «Слушает @name»). */
  rowExtra?: (track: StaffTrack) => ReactNode;
}

/** The figure columns, sortable on the server; a first click sorts ascending, the next one flips it. */
const FIGURE_COLUMNS = [
  "duration",
  "bitrate",
  "loudness",
  "bpm",
  "key",
  "drop",
] as const satisfies readonly TrackSortField[];
type FigureColumn = (typeof FIGURE_COLUMNS)[number];

/** A figure without its unit (the header names it), so the columns fit beside the others. */
function figureCell(track: StaffTrack, column: FigureColumn, locale: string): ReactNode {
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
function SortHeader(
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

/** A track's Edit, Download and Delete: the same in the table's row and on the phone's card. */
export function TrackActions(
  { track, texts, editHref, busyId, onDownload, onDelete, className = "st-actions" }:
    & Pick<TrackTableProps, "editHref" | "busyId" | "onDownload" | "onDelete">
    & { track: StaffTrack; texts: TrackTableTexts; className?: string },
) {
  return (
    <span className={className}>
      <Link to={editHref(track.id) as "/"} className="st-btn st-btn-sm" aria-label={`${texts.edit}: ${track.filename}`}>
        {texts.edit}
      </Link>
      {hasAudio(track) && (
        <button
          type="button"
          className="st-btn st-btn-sm"
          aria-label={`${texts.download}: ${track.filename}`}
          disabled={busyId === track.id}
          onClick={() => onDownload(track)}
        >
          {texts.download}
        </button>
      )}
      <button
        type="button"
        className="st-btn st-btn-sm st-btn-danger"
        aria-label={`${texts.delete}: ${track.filename}`}
        onClick={() => onDelete(track)}
      >
        {texts.delete}
      </button>
    </span>
  );
}

/** Who uploaded: the account's name (login underneath), else the guest name, else the unknown mark. */
export function trackUserLabel(track: StaffTrack, texts: TrackTableTexts): { main: string; sub?: string } {
  if (track.user_info) {
    const name = track.user_info.name?.trim();
    return name && name !== track.user_info.username
      ? { main: name, sub: `@${track.user_info.username}` }
      : { main: track.user_info.username };
  }
  if (track.guest_username) return { main: track.guest_username, sub: texts.guest };
  return { main: texts.unknownUser };
}

/**
 * The staff track table: select (select-all covers the rows shown, i.e. the current page), track
 * (with its play button and warnings), user, upload date, directions, status, duration, bitrate,
 * loudness, BPM, key, drop, actions (edit, download, delete).
 */
export function TrackTable(
  {
    tracks,
    selected,
    onSelectedChange,
    editHref,
    onDownload,
    onDelete,
    directionLabel,
    busyId,
    texts = TRACK_TABLE_TEXTS_RU,
    review,
    sort,
    rowExtra,
  }: TrackTableProps,
) {
  const allRef = useRef<HTMLInputElement>(null);
  const words = useReviewTexts();
  const onPage = tracks.map((t) => t.id);
  const selectedOnPage = onPage.filter((id) => selected.has(id)).length;
  const allSelected = onPage.length > 0 && selectedOnPage === onPage.length;
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = selectedOnPage > 0 && !allSelected;
  }, [selectedOnPage, allSelected]);

  const toggleAll = () => {
    const next = new Set(selected);
    for (const id of onPage) allSelected ? next.delete(id) : next.add(id);
    onSelectedChange(next);
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    next.has(id) ? next.delete(id) : next.add(id);
    onSelectedChange(next);
  };

  return (
    <div className="st-table-wrap">
      <table className="st-table st-track-table">
        <thead>
          <tr>
            <th className="st-col-check">
              <input
                ref={allRef}
                type="checkbox"
                aria-label={texts.selectAll}
                checked={allSelected}
                disabled={onPage.length === 0}
                onChange={toggleAll}
              />
            </th>
            <th scope="col">{texts.track}</th>
            <th scope="col">{texts.user}</th>
            <SortHeader column="upload_date" label={texts.date} sort={sort} className="st-date-head" />
            <th scope="col">{texts.directions}</th>
            <th scope="col">{texts.status}</th>
            <SortHeader column="score" label={texts.votes} sort={sort} className="st-votes-head" />
            {FIGURE_COLUMNS.map((column) => (
              <SortHeader
                key={column}
                column={column}
                sort={sort}
                className="st-num"
                // Shown short ("kbps"), named in full for screen readers ("Битрейт, kbps").
                label={
                  <>
                    <span className="visually-hidden">{`${texts[column]}, `}</span>
                    {texts.short[column]}
                  </>
                }
              />
            ))}
            <th scope="col" className="st-col-actions">{texts.actions}</th>
          </tr>
        </thead>
        <tbody>
          {tracks.length === 0 && (
            <tr>
              <td colSpan={8 + FIGURE_COLUMNS.length} className="st-empty">{texts.empty}</td>
            </tr>
          )}
          {tracks.map((track) => {
            const who = trackUserLabel(track, texts);
            const isCurrent = review?.currentId === track.id;
            const left = review?.left?.(track) ?? false;
            const warnings = track.analysis?.warnings ?? [];
            return (
              <tr
                key={track.id}
                data-track-id={track.id}
                className={[isCurrent && "st-row-playing", left && "st-row-left"].filter(Boolean).join(" ") ||
                  undefined}
                data-left={left || undefined}
                aria-current={isCurrent ? "true" : undefined}
              >
                <td className="st-col-check">
                  <input
                    type="checkbox"
                    aria-label={texts.select(track.filename)}
                    checked={selected.has(track.id)}
                    onChange={() => toggle(track.id)}
                  />
                </td>
                <td className="st-filename">
                  <div className="st-track-cell">
                    {review && hasAudio(track) && (
                      <button
                        type="button"
                        className="st-btn st-btn-sm st-play-btn"
                        aria-label={texts.play(track.filename)}
                        aria-pressed={isCurrent && review.playing}
                        {...{ [PLAY_BUTTON_ATTR]: "" }}
                        onClick={() => review.onPlay(track)}
                      >
                        {isCurrent && review.playing ? <PauseIcon size={14} /> : <PlayIcon size={14} />}
                      </button>
                    )}
                    <div>
                      {/* One line on a desk (player.css): the whole name on hover, and in the text itself. */}
                      <span className="st-track-name" title={track.filename}>{track.filename}</span>
                      {warnings.length > 0 && (
                        // One small mark per row (the player's report lists them in full); the
                        // names are read out and shown on hover.
                        <span
                          className="st-badge st-badge-warning st-row-warnings"
                          title={warnings.map((w) => warningText(words, w)).join(", ")}
                        >
                          <span aria-hidden="true">⚠ {warnings.length}</span>
                          <span className="visually-hidden">
                            {texts.warnings}: {warnings.map((w) => warningText(words, w)).join(", ")}
                          </span>
                        </span>
                      )}
                      <AiUseBadge value={track.ai_use} />
                      {rowExtra?.(track)}
                    </div>
                  </div>
                </td>
                <td className="st-user-cell" title={who.sub ? `${who.main} ${who.sub}` : who.main}>
                  <div>{who.main}</div>
                  {who.sub && <div className="st-muted st-small">{who.sub}</div>}
                </td>
                <td className="st-date">{formatDateTime(track.upload_date)}</td>
                <td>
                  <ReviewBadges track={track} directionLabel={directionLabel} locale={texts.locale} />
                </td>
                <td>
                  <span className="st-badges">
                    <span className={track.downloaded ? "st-badge st-badge-success" : "st-badge st-badge-warning"}>
                      {track.downloaded ? texts.downloaded : texts.notDownloaded}
                    </span>
                    {track.status === "processing" && (
                      <span className="st-badge st-badge-info">{texts.processing}</span>
                    )}
                    {track.status === "failed" && <span className="st-badge st-badge-danger">{texts.failed}</span>}
                  </span>
                </td>
                <td className="st-votes">
                  <VoteScore
                    summary={track.vote_summary}
                    label={directionLabel}
                    locale={texts.locale}
                  />
                </td>
                {FIGURE_COLUMNS.map((column) => (
                  <td key={column} className="st-num" data-figure={column}>
                    {figureCell(track, column, texts.locale)}
                  </td>
                ))}
                <td className="st-col-actions">
                  <TrackActions
                    track={track}
                    texts={texts}
                    editHref={editHref}
                    busyId={busyId}
                    onDownload={onDownload}
                    onDelete={onDelete}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

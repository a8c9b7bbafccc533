import { useEffect, useRef } from "react";
import { warningText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { TRACK_TABLE_TEXTS_RU } from "../texts/track-table-texts.ts";
import { ReviewBadges } from "./review-badges.tsx";
import { AiUseBadge } from "./ai-use-badge.tsx";
import { VoteScore } from "../votes/vote-score.tsx";
import "../votes/track-votes.css";
import "../edit/decision-panel.css";
import { PauseIcon, PlayIcon } from "../../../components/icons.tsx";
import { formatDateTime } from "../../../lib/format.ts";
import { hasAudio, PLAY_BUTTON_ATTR } from "../player/playable.ts";
import { FIGURE_COLUMNS, figureCell, SortHeader } from "./figure-columns.tsx";
import {
  directionsTitle,
  statusTitle,
  TrackActions,
  type TrackTableProps,
  trackUserLabel,
} from "./track-row-parts.tsx";
import "../../../components/ui/staff.css";
import "../player/player.css";

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
    stale = false,
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
      {/* The texts' language (English on the moderator's screens): the column widths follow it. */}
      <table
        className={stale ? "st-table st-track-table st-rows-stale" : "st-table st-track-table"}
        lang={texts.locale.slice(0, 2)}
        aria-busy={stale}
      >
        {/* The columns' widths on a desk (player.css): the name takes what is left and ends in «…». */}
        <colgroup>
          <col className="st-c-check" />
          <col className="st-c-track" />
          <col className="st-c-user" />
          <col className="st-c-date" />
          <col className="st-c-directions" />
          <col className="st-c-status" />
          <col className="st-c-votes" />
          {FIGURE_COLUMNS.map((column) => <col key={column} className={`st-c-figure st-c-${column}`} />)}
          <col className="st-c-actions" />
        </colgroup>
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
                <td title={directionsTitle(track, directionLabel, words)}>
                  <ReviewBadges track={track} directionLabel={directionLabel} locale={texts.locale} />
                </td>
                <td title={statusTitle(track, texts)}>
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

import { warningText } from "../texts/review-texts.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import { parseTrackName } from "../../../../domain/track-name.ts";
import { isKeySure } from "../../../../domain/musical-key.ts";
import { PauseIcon, PlayIcon } from "../../../components/icons.tsx";
import type { StaffTrackRow as StaffTrack } from "../../../lib/staff-queries.ts";
import { formatBpm } from "../player/figures.ts";
import { hasAudio, PLAY_BUTTON_ATTR } from "../player/playable.ts";
import { ReviewBadges } from "./review-badges.tsx";
import { AiUseBadge } from "./ai-use-badge.tsx";
import { VoteScore } from "../votes/vote-score.tsx";
import "../votes/track-votes.css";
import { TrackActions, type TrackTableProps, trackUserLabel } from "./track-row-parts.tsx";
import "./track-cards.css";

/** The card's own words; the rest are the table's (`TrackTableTexts`), picked by the table's locale. */
export interface TrackCardTexts {
  list: string;
  artist: string;
  /** Whole days the track has waited for the caller. */
  waiting: (days: number) => string;
  bpm: string;
  key: string;
}

export const TRACK_CARD_TEXTS_RU: TrackCardTexts = {
  list: "Треки",
  artist: "Артист",
  waiting: (d) => `ждёт ${d} дн.`,
  bpm: "BPM",
  key: "Тональность",
};

export const TRACK_CARD_TEXTS_EN: TrackCardTexts = {
  list: "Tracks",
  artist: "Artist",
  waiting: (d) => `waiting ${d} ${d === 1 ? "day" : "days"}`,
  bpm: "BPM",
  key: "Key",
};

/**
 * The musical key, when the analysis carries one (issue 22 adds `camelot` and `key`): the Camelot
 * code first (what a DJ mixes by), else the key's name; nothing when neither is there.
 */
export function trackKey(track: StaffTrack): string | null {
  const a = track.analysis as { camelot?: unknown; key?: unknown; key_confidence?: number | null } | null;
  if (!a) return null;
  // An uncertain key (issue 38, 0411) carries «?».
  const mark = isKeySure(a.key_confidence) ? "" : "?";
  if (typeof a.camelot === "string" && a.camelot) return a.camelot + mark;
  if (typeof a.key === "string" && a.key) return a.key + mark;
  return null;
}

/**
 * The staff queue on a phone (issue 23, decision 0227): one card per track instead of the eleven
 * columns, so nothing scrolls sideways at 390 px. A card names the track (title, and the artist from
 * the file name, else the uploader), how long it has waited, its tempo and key, its warnings and the
 * review state per direction; it keeps the row's play button, selection and actions.
 */
export function TrackCards(
  {
    tracks,
    selected,
    onSelectedChange,
    editHref,
    onDownload,
    onDelete,
    directionLabel,
    busyId,
    texts,
    review,
    rowExtra,
    stale = false,
  }:
    & Omit<TrackTableProps, "sort" | "texts">
    & { texts: NonNullable<TrackTableProps["texts"]> },
) {
  const words = useReviewTexts();
  const card = texts.locale.startsWith("ru") ? TRACK_CARD_TEXTS_RU : TRACK_CARD_TEXTS_EN;
  const toggle = (id: number) => {
    const next = new Set(selected);
    next.has(id) ? next.delete(id) : next.add(id);
    onSelectedChange(next);
  };
  if (tracks.length === 0) return <p className="st-empty st-cards-empty">{texts.empty}</p>;
  return (
    <ul
      className={stale ? "st-track-cards st-rows-stale" : "st-track-cards"}
      aria-label={card.list}
      aria-busy={stale}
      data-testid="track-cards"
    >
      {tracks.map((track) => {
        const name = parseTrackName(track.filename);
        const who = trackUserLabel(track, texts);
        const artist = name?.artist ?? who.main;
        const isCurrent = review?.currentId === track.id;
        // Decided while the list shows «Новые»: kept in place, greyed, so the cards under it do not jump.
        const left = review?.left?.(track) ?? false;
        const warnings = track.analysis?.warnings ?? [];
        const key = trackKey(track);
        const bpm = track.analysis?.bpm ?? null;
        return (
          <li
            key={track.id}
            className={["st-track-card", isCurrent && "st-card-playing", left && "st-card-left"].filter(Boolean).join(
              " ",
            )}
            data-track-id={track.id}
            data-left={left || undefined}
            aria-current={isCurrent ? "true" : undefined}
          >
            <div className="st-track-card-head">
              {review && hasAudio(track) && (
                <button
                  type="button"
                  className="st-btn st-play-btn st-card-play"
                  aria-label={texts.play(track.filename)}
                  aria-pressed={isCurrent && review.playing}
                  {...{ [PLAY_BUTTON_ATTR]: "" }}
                  onClick={() => review.onPlay(track)}
                >
                  {isCurrent && review.playing ? <PauseIcon size={16} /> : <PlayIcon size={16} />}
                </button>
              )}
              <div className="st-track-card-name">
                <strong data-field="title" data-user-content="">{name?.title ?? track.filename}</strong>
                <span className="st-muted st-small" data-field="artist">
                  <span className="visually-hidden">{`${card.artist}: `}</span>
                  <span data-user-content="">{artist}</span>
                </span>
              </div>
              <input
                type="checkbox"
                className="st-card-check"
                aria-label={texts.select(track.filename)}
                checked={selected.has(track.id)}
                onChange={() => toggle(track.id)}
              />
            </div>
            <p className="st-track-card-meta">
              {track.waiting_days !== null && !track.overdue && (
                <span data-field="waiting">{card.waiting(track.waiting_days)}</span>
              )}
              {bpm !== null && (
                <span data-field="bpm">
                  {formatBpm(bpm, texts.locale)} {card.bpm}
                </span>
              )}
              {key && (
                <span data-field="key">
                  <span className="visually-hidden">{`${card.key}: `}</span>
                  {key}
                </span>
              )}
              {track.status === "processing" && <span className="st-badge st-badge-info">{texts.processing}</span>}
              {track.status === "failed" && <span className="st-badge st-badge-danger">{texts.failed}</span>}
              <AiUseBadge value={track.ai_use} />
            </p>
            {warnings.length > 0 && (
              <ul className="st-badges st-card-warnings" aria-label={texts.warnings} data-field="warnings">
                {warnings.map((w) => (
                  <li key={w} className="st-badge st-badge-warning">
                    <span aria-hidden="true">⚠</span> {warningText(words, w)}
                  </li>
                ))}
              </ul>
            )}
            <ReviewBadges track={track} directionLabel={directionLabel} locale={texts.locale} />
            <VoteScore
              summary={track.vote_summary}
              label={directionLabel}
              locale={texts.locale}
            />
            {rowExtra?.(track)}
            <TrackActions
              track={track}
              texts={texts}
              editHref={editHref}
              busyId={busyId}
              onDownload={onDownload}
              onDelete={onDelete}
              className="st-actions st-track-card-actions"
            />
          </li>
        );
      })}
    </ul>
  );
}

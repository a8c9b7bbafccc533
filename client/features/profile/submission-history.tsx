import { useQuery } from "@tanstack/react-query";
import { onAirLine } from "../../../domain/episodes.ts";
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { audioWarningText } from "../../../domain/audio-warnings.ts";
import { DIRECTION_LABELS, isDirection } from "../../../domain/directions.ts";
import { ARTIST_REVIEW_LABELS, type ArtistReviewStatus } from "../../../domain/artist-review.ts";
import { RELEASE_STAGE_LABELS, type ReleaseStage } from "../../../domain/releases.ts";
import { formatDate, formatDateTime, formatDuration } from "../../lib/format.ts";
import { queueLine } from "../../lib/queue-line.ts";
import { type Submission, submissionHistoryQuery } from "./api.ts";
import { PROFILE_TEXTS } from "./profile-rules.ts";
import { CommentPlayer } from "./comment-player.tsx";
import {
  DecisionReasons,
  FEEDBACK_TEXTS,
  FeedbackRating,
  mayHaveNewVersion,
  NewVersion,
  VersionOffer,
} from "./feedback-parts.tsx";
import "./submission-history.css";

/** The artist's texts of the submission history (issue 13). */
export const HISTORY_TEXTS = {
  failed: "Ошибка обработки",
  processingNow: "Файл ещё обрабатывается",
  staffMessage: "Сообщение",
  more: "Показать ещё",
  loadingMore: "Загружаем…",
  directions: "Направления и решения",
  /** Issue 25: the promise of an answer for an undecided pair, and a decline the site made itself. */
  respondBy: "ответ до",
  /** Issue 31: the promise's day has passed with no answer (docs/decisions/0287). */
  respondLate: "ответ задерживается, обещали до",
  automatic: "автоматически",
  /**
   * Issue 31: spec 1's «Загружен» / «В обработке» (has the staff downloaded the file) on a line of its
   * own, named and explained, so it is never read as the review's state (docs/decisions/0286).
   */
  downloadLabel: "Скачивание файла",
  downloadedHint: "команда скачала файл",
  notDownloadedHint: "команда ещё не скачала файл",
  /** Issue 34: the label release of an accepted pair, beside «Принят». */
  release: "Релиз",
} as const;

/** `a` is a later calendar day than `b`, in the visitor's own calendar. */
function laterDay(a: Date, b: Date): boolean {
  const day = (d: Date) => d.getFullYear() * 10_000 + (d.getMonth() + 1) * 100 + d.getDate();
  return day(a) > day(b);
}

/**
 * The promise of an undecided pair as the artist reads it: «ответ до 23.11.2026» up to and on that
 * day, «ответ задерживается, обещали до 23.11.2026» from the next day on (docs/decisions/0287).
 */
export function promiseLine(respondBy: string, now: Date): { late: boolean; text: string } {
  const late = laterDay(now, new Date(respondBy));
  return { late, text: `${late ? HISTORY_TEXTS.respondLate : HISTORY_TEXTS.respondBy} ${formatDate(respondBy)}` };
}

/** The staff-download line (spec 1: «Загружен» when `downloaded`, otherwise «В обработке»). */
export function downloadLine(downloaded: boolean): { label: string; state: string; hint: string } {
  return {
    label: `${HISTORY_TEXTS.downloadLabel}:`,
    state: downloaded ? PROFILE_TEXTS.downloaded : PROFILE_TEXTS.processing,
    hint: downloaded ? HISTORY_TEXTS.downloadedHint : HISTORY_TEXTS.notDownloadedHint,
  };
}

/** How often the history is read again while one of its tracks is processing. */
const PROCESSING_POLL_MS = 3_000;

const reviewBadge: Record<ArtistReviewStatus, string> = {
  in_review: "badge-muted",
  listened: "badge-info",
  accepted: "badge-success",
  declined: "badge-danger",
};

/**
 * «Мои треки» grown into the artist's history (issue 13, decision 0161): every submission, newest
 * first, paged by «Показать ещё»; per track the processing state, a failed upload's reason, and per
 * direction the state the artist sees with the staff's message.
 */
export function SubmissionHistory({ enabled }: { enabled: boolean }) {
  const [shown, setShown] = useState(1);
  const first = useQuery({ ...submissionHistoryQuery(1), enabled });
  return (
    <>
      {first.isPending && <p className="muted" role="status">Загружаем треки…</p>}
      {first.isError && <div className="alert alert-error" role="alert">{PROFILE_TEXTS.tracksFailed}</div>}
      {first.data && first.data.tracks.length === 0 && (
        <div className="empty">
          <strong>Вы ещё не загрузили ни одного трека</strong>
          <p>{PROFILE_TEXTS.emptyHint}</p>
          <Link to="/" className="btn btn-primary">Отправить трек</Link>
        </div>
      )}
      {first.data && first.data.tracks.length > 0 && (
        <ul className="track-list">
          {Array.from(
            { length: shown },
            (_, i) => <HistoryPage key={i + 1} page={i + 1} last={i + 1 === shown} onMore={() => setShown(i + 2)} />,
          )}
        </ul>
      )}
    </>
  );
}

/** The rows of one page; the last page shown offers the next one while there is more. */
function HistoryPage({ page, last, onMore }: { page: number; last: boolean; onMore: () => void }) {
  // A track still processing is followed until it is done (the Mini App shows its new uploads here).
  const q = useQuery({
    ...submissionHistoryQuery(page),
    refetchInterval: (query) =>
      query.state.data?.tracks.some((t) => t.status === "processing") ? PROCESSING_POLL_MS : false,
  });
  return (
    <>
      {q.data?.tracks.map((t) => <SubmissionItem key={t.id} t={t} />)}
      {last && page > 1 && q.isPending && <li className="muted" role="status">{HISTORY_TEXTS.loadingMore}</li>}
      {last && q.isError && <li className="alert alert-error" role="alert">{PROFILE_TEXTS.tracksFailed}</li>}
      {last && q.data && q.data.page < q.data.pages && (
        <li className="form-actions section">
          <button type="button" className="btn btn-ghost" onClick={onMore}>{HISTORY_TEXTS.more}</button>
        </li>
      )}
    </>
  );
}

function SubmissionItem({ t }: { t: Submission }) {
  const failed = t.status === "failed";
  const now = new Date();
  const download = downloadLine(Boolean(t.downloaded));
  return (
    <li className="track-item" data-testid="my-track">
      <div style={{ minWidth: 0, flex: 1 }}>
        <div className="track-title">{t.filename}</div>
        <div className="track-date">{formatDateTime(t.upload_date)}</div>
        {/* Issue 12: the artist sees the length, bitrate and warnings of their own tracks. */}
        {t.analysis && (
          <div className="track-date" data-testid="my-track-figures">
            {formatDuration(t.analysis.duration_s)} · {Math.round(t.analysis.bitrate_kbps)} kbps
          </div>
        )}
        {t.analysis && t.analysis.warnings.length > 0 && (
          <ul className="track-warnings" aria-label="Предупреждения">
            {t.analysis.warnings.map((w) => <li key={w} className="badge badge-warning">{audioWarningText(w)}</li>)}
          </ul>
        )}
        {t.status === "processing" && <div className="track-date">{HISTORY_TEXTS.processingNow}</div>}
        {failed && t.error && <p className="track-failure" data-testid="my-track-error">{t.error}</p>}
        {!failed && (
          <p className="track-download" data-testid="my-track-download">
            <span className="muted">{download.label}</span>{" "}
            <strong className={t.downloaded ? "track-download-done" : undefined}>{download.state}</strong>
            <span className="muted">{` — ${download.hint}`}</span>
          </p>
        )}
        {t.decisions.length > 0 && (
          <ul className="track-decisions" aria-label={HISTORY_TEXTS.directions}>
            {t.decisions.map((d) => {
              const { respond_by: respondBy, automatic } = d;
              // Issue 36: the place in the queue; it carries the promise in brackets when it has a date.
              const queue = queueLine(d);
              const late = respondBy !== null && promiseLine(respondBy, now).late;
              return (
                <li key={d.direction} data-testid="my-track-decision">
                  <span className="track-direction">
                    {isDirection(d.direction) ? DIRECTION_LABELS[d.direction] : d.direction}
                  </span>
                  <span className={`badge ${reviewBadge[d.status as ArtistReviewStatus] ?? "badge-muted"}`}>
                    {ARTIST_REVIEW_LABELS[d.status as ArtistReviewStatus] ?? d.status}
                  </span>
                  {(t.releases ?? []).filter((r) => r.direction === d.direction).map((r) => (
                    <Link
                      key={r.id}
                      to="/releases/$id"
                      params={{ id: String(r.id) }}
                      className="badge badge-info"
                      data-testid="my-track-release"
                    >
                      {`${HISTORY_TEXTS.release}: ${RELEASE_STAGE_LABELS[r.stage as ReleaseStage] ?? r.stage}`}
                    </Link>
                  ))}
                  {automatic && (
                    <span className="badge badge-muted" data-testid="my-track-automatic">
                      {HISTORY_TEXTS.automatic}
                    </span>
                  )}
                  {respondBy && (late || !queue || !d.expected_by) && <PromiseLine respondBy={respondBy} now={now} />}
                  {queue && <span className="track-queue muted" data-testid="my-track-queue">{queue}</span>}
                  {d.message && (
                    <p className="track-message">
                      <span className="muted">{`${HISTORY_TEXTS.staffMessage}: `}</span>
                      {d.message}
                    </p>
                  )}
                  {/* Issue 37: the decision's reasons, and the rating of its feedback. */}
                  <DecisionReasons reasons={d.reasons} />
                  <FeedbackRating trackId={t.id} state={t.feedback?.find((x) => x.direction === d.direction)} />
                </li>
              );
            })}
          </ul>
        )}
        {/* Issue 35: the aired episodes it played in, «В эфире: Подкаст Костёр #57 · 34:10», linked. */}
        {(t.on_air ?? []).map((a) => (
          <p key={`${a.episode}-${a.aired_at}`} className="track-message" data-testid="my-track-on-air">
            {a.url
              ? <a href={a.url} target="_blank" rel="noopener noreferrer">{onAirLine(a.episode, a.at_s)}</a>
              : onAirLine(a.episode, a.at_s)}
          </p>
        ))}
        {(t.versions ?? []).length > 1 && (
          <p className="track-date" data-testid="my-track-version">
            {FEEDBACK_TEXTS.versionLine(t.version_number, t.versions.length)}
          </p>
        )}
        {!failed && mayHaveNewVersion(t.decisions) && <NewVersion trackId={t.id} />}
        {!failed && <VersionOffer trackId={t.id} offer={t.version_offer} />}
      </div>
      {failed && <span className="badge badge-danger">{HISTORY_TEXTS.failed}</span>}
      {/* Issue 24: the label's shared comments on the waveform, with the artist's own file, full width. */}
      {(t.comments ?? []).length > 0 && !failed && (
        <CommentPlayer trackId={t.id} comments={t.comments} durationS={t.analysis?.duration_s ?? null} />
      )}
    </li>
  );
}

function PromiseLine({ respondBy, now }: { respondBy: string; now: Date }) {
  const { late, text } = promiseLine(respondBy, now);
  return (
    <span
      className={late ? "track-respond-by track-late" : "track-respond-by muted"}
      data-testid="my-track-respond-by"
      data-late={late}
    >
      {text}
    </span>
  );
}

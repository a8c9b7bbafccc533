import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { clearFailedFiles, type FailedFile, readFailedFiles } from "../../components/failed-files.ts";
import { CheckIcon, CrossIcon } from "../../components/icons.tsx";
import { errorText, NO_RESPONSE } from "../../lib/api.ts";
import { fetchTrackStatus, trackIdsQuery } from "./api.ts";
import { revealHiddenChars } from "../../../domain/hidden-chars.ts";
import {
  CONFETTI_DELAY_MS,
  CONFETTI_OPTIONS,
  FAILED_FILES_CLEAR_MS,
  isBatchFinished,
  isBatchSuccess,
  isFinal,
  PROCESSING_TEXTS,
  readStatus,
  STATUS_POLL_MS,
  statusLabel,
  type TrackProgress,
} from "./batch-status.ts";

/** Polls each unfinished track every 3 s; stops once every track has ended. */
function useBatchStatus(ids: readonly number[] | undefined): TrackProgress[] {
  const [tracks, setTracks] = useState<TrackProgress[]>([]);
  const key = ids?.join(",") ?? "";

  useEffect(() => {
    if (!ids) return;
    let current: TrackProgress[] = ids.map((id) => ({ id, status: null, filename: null, error: null }));
    setTracks(current);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const tick = async () => {
      const pending = current.filter((t) => !isFinal(t));
      const answers = await Promise.all(pending.map(async (t): Promise<TrackProgress> => {
        try {
          const answer = readStatus(await fetchTrackStatus(t.id));
          return { ...t, ...answer, filename: answer.filename ?? t.filename };
        } catch (err) {
          // A failed check ends the track as failed, with the reason on its own line.
          const reason = errorText(err, "", NO_RESPONSE);
          const detail = reason ? `: ${reason}` : "";
          return { ...t, status: "failed", error: `${PROCESSING_TEXTS.checkFailed}${detail}` };
        }
      }));
      if (stopped) return;
      const byId = new Map(answers.map((a) => [a.id, a]));
      current = current.map((t) => byId.get(t.id) ?? t);
      setTracks(current);
      if (!current.every(isFinal)) timer = setTimeout(tick, STATUS_POLL_MS);
    };
    if (ids.length > 0) tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [key]);

  return tracks;
}

/** Status of the tracks just uploaded, and the files that never left the browser. */
export function ProcessingPage() {
  const ids = useQuery(trackIdsQuery);
  const tracks = useBatchStatus(ids.data);
  const [failedFiles] = useState<FailedFile[]>(() => readFailedFiles());
  const celebrated = useRef(false);

  const finished = isBatchFinished(tracks);
  const success = isBatchSuccess(tracks);

  useEffect(() => {
    if (!success || celebrated.current) return;
    celebrated.current = true;
    const confetti = setTimeout(() => {
      // Loaded only here, so the public bundle does not carry it. Drawn on the main thread: the
      // default cannon starts a blob: worker, which the page's CSP (script-src 'self') blocks.
      import("canvas-confetti")
        .then((m) => m.default.create(undefined, { resize: true, useWorker: false })(CONFETTI_OPTIONS))
        .catch(() => {});
    }, CONFETTI_DELAY_MS);
    const clear = setTimeout(clearFailedFiles, FAILED_FILES_CLEAR_MS);
    return () => {
      clearTimeout(confetti);
      clearTimeout(clear);
    };
  }, [success]);

  const done = tracks.filter((t) => t.status === "completed").length;
  const errors = tracks.filter((t) => t.status === "failed" && t.error);

  return (
    <section className="page">
      <span className="eyebrow">Ваши треки</span>
      <h1>Обработка треков</h1>
      <p className="page-lead">
        Мы проверяем каждый файл: формат, битрейт, длительность. Страница обновляется сама — можно просто подождать.
      </p>
      {/* Issue 13: every submission and the staff's decisions live in the profile's «Мои треки». */}
      <p className="muted" data-testid="history-link">
        <Link to="/profile">История отправок и решения по трекам</Link> — в профиле.
      </p>

      {ids.isPending && <p className="muted" role="status">Загружаем список треков…</p>}
      {ids.isError && <div className="alert alert-error" role="alert">{PROCESSING_TEXTS.loadFailed}</div>}

      {ids.data && ids.data.length === 0 && (
        <div className="card empty">
          <strong>Сейчас нет треков в обработке</strong>
          <p>Загрузите трек — и здесь появится его статус.</p>
          <Link to="/" className="btn btn-primary">Отправить трек</Link>
        </div>
      )}

      {tracks.length > 0 && (
        <>
          <div className="card summary" aria-live="polite">
            <span className="summary-count">{done}/{tracks.length}</span>
            <span>
              {!finished
                ? "Треки обрабатываются…"
                : success
                ? "Готово! Все треки прошли проверку и отправлены по выбранным направлениям."
                : "Обработка завершена, но не все треки прошли проверку."}
            </span>
          </div>
          <ul className="status-list" aria-label="Статус треков">
            {tracks.map((t) => (
              <li key={t.id} className="status-row" data-testid="track-status">
                <span className="status-name">{t.filename ?? `Трек №${t.id}`}</span>
                <StatusBadge track={t} />
              </li>
            ))}
          </ul>
        </>
      )}

      {errors.length > 0 && (
        <div className="alert alert-error section" role="alert">
          <strong>Ошибки обработки</strong>
          <ul className="alert-list">
            {errors.map((t) => <li key={t.id}>{t.filename ?? `Трек №${t.id}`}: {t.error}</li>)}
          </ul>
        </div>
      )}

      {failedFiles.length > 0 && (
        <section className="section" aria-labelledby="failed-files-title">
          <h2 id="failed-files-title">{PROCESSING_TEXTS.failedFilesTitle}</h2>
          <ul className="status-list">
            {failedFiles.map((f) => (
              <li key={f.filename} className="status-row">
                <span className="status-name">{revealHiddenChars(f.filename)}</span>
                <span className="badge badge-danger">{PROCESSING_TEXTS.notUploaded}</span>
                <span className="status-error">{f.error}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {finished && (
        <div className="cta-row">
          <Link to="/" className="btn btn-primary">Отправить ещё</Link>
          <Link to="/profile" className="btn">Мои треки</Link>
        </div>
      )}
    </section>
  );
}

function StatusBadge({ track }: { track: TrackProgress }) {
  const label = statusLabel(track.status);
  switch (track.status) {
    case "completed":
      return (
        <span className="badge badge-success">
          <CheckIcon size={14} />
          {label}
        </span>
      );
    case "failed":
      return (
        <span className="badge badge-danger">
          <CrossIcon size={14} />
          {label}
        </span>
      );
    case "processing":
      return (
        <span className="badge badge-info">
          <span className="spinner" aria-hidden="true" />
          {label}
        </span>
      );
    default:
      return <span className="badge badge-muted">{label}</span>;
  }
}

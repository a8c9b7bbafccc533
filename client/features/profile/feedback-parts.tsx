import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { type DeclineReason, isDeclineReason, REASON_TEXTS_RU } from "../../../domain/decline-reasons.ts";
import { RATING_WORDS_MAX } from "../../../domain/feedback-rating.ts";
import { apiFetch, client, errorText, read } from "../../lib/api.ts";
import "./feedback-parts.css";

/**
 * Issue 37 on the artist's history: a decision's reasons in Russian with a line each, the rating of
 * a decision's feedback (once), and «Отправить новую версию» on a declined or heard track.
 */
export const FEEDBACK_TEXTS = {
  reasons: "Что стоит доработать",
  rateTitle: "Оцените ответ",
  rateHint: "Насколько ответ помог понять, что делать с треком?",
  star: (n: number) => `${n} из 5`,
  words: "Пара слов (необязательно)",
  send: "Отправить оценку",
  sending: "Отправляем…",
  rated: (n: number) => `Ваша оценка ответа: ${n} из 5`,
  rateFailed: "Не удалось сохранить оценку.",
  newVersion: "Отправить новую версию",
  newVersionHint: "Файл MP3: пойдёт в те же направления и будет связан с этим треком.",
  uploading: "Загружаем новую версию…",
  uploaded: "Новая версия отправлена.",
  uploadFailed: "Не удалось отправить новую версию.",
  versionLine: (n: number, total: number) => `Версия ${n} из ${total}`,
  offer: (name: string) => `Похоже на новую версию трека «${name}».`,
  offerTake: "Да, это новая версия",
  offerTaken: "Связано с прежней версией.",
  offerFailed: "Не удалось связать версии.",
} as const;

/**
 * The automatic offer (issue 37): this upload sounds close to an earlier track of the artist's but is
 * not the same recording; one press links it as that track's new version.
 */
export function VersionOffer({ trackId, offer }: {
  trackId: number;
  offer: { track_id: number; filename: string | null } | null | undefined;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!offer) return null;
  const take = async () => {
    setBusy(true);
    setError(null);
    try {
      await read(client.tracks[":id"]["version-of"].$post({
        param: { id: String(trackId) },
        json: { version_of: offer.track_id },
      }));
      await queryClient.invalidateQueries({ queryKey: ["my-tracks", "history"] });
    } catch (err) {
      setError(errorText(err, FEEDBACK_TEXTS.offerFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="track-new-version" data-testid="my-track-version-offer">
      <span>{FEEDBACK_TEXTS.offer(offer.filename ?? `#${offer.track_id}`)}</span>
      <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void take()}>
        {FEEDBACK_TEXTS.offerTake}
      </button>
      {error && <p className="alert alert-error" role="alert">{error}</p>}
    </div>
  );
}

export function DecisionReasons({ reasons }: { reasons: readonly string[] | undefined }) {
  const known = (reasons ?? []).filter(isDeclineReason) as DeclineReason[];
  if (known.length === 0) return null;
  return (
    <div className="track-reasons" data-testid="my-track-reasons">
      <span className="muted">{FEEDBACK_TEXTS.reasons}:</span>
      <ul>
        {known.map((r) => (
          <li key={r} data-reason={r}>
            <strong>{REASON_TEXTS_RU[r].label}</strong> — {REASON_TEXTS_RU[r].line}
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface RatingStateView {
  direction: string;
  rateable: boolean;
  rating: number | null;
}

export function FeedbackRating({ trackId, state }: { trackId: number; state: RatingStateView | undefined }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [rating, setRating] = useState<number | null>(null);
  const [words, setWords] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const given = done ?? state?.rating ?? null;
  if (given !== null) {
    return <p className="track-rated muted" data-testid="my-track-rated">{FEEDBACK_TEXTS.rated(given)}</p>;
  }
  if (!state?.rateable) return null;
  const send = async () => {
    if (rating === null) return;
    setBusy(true);
    setError(null);
    try {
      await read(client.tracks[":id"].feedback[":direction"].$put({
        param: { id: String(trackId), direction: state.direction },
        json: { rating, words: words.trim() || null },
      }));
      setDone(rating);
      await queryClient.invalidateQueries({ queryKey: ["my-tracks", "history"] });
    } catch (err) {
      setError(errorText(err, FEEDBACK_TEXTS.rateFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="track-rate"
      data-testid="my-track-rate"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <fieldset>
        <legend>{FEEDBACK_TEXTS.rateTitle}</legend>
        <p className="muted track-rate-hint">{FEEDBACK_TEXTS.rateHint}</p>
        <div className="track-rate-stars" role="radiogroup" aria-label={FEEDBACK_TEXTS.rateTitle}>
          {[1, 2, 3, 4, 5].map((n) => (
            <button
              key={n}
              type="button"
              role="radio"
              aria-checked={rating === n}
              aria-label={FEEDBACK_TEXTS.star(n)}
              className={`btn btn-ghost track-rate-star${rating !== null && n <= rating ? " on" : ""}`}
              onClick={() => setRating(n)}
            >
              {n}
            </button>
          ))}
        </div>
        <label htmlFor={`${id}-words`} className="muted">{FEEDBACK_TEXTS.words}</label>
        <textarea
          id={`${id}-words`}
          className="input"
          rows={2}
          maxLength={RATING_WORDS_MAX}
          value={words}
          onChange={(e) => setWords(e.target.value)}
        />
        {error && <p className="alert alert-error" role="alert">{error}</p>}
        <button type="submit" className="btn btn-primary" disabled={rating === null || busy}>
          {busy ? FEEDBACK_TEXTS.sending : FEEDBACK_TEXTS.send}
        </button>
      </fieldset>
    </form>
  );
}

/** Declined, or heard (shortlisted reads as heard to the artist): the track may get a new version. */
export const mayHaveNewVersion = (decisions: ReadonlyArray<{ status: string }>) =>
  decisions.some((d) => d.status === "declined" || d.status === "listened");

export function NewVersion({ trackId }: { trackId: number }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<"idle" | "busy" | "done">("idle");
  const [error, setError] = useState<string | null>(null);
  const send = async (file: File) => {
    setState("busy");
    setError(null);
    const form = new FormData();
    form.append("files", file, file.name);
    try {
      // POST /api/upload?version_of=<id>: the directions still open are inherited (issue 37).
      await apiFetch()(`/api/upload?version_of=${trackId}`, { method: "POST", body: form });
      setState("done");
      await queryClient.invalidateQueries({ queryKey: ["my-tracks"] });
    } catch (err) {
      setState("idle");
      setError(errorText(err, FEEDBACK_TEXTS.uploadFailed));
    } finally {
      if (input.current) input.current.value = "";
    }
  };
  return (
    <div className="track-new-version">
      <input
        ref={input}
        type="file"
        accept=".mp3,audio/mpeg"
        hidden
        data-testid="new-version-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void send(file);
        }}
      />
      <button
        type="button"
        className="btn btn-ghost"
        title={FEEDBACK_TEXTS.newVersionHint}
        disabled={state === "busy"}
        onClick={() => input.current?.click()}
      >
        {state === "busy" ? FEEDBACK_TEXTS.uploading : FEEDBACK_TEXTS.newVersion}
      </button>
      {state === "done" && <span className="muted" role="status">{FEEDBACK_TEXTS.uploaded}</span>}
      {error && <p className="alert alert-error" role="alert">{error}</p>}
    </div>
  );
}

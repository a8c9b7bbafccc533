import { useEffect, useRef, useState } from "react";
import { DIRECTION_LABELS } from "../../../domain/directions.ts";
import type { ResumableUploadSummary } from "../../../domain/resumable-upload.ts";
import type { UploadOutcome } from "../../lib/upload/upload-request.ts";
import {
  cancelUnfinished,
  continueUnfinished,
  fileMismatch,
  formatMb,
  listUnfinished,
  RESUMABLE_TEXTS,
} from "../../lib/upload/resumable-upload.ts";

interface Props {
  /** The form is sending (or this list is): nothing here may start. */
  locked: boolean;
  /** This list started (true) or ended (false) sending an upload. */
  onBusy(busy: boolean): void;
  /** A continued upload ended other than by a message on its row (done, signed out, banned). */
  onOutcome(outcome: UploadOutcome, remaining: number): void;
  /** Uploads not to show (the form's own rows continue them). */
  hidden?: ReadonlySet<string>;
}

/** The share (0–100, rounded down) of the file the server holds whole. */
function shareOf(u: ResumableUploadSummary): number {
  return u.size > 0 ? Math.min(100, Math.floor((u.bytes_done / u.size) * 100)) : 0;
}

/**
 * The artist's unfinished uploads, shown before any file is picked (issue 31, docs/decisions/0290):
 * name, size, share sent, directions, «Продолжить» (asks for the file alone, checked by name, size and
 * modification time) and «Отменить» (the upload and its parts deleted).
 */
export function UnfinishedUploads({ locked, onBusy, onOutcome, hidden }: Props) {
  const [all, setList] = useState<ResumableUploadSummary[]>([]);
  const list = hidden?.size ? all.filter((u) => !hidden.has(u.id)) : all;
  const [active, setActive] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [stalled, setStalled] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const inputRef = useRef<HTMLInputElement>(null);
  const pickFor = useRef<ResumableUploadSummary | null>(null);

  // Read on arrival and each time the page is free again (an upload of the form may have ended one).
  useEffect(() => {
    if (locked) return;
    let live = true;
    void listUnfinished().then((uploads) => {
      if (live && uploads) setList(uploads);
    });
    return () => {
      live = false;
    };
  }, [locked]);

  const rowError = (id: string, message: string | null) =>
    setErrors((prev) => {
      const next = { ...prev };
      if (message) next[id] = message;
      else delete next[id];
      return next;
    });

  const choose = (u: ResumableUploadSummary) => {
    if (locked) return;
    pickFor.current = u;
    inputRef.current?.click();
  };

  const onPicked = async (file: File | undefined) => {
    const u = pickFor.current;
    pickFor.current = null;
    if (!u || !file) return;
    const mismatch = fileMismatch(file, u);
    rowError(u.id, mismatch);
    if (mismatch) return;
    setActive(u.id);
    setProgress(shareOf(u));
    setStalled(false);
    onBusy(true);
    const outcome = await continueUnfinished(u, file, { onProgress: setProgress, onStall: setStalled });
    setStalled(false);
    setActive(null);
    const remaining = list.filter((x) => x.id !== u.id);
    if (outcome.kind === "success") setList(remaining);
    if (outcome.kind === "error") rowError(u.id, outcome.message);
    else onOutcome(outcome, remaining.length);
    onBusy(false);
  };

  const cancel = async (u: ResumableUploadSummary) => {
    if (locked) return;
    onBusy(true);
    const refused = await cancelUnfinished(u.id);
    onBusy(false);
    if (refused === null) setList((prev) => prev.filter((x) => x.id !== u.id));
    else if (refused.kind === "error") rowError(u.id, refused.message);
    else onOutcome(refused, list.length);
  };

  if (list.length === 0) return null;
  return (
    <section className="unfinished" aria-labelledby="unfinished-title">
      <h2 id="unfinished-title" className="unfinished-title">{RESUMABLE_TEXTS.unfinishedTitle}</h2>
      <p className="unfinished-hint">{RESUMABLE_TEXTS.unfinishedHint}</p>
      <input
        ref={inputRef}
        type="file"
        accept="audio/mpeg,.mp3"
        hidden
        data-testid="unfinished-file-input"
        onChange={(e) => {
          void onPicked(e.currentTarget.files?.[0]);
          e.currentTarget.value = "";
        }}
      />
      <ul className="file-list" aria-label={RESUMABLE_TEXTS.unfinishedTitle}>
        {list.map((u) => {
          const sending = active === u.id;
          const shown = sending ? progress : shareOf(u);
          return (
            <li key={u.id} className="file-row" data-testid="unfinished-upload">
              <div className="file-head">
                <span className="file-name">{u.filename}</span>
              </div>
              <p className="unfinished-meta">
                {formatMb(u.size)} · отправлено {shareOf(u)}% ·{" "}
                {u.directions.map((d) => DIRECTION_LABELS[d]).join(", ")}
              </p>
              <div className="progress-row">
                <div
                  className="progress"
                  role="progressbar"
                  aria-label={`Отправлено: ${u.filename}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={shown}
                >
                  <div className="progress-bar" style={{ width: `${shown}%` }} />
                </div>
                <span className="progress-value">{shown}%</span>
                {!sending && (
                  <>
                    <button
                      type="button"
                      className="btn btn-primary btn-resume"
                      aria-label={`${RESUMABLE_TEXTS.resume}: ${u.filename}`}
                      disabled={locked}
                      onClick={() => choose(u)}
                    >
                      {RESUMABLE_TEXTS.resume}
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger btn-resume"
                      aria-label={`${RESUMABLE_TEXTS.cancel}: ${u.filename}`}
                      disabled={locked}
                      onClick={() => void cancel(u)}
                    >
                      {RESUMABLE_TEXTS.cancel}
                    </button>
                  </>
                )}
              </div>
              {sending && stalled && <p className="alert alert-warning" role="status">{RESUMABLE_TEXTS.stalled}</p>}
              {errors[u.id] && <p className="alert alert-error" role="alert">{errors[u.id]}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

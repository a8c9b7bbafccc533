import { useEffect, useId, useRef, useState } from "react";
import {
  MATERIAL_ACCEPT,
  MATERIAL_LABELS,
  type MaterialKind,
  materialNameProblem,
} from "../../../../domain/release-material.ts";
import { uploadReleaseFile } from "../../../lib/upload/resumable-upload.ts";
import { RELEASE_FILES_TEXTS as T } from "./release-files-texts.ts";
import "./release-files.css";

/**
 * The artist's release page's file items (issue 34): the master, and the extended mix and the
 * instrumental when the label asks for them, each with its state, the reason of a refusal and its
 * upload (the resumable upload, client/lib/upload/resumable-upload.ts, with the item's kind and
 * release). While a file is being checked the page is asked again every few seconds (`onChanged`).
 */
export interface ReleaseFileItem {
  kind: MaterialKind;
  required: boolean;
  state: "missing" | "checking" | "accepted" | "refused";
  /** Russian, when refused. */
  reason: string | null;
  filename: string | null;
}

/** How often the page is asked again while a file is being checked. */
export const CHECKING_POLL_MS = 3000;

const BADGE: Record<ReleaseFileItem["state"], string> = {
  missing: "badge badge-muted",
  checking: "badge badge-info",
  accepted: "badge badge-success",
  refused: "badge badge-danger",
};

export function ReleaseFiles({ releaseId, items, onChanged }: {
  releaseId: number;
  items: ReleaseFileItem[];
  onChanged: () => void;
}) {
  const checking = items.some((i) => i.state === "checking");
  useEffect(() => {
    if (!checking) return;
    const timer = setInterval(onChanged, CHECKING_POLL_MS);
    return () => clearInterval(timer);
  }, [checking, onChanged]);

  return (
    <section className="release-files-section" aria-labelledby={`release-files-${releaseId}`}>
      <h2 id={`release-files-${releaseId}`}>{T.title}</h2>
      <p className="release-files-hint">{T.hint}</p>
      <ul className="release-files">
        {items.map((item) => (
          <ReleaseFileRow
            key={item.kind}
            releaseId={releaseId}
            item={item}
            onChanged={onChanged}
          />
        ))}
      </ul>
    </section>
  );
}

function ReleaseFileRow({ releaseId, item, onChanged }: {
  releaseId: number;
  item: ReleaseFileItem;
  onChanged: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const label = MATERIAL_LABELS[item.kind];
  const sending = progress !== null;

  const send = async (file: File) => {
    setError(null);
    const problem = materialNameProblem(file.name);
    if (problem) {
      setError(problem);
      return;
    }
    setProgress(0);
    const outcome = await uploadReleaseFile(file, { kind: item.kind, releaseId }, { onProgress: setProgress });
    setProgress(null);
    if (outcome.kind === "success") onChanged();
    else if (outcome.kind === "expired") setError(T.expired);
    else setError(outcome.message);
  };

  const reason = error ?? (item.state === "refused" ? item.reason : null);
  return (
    <li className="file-row release-file" data-testid={`release-file-${item.kind}`} data-state={item.state}>
      <div className="file-head">
        <span className="release-file-label">{label}</span>
        <span className="release-file-need">{item.required ? T.required : T.optional}</span>
        <span className="release-file-head-end">
          <span className={BADGE[item.state]}>{T.states[item.state]}</span>
          <input
            ref={input}
            id={inputId}
            className="release-file-input"
            type="file"
            accept={MATERIAL_ACCEPT}
            aria-label={T.pick(label)}
            disabled={sending}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) void send(file);
            }}
          />
          <button
            type="button"
            className={item.state === "missing" || item.state === "refused"
              ? "btn btn-primary release-file-action"
              : "btn release-file-action"}
            disabled={sending}
            onClick={() => input.current?.click()}
          >
            {sending ? T.uploading : item.state === "missing" ? T.upload : T.replace}
          </button>
        </span>
      </div>
      {item.filename && <p className="release-file-name">{item.filename}</p>}
      {reason && <p className="file-error" role="alert">{reason}</p>}
      {sending && (
        <div className="progress-row">
          <div
            className="progress"
            role="progressbar"
            aria-label={T.progress(label)}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
          >
            <div className="progress-bar" style={{ width: `${progress}%` }} />
          </div>
          <span className="progress-value">{progress}%</span>
        </div>
      )}
    </li>
  );
}

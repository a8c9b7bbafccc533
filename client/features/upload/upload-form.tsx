import { useEffect, useRef, useState } from "react";
import type { Direction } from "../../../domain/directions.ts";
import { INVALID_NAME_RECORD, INVALID_NAMES_MESSAGE } from "../../../domain/track-name.ts";
import { revealHiddenChars } from "../../../domain/hidden-chars.ts";
import { addFailedFiles, writeFailedFiles } from "../../components/failed-files.ts";
import { UploadIcon } from "../../components/icons.tsx";
import { requestSignIn } from "../../components/need-auth.ts";
import { auth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import { type DirectionIntake, DirectionsPicker, pauseMessage } from "./directions-picker.tsx";
import { FileRow, type UploadItem } from "./file-row.tsx";
import { RequirementsBox } from "./requirements-box.tsx";
import { uploadTracks } from "./upload-request.ts";
import {
  BAN_REDIRECT_MS,
  duplicateWarning,
  fileProgress,
  isValidTrackName,
  POST_UPLOAD_REDIRECT_MS,
  sortIncoming,
  submitButton,
  toggleDirection,
  type UploadPhase,
} from "./upload-rules.ts";

interface Props {
  signedIn: boolean;
  /** Where to go after a successful upload (/processing) or a ban (/login). */
  onNavigate(to: "/processing" | "/login"): void;
  /** The directions' intake from `GET /api/config` (issue 25): paused ones cannot be chosen. */
  intake?: DirectionIntake;
}

let nextId = 1;

/** Drop zone, file list, directions, requirements and the submit button of the upload page. */
export function UploadForm({ signedIn, onNavigate, intake }: Props) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [directions, setDirections] = useState<Direction[]>([]);
  const [phase, setPhase] = useState<UploadPhase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [playingId, setPlayingId] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // Names refused since the last submit: they become this batch's "not uploaded" records.
  const rejectedRef = useRef<string[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const timers = useRef<number[]>([]);

  // Object URLs and timers die with the page.
  useEffect(() => () => {
    for (const it of itemsRef.current) URL.revokeObjectURL(it.audioUrl);
    for (const t of timers.current) clearTimeout(t);
  }, []);

  // A file dropped just beside the zone must not make the browser leave the page and lose the list.
  useEffect(() => {
    const stop = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    };
    globalThis.addEventListener("dragover", stop);
    globalThis.addEventListener("drop", stop);
    return () => {
      globalThis.removeEventListener("dragover", stop);
      globalThis.removeEventListener("drop", stop);
    };
  }, []);

  // A direction paused after it was chosen (the settings read again) leaves the choice.
  useEffect(() => {
    setDirections((prev) => {
      const open = prev.filter((d) => pauseMessage(intake, d) === null);
      return open.length === prev.length ? prev : open;
    });
  }, [intake]);

  const busy = phase !== "idle";
  const invalid = items.filter((i) => !i.valid);
  const button = submitButton({
    signedIn,
    phase,
    fileCount: items.length,
    invalidCount: invalid.length,
    directionCount: directions.length,
  });

  const later = (fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms) as unknown as number);
  };

  const addFiles = (list: FileList | File[] | null | undefined) => {
    if (!list) return;
    const { accepted, duplicates } = sortIncoming([...list], itemsRef.current.map((i) => i.name));
    const warning = duplicateWarning(duplicates);
    if (warning) flash("warning", warning);
    if (accepted.length === 0) return;
    const added: UploadItem[] = accepted.map((file) => ({
      id: `file-${nextId++}`,
      file,
      name: file.name,
      valid: isValidTrackName(file.name),
      progress: 0,
      audioUrl: URL.createObjectURL(file),
    }));
    const bad = added.filter((a) => !a.valid).map((a) => a.name);
    if (bad.length > 0) {
      rejectedRef.current = [...new Set([...rejectedRef.current, ...bad])];
      addFailedFiles(bad.map((filename) => ({ filename, error: INVALID_NAME_RECORD })));
    }
    setError(null);
    setItems((prev) => [...prev, ...added]);
  };

  const removeItem = (id: string) => {
    const item = itemsRef.current.find((i) => i.id === id);
    if (item) URL.revokeObjectURL(item.audioUrl);
    if (playingId === id) setPlayingId(null);
    setItems((prev) => prev.filter((i) => i.id !== id));
  };

  const openPicker = () => {
    if (!signedIn) return requestSignIn();
    if (!busy) inputRef.current?.click();
  };

  const onDirection = (code: Direction) => {
    if (!signedIn) return requestSignIn();
    setDirections((prev) => toggleDirection(prev, code));
  };

  const submit = async (e?: React.FormEvent) => {
    e?.preventDefault();
    if (!signedIn) return requestSignIn();
    if (button.disabled) return;
    // The failed-files list starts afresh with each submit: it holds this batch's refused names.
    writeFailedFiles(rejectedRef.current.map((filename) => ({ filename, error: INVALID_NAME_RECORD })));
    rejectedRef.current = [];
    setPlayingId(null);
    setError(null);
    setPhase("uploading");
    const sending = itemsRef.current;
    const sizes = sending.map((i) => i.file.size);
    setItems((prev) => prev.map((i) => ({ ...i, progress: 0 })));
    const outcome = await uploadTracks(
      sending.map((i) => i.file),
      directions,
      (loaded, total) => {
        const progress = fileProgress(sizes, loaded, total);
        setItems((prev) =>
          prev.map((i) => {
            const at = sending.findIndex((s) => s.id === i.id);
            return at >= 0 ? { ...i, progress: progress[at] } : i;
          })
        );
      },
    );
    switch (outcome.kind) {
      case "success":
        setItems((prev) => prev.map((i) => ({ ...i, progress: 100 })));
        setPhase("success");
        later(() => {
          for (const it of itemsRef.current) URL.revokeObjectURL(it.audioUrl);
          setItems([]);
          setDirections([]);
          setPhase("idle");
          onNavigate("/processing");
        }, POST_UPLOAD_REDIRECT_MS);
        return;
      case "banned":
        setError(outcome.message);
        setPhase("idle");
        later(() => {
          auth.banned(outcome.message);
          onNavigate("/login");
        }, BAN_REDIRECT_MS);
        return;
      case "expired":
        setPhase("idle");
        auth.clear();
        requestSignIn();
        return;
      case "error":
        setError(outcome.message);
        setPhase("idle");
        return;
    }
  };

  const dropProps = {
    onDragOver: (e: React.DragEvent) => {
      e.preventDefault();
      if (!dragging) setDragging(true);
    },
    onDragLeave: (e: React.DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      setDragging(false);
      if (!signedIn) return requestSignIn();
      if (!busy) addFiles(e.dataTransfer.files);
    },
  };

  return (
    <form className="card upload-card" onSubmit={submit} noValidate aria-label="Отправка треков">
      <div className="upload-card-body">
        <button
          type="button"
          className={dragging ? "dropzone dropzone-active" : "dropzone"}
          onClick={openPicker}
          aria-describedby="dropzone-hint"
          disabled={busy && signedIn}
          {...dropProps}
        >
          <span className="dropzone-icon" aria-hidden="true">
            <UploadIcon size={26} />
          </span>
          <span className="dropzone-title">
            {signedIn ? "Перетащите MP3 сюда или выберите файлы" : "Войдите, чтобы отправить трек"}
          </span>
          <span className="dropzone-hint" id="dropzone-hint">Только MP3 · имя файла: Артист - Название.mp3</span>
        </button>
        <input
          ref={inputRef}
          type="file"
          accept="audio/mpeg,.mp3"
          multiple
          hidden
          data-testid="file-input"
          onChange={(e) => {
            addFiles(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />

        {items.length > 0 && (
          <ul className="file-list" aria-label="Выбранные файлы">
            {items.map((item) => (
              <FileRow
                key={item.id}
                item={item}
                playing={playingId === item.id}
                showProgress={phase !== "idle"}
                locked={busy}
                onPlay={() => setPlayingId(item.id)}
                onStop={() => setPlayingId((id) => (id === item.id ? null : id))}
                onRemove={() => removeItem(item.id)}
              />
            ))}
          </ul>
        )}

        {invalid.length > 0 && (
          <div className="alert alert-error" role="alert">
            {INVALID_NAMES_MESSAGE}
            <ul className="alert-list">
              {invalid.map((i) => <li key={i.id}>{revealHiddenChars(i.name)}</li>)}
            </ul>
          </div>
        )}

        <DirectionsPicker selected={directions} disabled={busy} intake={intake} onToggle={onDirection} />
        <RequirementsBox />
      </div>
      <div className="upload-footer">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <button
          type="submit"
          className={phase === "success" ? "btn btn-success btn-lg btn-block" : "btn btn-primary btn-lg btn-block"}
          disabled={button.disabled}
          aria-busy={phase === "uploading"}
        >
          {button.label}
        </button>
      </div>
    </form>
  );
}

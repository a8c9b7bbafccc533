import { useEffect, useRef, useState } from "react";
import type { Direction } from "../../../domain/directions.ts";
import { INVALID_NAME_RECORD, INVALID_NAMES_MESSAGE } from "../../../domain/track-name.ts";
import { revealHiddenChars } from "../../../domain/hidden-chars.ts";
import { addFailedFiles, writeFailedFiles } from "../../components/failed-files.ts";
import { UploadIcon } from "../../components/icons.tsx";
import { requestSignIn } from "../../components/need-auth.ts";
import { auth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import { AiQuestion, useAiAnswer } from "./ai-question.tsx";
import { type DirectionIntake, DirectionsPicker, pauseMessage } from "./directions-picker.tsx";
import { FileRow, type UploadItem } from "./file-row.tsx";
import { RequirementsBox } from "./requirements-box.tsx";
import {
  checkStored,
  doneShare,
  RESUMABLE_TEXTS,
  storedUpload,
  uploadResumable,
} from "../../lib/upload/resumable-upload.ts";
import { UnfinishedUploads } from "./unfinished-uploads.tsx";
import type { UploadOutcome } from "../../lib/upload/upload-request.ts";
import {
  BAN_REDIRECT_MS,
  duplicateWarning,
  isValidTrackName,
  POST_UPLOAD_REDIRECT_MS,
  sortIncoming,
  submitButton,
  toggleDirection,
  UPLOAD_TEXTS,
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
  const ai = useAiAnswer();
  const [phase, setPhase] = useState<UploadPhase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [playingId, setPlayingId] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // Parts stopped going through: the page says so while it keeps trying (issue 31).
  const [stalled, setStalled] = useState(false);
  // An unfinished upload of the list above is being continued or cancelled.
  const [listBusy, setListBusy] = useState(false);
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

  const busy = phase !== "idle" || listBusy;
  const invalid = items.filter((i) => !i.valid);
  const button = submitButton({
    signedIn,
    phase,
    fileCount: items.length,
    invalidCount: invalid.length,
    directionCount: directions.length,
    // A resumed upload keeps the directions it was started with.
    needsDirections: items.some((i) => i.resume === null),
  });
  // The AI question (issue 25) must be answered, and «Да» confirmed, before a signed-in batch goes.
  // A resumed upload keeps the answer it was started with (issue 26), so only new files need one.
  const aiMissing = signedIn && !busy && !ai.ready && items.some((i) => i.resume === null);
  const sendDisabled = button.disabled || aiMissing || listBusy;

  const later = (fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms) as unknown as number);
  };

  const addFiles = (list: FileList | File[] | null | undefined) => {
    if (!list) return;
    const { accepted, duplicates } = sortIncoming([...list], itemsRef.current.map((i) => i.name));
    const warning = duplicateWarning(duplicates);
    if (warning) flash("warning", warning);
    if (accepted.length === 0) return;
    const added: UploadItem[] = accepted.map((file) => {
      const stored = storedUpload(file);
      return {
        id: `file-${nextId++}`,
        file,
        name: file.name,
        valid: isValidTrackName(file.name),
        progress: 0,
        audioUrl: URL.createObjectURL(file),
        resume: stored ? doneShare(file.size, stored.part_size, stored.parts_done) : null,
      };
    });
    // A stored upload the server no longer has (expired, 404) is dropped and the file starts anew.
    if (signedIn) { for (const item of added) if (item.resume !== null) void refreshResume(item.id, item.file); }
    const bad = added.filter((a) => !a.valid).map((a) => a.name);
    if (bad.length > 0) {
      rejectedRef.current = [...new Set([...rejectedRef.current, ...bad])];
      addFailedFiles(bad.map((filename) => ({ filename, error: INVALID_NAME_RECORD })));
    }
    setError(null);
    setItems((prev) => [...prev, ...added]);
  };

  const refreshResume = async (id: string, file: File) => {
    const stored = await checkStored(file);
    const resume = stored ? doneShare(file.size, stored.part_size, stored.parts_done) : null;
    setItems((prev) => prev.map((i) => (i.id === id ? { ...i, resume } : i)));
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

  /** Sends every file in the list, or only `onlyId` (a row's «Продолжить»). */
  const submit = async (e?: React.FormEvent, onlyId?: string) => {
    e?.preventDefault();
    if (!signedIn) return requestSignIn();
    if (onlyId ? busy : sendDisabled) return;
    // The failed-files list starts afresh with each submit: it holds this batch's refused names.
    writeFailedFiles(rejectedRef.current.map((filename) => ({ filename, error: INVALID_NAME_RECORD })));
    rejectedRef.current = [];
    setPlayingId(null);
    setError(null);
    setPhase("uploading");
    const sending = itemsRef.current.filter((i) => !onlyId || i.id === onlyId);
    const sentIds = new Set(sending.map((i) => i.id));
    setItems((prev) => prev.map((i) => (sentIds.has(i.id) ? { ...i, progress: i.resume ?? 0 } : i)));
    const finished = new Set<string>();
    const outcome = await uploadResumable(
      sending.map((i) => i.file),
      directions,
      {
        onProgress: (index, percent) => {
          const id = sending[index].id;
          setItems((prev) => prev.map((i) => (i.id === id ? { ...i, progress: percent } : i)));
        },
        onDone: (index) => {
          finished.add(sending[index].id);
        },
        onStall: setStalled,
      },
      // The batch's answer to the AI question (issue 25) goes with each upload's start.
      { aiUse: ai.answer.value ?? undefined },
    );
    setStalled(false);
    // What the server holds of each file not finished: the row offers «Продолжить» from there.
    const leftOver = () =>
      setItems((prev) =>
        prev.filter((i) => !finished.has(i.id)).map((i) => {
          if (!sentIds.has(i.id)) return i;
          const stored = storedUpload(i.file);
          return { ...i, resume: stored ? doneShare(i.file.size, stored.part_size, stored.parts_done) : null };
        })
      );
    switch (outcome.kind) {
      case "success": {
        if (itemsRef.current.some((i) => !sentIds.has(i.id))) {
          // A row's «Продолжить» finished its file; the rest of the list waits for the button.
          for (const it of sending) URL.revokeObjectURL(it.audioUrl);
          leftOver();
          setPhase("idle");
          return;
        }
        setItems((prev) => prev.map((i) => ({ ...i, progress: 100, resume: null })));
        setPhase("success");
        later(() => {
          for (const it of itemsRef.current) URL.revokeObjectURL(it.audioUrl);
          setItems([]);
          setDirections([]);
          ai.reset();
          setPhase("idle");
          onNavigate("/processing");
        }, POST_UPLOAD_REDIRECT_MS);
        return;
      }
      case "banned":
      case "expired":
        if (outcome.kind === "expired") leftOver();
        endSession(outcome);
        return;
      case "error":
        leftOver();
        setError(outcome.message);
        setPhase("idle");
        return;
    }
  };

  /** A ban (the page goes to /login) or a session that could not be renewed (sign in again). */
  const endSession = (outcome: Extract<UploadOutcome, { kind: "banned" | "expired" }>) => {
    setPhase("idle");
    if (outcome.kind === "expired") {
      auth.clear();
      requestSignIn();
      return;
    }
    setError(outcome.message);
    later(() => {
      auth.banned(outcome.message);
      onNavigate("/login");
    }, BAN_REDIRECT_MS);
  };

  /** A listed unfinished upload continued to its end (or stopped by the session): as the button's own. */
  const onListOutcome = (outcome: UploadOutcome, remaining: number) => {
    if (outcome.kind === "banned" || outcome.kind === "expired") return endSession(outcome);
    if (outcome.kind !== "success") return;
    // The last unfinished upload done and nothing else picked: off to /processing as after a send.
    if (remaining > 0 || itemsRef.current.length > 0) return flash("success", UPLOAD_TEXTS.uploaded);
    setPhase("success");
    later(() => {
      setPhase("idle");
      onNavigate("/processing");
    }, POST_UPLOAD_REDIRECT_MS);
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
        {signedIn && (
          <UnfinishedUploads
            locked={busy}
            onBusy={setListBusy}
            onOutcome={onListOutcome}
            // A file of the list below already offers its own «Продолжить».
            hidden={new Set(items.flatMap((i) => storedUpload(i.file)?.id ?? []))}
          />
        )}
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
                showProgress={phase !== "idle" || item.resume !== null}
                locked={busy}
                onResume={() => submit(undefined, item.id)}
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
        <AiQuestion
          answer={ai.answer}
          onChoose={(v) => (signedIn ? ai.choose(v) : requestSignIn())}
          onConfirm={ai.confirm}
          disabled={busy}
          prompt={signedIn && items.length > 0 && directions.length > 0}
        />
        <RequirementsBox />
      </div>
      <div className="upload-footer">
        {stalled && phase === "uploading" && (
          <div className="alert alert-warning" role="status">{RESUMABLE_TEXTS.stalled}</div>
        )}
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <button
          type="submit"
          className={phase === "success" ? "btn btn-success btn-lg btn-block" : "btn btn-primary btn-lg btn-block"}
          disabled={sendDisabled}
          aria-busy={phase === "uploading"}
        >
          {button.label}
        </button>
      </div>
    </form>
  );
}

import type { Direction } from "../../domain/directions.ts";
import type { AiUse } from "../../domain/ai-use.ts";
import { AI_USE_ERRORS } from "../../domain/ai-use-desk.ts";
import { ApiError, badRequest, tooLarge } from "../lib/http-error.ts";
import type { FileStorage } from "../storage/file-storage.ts";
import { type MultipartForm, receiveMultipart } from "../http/multipart.ts";
import {
  addAiUse,
  addDirections,
  checkFilePart,
  emptyFaults,
  faultRecords,
  faultsMessage,
  hasFaults,
  NO_DIRECTIONS_MESSAGE,
  NO_FILES_MESSAGE,
  normaliseFilename,
} from "./upload-rules.ts";
import {
  fileTooLargeMessage,
  isOverFileCount,
  requestTooLargeMessage,
  tooManyFilesMessage,
} from "../../domain/upload-limits.ts";

export interface ReceivedFile {
  key: string;
  filename: string;
  size: number;
}

export interface ReceiveOptions {
  storage: FileStorage;
  maxFiles: number;
  maxFileBytes: number;
  /** UPLOAD_IDLE_TIMEOUT_S in milliseconds: a body silent this long is cut off with 408. */
  idleTimeoutMs: number;
  /** A fresh storage key; never derived from the user's file name. */
  newKey: () => string;
  /**
   * The intake rules (server/intake/check.ts `intakeGate`): throws the refusal for these directions
   * and this many files. Asked as each file starts once directions have arrived (a form that sends
   * them first has nothing stored when it is refused), and again with all of them at the end.
   */
  checkSubmission?: (directions: readonly Direction[], files: number) => void;
  /** A new version (issue 37): the directions it inherits when the form names none. */
  defaultDirections?: readonly Direction[];
}

export const MALFORMED_MESSAGE =
  "Некорректный запрос: заголовок части (например, имя файла) содержит недопустимые символы. Файлы не сохранены.";
export const ABORTED_MESSAGE = "Загрузка прервана или запрос повреждён: файлы не сохранены. Попробуйте ещё раз.";

/** Multipart overhead allowed per file (part headers, boundaries) on top of the file itself. */
const PART_OVERHEAD = 64 * 1024;

/**
 * Reads a track upload (repeated `files`, repeated `directions`, the batch's `ai_use`) with the shared multipart reader:
 * each `files` part goes straight into storage, so memory stays flat whatever the sizes. Every rule
 * is checked as parts arrive; `directions` may come after the files, so the final verdict waits for
 * the end of the body. On any failure every file of the request is deleted before the error is
 * thrown: the caller gets either all files stored and valid, or nothing (decision 0020).
 */
export async function receiveUpload(
  req: Request,
  opts: ReceiveOptions,
): Promise<{ files: ReceivedFile[]; directions: Direction[]; aiUse: AiUse | null; discard: () => Promise<void> }> {
  const faults = emptyFaults();
  const seen = new Set<string>();
  const directions: Direction[] = [];
  // The AI question's answer (issue 25, decision 0245): null when the field is left out.
  let aiUse: AiUse | null = null;
  const names = new Map<string, string>();
  let fileCount = 0;
  const maxBody = opts.maxFiles * (opts.maxFileBytes + PART_OVERHEAD) + PART_OVERHEAD;

  const form: MultipartForm = await receiveMultipart(req, {
    files: {
      files: {
        storage: opts.storage,
        maxBytes: opts.maxFileBytes,
        accept(part) {
          // A file input left empty arrives as a part with an empty name and no bytes.
          if (!part.filename) return null;
          fileCount++;
          if (isOverFileCount(fileCount, opts.maxFiles)) throw tooLarge(tooManyFilesMessage(opts.maxFiles));
          if (directions.length > 0) opts.checkSubmission?.(directions, fileCount);
          const filename = normaliseFilename(part.filename);
          const problem = checkFilePart(filename, part.mimeType);
          if (problem) faults[problem].push(filename);
          else if (seen.has(filename) && !faults.duplicate.includes(filename)) faults.duplicate.push(filename);
          seen.add(filename);
          // Once the request is known to fail, later files are read past (to name every file at
          // fault) but not stored.
          if (hasFaults(faults)) return null;
          const key = opts.newKey();
          names.set(key, filename);
          return key;
        },
        tooLarge: (part) => tooLarge(fileTooLargeMessage(normaliseFilename(part.filename), opts.maxFileBytes)),
      },
    },
    onField(name, value, { truncated }) {
      if (name === "ai_use") {
        const answer = truncated ? { error: AI_USE_ERRORS.invalid } : addAiUse(aiUse, value);
        if ("error" in answer) throw badRequest(answer.error);
        aiUse = answer.value;
        return;
      }
      if (name !== "directions") return;
      if (truncated) throw badRequest("Некорректное значение поля directions.");
      const error = addDirections(directions, value);
      if (error) throw badRequest(error);
    },
    limits: { fields: 64, fieldSize: 4096, parts: opts.maxFiles + 64 },
    idleTimeoutMs: opts.idleTimeoutMs,
    maxBody: { bytes: maxBody, error: tooLarge(requestTooLargeMessage(opts.maxFiles, opts.maxFileBytes)) },
    messages: {
      notMultipart: "Ожидается запрос multipart/form-data с файлами и направлениями.",
      badHeader: "Некорректный запрос multipart/form-data.",
      aborted: ABORTED_MESSAGE,
      malformedHeader: MALFORMED_MESSAGE,
      tooManyParts: tooLarge(tooManyFilesMessage(opts.maxFiles)),
      tooManyFields: badRequest("Слишком много полей в запросе."),
    },
  });

  let failure: ApiError | null = null;
  if (hasFaults(faults)) failure = badRequest(faultsMessage(faults), { invalid_files: faultRecords(faults) });
  else if (fileCount === 0) failure = badRequest(NO_FILES_MESSAGE);
  else if (directions.length === 0 && opts.defaultDirections?.length) directions.push(...opts.defaultDirections);
  else if (directions.length === 0) failure = badRequest(NO_DIRECTIONS_MESSAGE);
  if (failure === null && opts.checkSubmission) {
    try {
      opts.checkSubmission(directions, fileCount);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      failure = err;
    }
  }
  if (failure !== null) {
    await form.discard();
    throw failure;
  }
  const files = form.files.map((f) => ({ key: f.key, filename: names.get(f.key)!, size: f.size }));
  return { files, directions, aiUse, discard: form.discard };
}

import busboy from "busboy";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Direction } from "../../domain/directions.ts";
import { ApiError, badRequest, tooLarge } from "../lib/http-error.ts";
import { type FileStorage, TooLargeError } from "../lib/storage.ts";
import { pacedStream } from "../lib/gc-pacer.ts";
import {
  addDirections,
  checkFilePart,
  emptyFaults,
  faultRecords,
  faultsMessage,
  fileTooLargeMessage,
  hasFaults,
  NO_DIRECTIONS_MESSAGE,
  NO_FILES_MESSAGE,
  normaliseFilename,
  tooManyFilesMessage,
} from "./upload-rules.ts";

export interface ReceivedFile {
  key: string;
  filename: string;
  size: number;
}

export interface ReceiveOptions {
  storage: FileStorage;
  maxFiles: number;
  maxFileBytes: number;
  /** A fresh storage key; never derived from the user's file name. */
  newKey: () => string;
}

export const MALFORMED_MESSAGE =
  "Некорректный запрос: заголовок части (например, имя файла) содержит недопустимые символы. Файлы не сохранены.";
export const ABORTED_MESSAGE = "Загрузка прервана или запрос повреждён: файлы не сохранены. Попробуйте ещё раз.";

/**
 * Parses a multipart upload as a stream (busboy over the request body) and writes each `files` part
 * straight into storage, so memory stays flat whatever the sizes. Every rule is checked as parts
 * arrive; `directions` may come after the files, so the final verdict waits for the end of the body.
 * On any failure (a rule, a limit, a client that disconnects) every file of the request is deleted
 * before the error is thrown: the caller gets either all files stored and valid, or nothing.
 */
export async function receiveUpload(
  req: Request,
  opts: ReceiveOptions,
): Promise<{ files: ReceivedFile[]; directions: Direction[] }> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType) || !req.body) {
    throw badRequest("Ожидается запрос multipart/form-data с файлами и направлениями.");
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": contentType },
      // busboy decodes file names as latin1 by default, which garbles Cyrillic names.
      defParamCharset: "utf8",
      limits: { fields: 64, fieldSize: 4096, fieldNameSize: 100, parts: opts.maxFiles + 64 },
    });
  } catch {
    throw badRequest("Некорректный запрос multipart/form-data.");
  }

  const faults = emptyFaults();
  const seen = new Set<string>();
  const directions: Direction[] = [];
  const keys: string[] = [];
  const slots: Array<ReceivedFile | null> = [];
  const writes: Promise<void>[] = [];
  let fileCount = 0;
  /** The first reason we stopped reading the request (an ApiError, or a storage failure). */
  let fatal: unknown = null;

  const abort = (err: unknown) => {
    if (fatal !== null || bb.destroyed) return;
    fatal = err;
    bb.destroy(err instanceof Error ? err : new Error(String(err)));
  };

  // Errors reach us through the pipeline and the storage writes; without a listener, a stream
  // destroyed after the pipeline settled would throw from an event emitter.
  bb.on("error", () => {});
  bb.on("file", (field, stream, info) => {
    stream.on("error", () => {});
    // A file input left empty arrives as a part with an empty name and no bytes.
    if (fatal !== null || field !== "files" || !info.filename) {
      stream.resume();
      return;
    }
    fileCount++;
    if (fileCount > opts.maxFiles) {
      stream.resume();
      abort(tooLarge(tooManyFilesMessage(opts.maxFiles)));
      return;
    }
    const filename = normaliseFilename(info.filename);
    const problem = checkFilePart(filename, info.mimeType);
    if (problem) {
      faults[problem].push(filename);
    } else if (seen.has(filename)) {
      if (!faults.duplicate.includes(filename)) faults.duplicate.push(filename);
    }
    seen.add(filename);
    // Once the request is known to fail, later files are read past (to name every file at fault)
    // but not stored.
    if (hasFaults(faults)) {
      stream.resume();
      return;
    }
    const key = opts.newKey();
    keys.push(key);
    const slot = slots.push(null) - 1;
    writes.push(
      opts.storage
        .write(
          key,
          limitedStream(stream, opts.maxFileBytes, () => abort(tooLarge(fileTooLargeMessage(filename, opts.maxFileBytes)))),
          { maxBytes: opts.maxFileBytes },
        )
        .then(({ size }) => {
          slots[slot] = { key, filename, size };
        }, (err) => {
          // A parser that is already torn down (limit, rule, disconnect) reports through `fatal` or
          // the pipeline; a storage write failing on its own must stop the parser, or busboy waits for
          // the dead file stream for ever.
          abort(err instanceof TooLargeError ? tooLarge(fileTooLargeMessage(filename, opts.maxFileBytes)) : err);
        }),
    );
  });

  bb.on("field", (name, value, info) => {
    if (fatal !== null || name !== "directions") return;
    if (info.valueTruncated) return abort(badRequest("Некорректное значение поля directions."));
    const error = addDirections(directions, value);
    if (error) abort(badRequest(error));
  });
  bb.on("partsLimit", () => abort(tooLarge(tooManyFilesMessage(opts.maxFiles))));
  bb.on("fieldsLimit", () => abort(badRequest("Слишком много полей в запросе.")));

  let streamError: unknown = null;
  try {
    await pipeline(Readable.fromWeb(pacedStream(req.body) as import("node:stream/web").ReadableStream), bb);
  } catch (err) {
    streamError = err;
  }
  await Promise.allSettled(writes);

  const files = slots.filter((f): f is ReceivedFile => f !== null);
  let failure: unknown = fatal;
  if (failure === null && streamError !== null) {
    const malformed = streamError instanceof Error && streamError.message === "Malformed part header";
    failure = badRequest(malformed ? MALFORMED_MESSAGE : ABORTED_MESSAGE);
  }
  if (failure === null && files.length !== slots.length) failure = badRequest(ABORTED_MESSAGE);
  if (failure === null && hasFaults(faults)) {
    failure = badRequest(faultsMessage(faults), { invalid_files: faultRecords(faults) });
  }
  if (failure === null && fileCount === 0) failure = badRequest(NO_FILES_MESSAGE);
  if (failure === null && directions.length === 0) failure = badRequest(NO_DIRECTIONS_MESSAGE);
  if (failure !== null) {
    await discardFiles(opts.storage, keys);
    throw failure instanceof ApiError || failure instanceof Error ? failure : new Error(String(failure));
  }
  return { files, directions };
}

/**
 * A busboy file stream as a web stream, pulled one chunk at a time (so busboy's back-pressure holds).
 * Past `maxBytes` it calls `onTooLarge` before failing, so the 413 is decided before the storage
 * write unwinds.
 */
function limitedStream(stream: Readable, maxBytes: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const { value, done } = await chunks.next();
      if (done) return ctrl.close();
      size += value.byteLength;
      if (size > maxBytes) {
        onTooLarge();
        ctrl.error(new TooLargeError(maxBytes));
        return;
      }
      ctrl.enqueue(value);
    },
    async cancel() {
      await chunks.return?.();
    },
  }, { highWaterMark: 0 });
}

/** Deletes stored files; used when a request fails after some of its files were written. */
export async function discardFiles(storage: FileStorage, keys: string[]): Promise<void> {
  await Promise.allSettled(keys.map((k) => storage.delete(k)));
}

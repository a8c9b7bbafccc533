import busboy from "busboy";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError, badRequest } from "../lib/http-error.ts";
import { type FileStorage, TooLargeError } from "../storage/file-storage.ts";
import { pacedStream } from "../lib/gc-pacer.ts";
import { giveWay } from "../lib/give-way.ts";
import { plural } from "../../domain/russian-plural.ts";

/**
 * The one multipart/form-data reader (track uploads, slider images, avatars): busboy over the
 * request body, every accepted file part written straight into its storage while it arrives, so
 * memory does not depend on file sizes (decisions 0020, 0023, 0125). All or nothing: when anything
 * fails (a rule, a limit, a broken or aborted body, the storage) every file written for the request
 * is deleted before the error is thrown, and reading stops at once. A body that sends nothing for
 * `idleTimeoutMs`, or is still arriving after `maxDurationMs`, fails the same way with 408
 * (decision 0115).
 */

/**
 * The longest a multipart body may take to arrive, however steadily it trickles. The storage sweep
 * only removes files older than twice this (RECOVERY_MIN_AGE_MS), so it never takes the files of an
 * upload still in flight. The site's own upload page gives up after 10 minutes.
 */
export const UPLOAD_MAX_DURATION_MS = 30 * 60 * 1000;

export interface FilePartInfo {
  field: string;
  /** As the client sent it, decoded as UTF-8; "" for an empty file input. */
  filename: string;
  mimeType: string;
}

export interface FileSpec {
  storage: FileStorage;
  /** Largest accepted part; past it the parse stops with `tooLarge(part)`. */
  maxBytes: number;
  /** Bytes read before `accept` decides, for a content check such as `sniffImage`; 0: the part header decides. */
  headBytes?: number;
  /**
   * Decides on a part: the storage key to keep it under, or null to read past it without storing.
   * Throw an ApiError to fail the request. `head` has at least `headBytes` bytes, fewer only when
   * the part is shorter. Never derive the key from the client's file name.
   */
  accept(part: FilePartInfo, head: Uint8Array): string | null;
  tooLarge(part: FilePartInfo): ApiError;
}

export interface StoredPart extends FilePartInfo {
  key: string;
  size: number;
}

export interface MultipartOptions {
  /** File parts by field name; file parts of any other field are read past. */
  files: Record<string, FileSpec>;
  /**
   * Sees each text field as it arrives (files may come before or after). Throw an ApiError to fail
   * the request. A truncated value (past `limits.fieldSize`) is never kept in `fields`.
   */
  onField?(name: string, value: string, info: { truncated: boolean }): void;
  limits: { fields: number; fieldSize: number; parts: number; files?: number };
  /**
   * How long the body may send nothing while it is waited for (UPLOAD_IDLE_TIMEOUT_S). Time the
   * reader spends on its own storage (back-pressure) does not count.
   */
  idleTimeoutMs: number;
  /** The whole body's time limit; UPLOAD_MAX_DURATION_MS unless a test shortens it. */
  maxDurationMs?: number;
  /** A declared Content-Length past `bytes` is refused before a byte is read. */
  maxBody?: { bytes: number; error: ApiError };
  messages: {
    /** Not multipart/form-data (or a header busboy cannot use, unless `badHeader` says otherwise). */
    notMultipart: string;
    noBody?: string;
    badHeader?: string;
    /** The body broke off (client gone), ended early or is not valid multipart. */
    aborted: string;
    /** A part header busboy cannot read (control characters in a file name); default `aborted`. */
    malformedHeader?: string;
    /** Past a limit; when left out, busboy skips the extra parts silently. */
    tooManyFiles?: ApiError;
    tooManyFields?: ApiError;
    tooManyParts?: ApiError;
  };
}

export interface MultipartForm {
  /** Text fields, the last value of each name. */
  fields: Record<string, string>;
  /** Stored files in the order of their parts. */
  files: StoredPart[];
  /** Deletes every stored file: for a request that fails after the form was read (a rule, the database). */
  discard(): Promise<void>;
}

/** What the file parts of one request share. */
export interface PartsReceived {
  written: Array<{ storage: FileStorage; key: string }>;
  slots: Array<StoredPart | null>;
  fail(err: unknown): void;
}

export async function receiveMultipart(req: Request, opts: MultipartOptions): Promise<MultipartForm> {
  const m = opts.messages;
  const declared = Number(req.headers.get("content-length") ?? "");
  if (opts.maxBody && Number.isFinite(declared) && declared > opts.maxBody.bytes) throw opts.maxBody.error;
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) throw badRequest(m.notMultipart);
  if (!req.body) throw badRequest(m.noBody ?? m.notMultipart);
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": contentType },
      // busboy decodes file names as latin1 by default, which garbles Cyrillic names.
      defParamCharset: "utf8",
      limits: { ...opts.limits, fieldNameSize: 100 },
    });
  } catch {
    throw badRequest(m.badHeader ?? m.notMultipart);
  }

  const fields: Record<string, string> = {};
  const written: Array<{ storage: FileStorage; key: string }> = [];
  const slots: Array<StoredPart | null> = [];
  const parts: Promise<void>[] = [];
  /** The first reason to stop: an ApiError, or a storage failure (a real server error). */
  let fatal: unknown = null;

  const fail = (err: unknown) => {
    fatal ??= err;
    if (!bb.destroyed) bb.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  const received: PartsReceived = { written, slots, fail };

  // Errors reach us through the pipeline and the storage writes; without a listener, a stream
  // destroyed after the pipeline settled would throw from an event emitter.
  bb.on("error", () => {});
  bb.on("file", (field, stream, info) => {
    stream.on("error", () => {});
    const spec = opts.files[field];
    if (fatal !== null || !spec) {
      stream.resume();
      return;
    }
    parts.push(receivePart(received, spec, { field, filename: info.filename ?? "", mimeType: info.mimeType }, stream));
  });
  bb.on("field", (name, value, info) => {
    if (fatal !== null) return;
    try {
      opts.onField?.(name, value, { truncated: info.valueTruncated });
    } catch (err) {
      return fail(err);
    }
    if (!info.valueTruncated) fields[name] = value;
  });
  const { tooManyFiles, tooManyFields, tooManyParts } = m;
  if (tooManyFiles) bb.on("filesLimit", () => fail(tooManyFiles));
  if (tooManyFields) bb.on("fieldsLimit", () => fail(tooManyFields));
  if (tooManyParts) bb.on("partsLimit", () => fail(tooManyParts));

  const maxDurationMs = opts.maxDurationMs ?? UPLOAD_MAX_DURATION_MS;
  const deadline = setTimeout(() => fail(tookTooLong(maxDurationMs)), maxDurationMs);
  const body = watchIdle(pacedStream(req.body), opts.idleTimeoutMs, () => fail(idleTooLong(opts.idleTimeoutMs)));
  let streamError: unknown = null;
  try {
    await pipeline(Readable.fromWeb(body as NodeReadableStream), bb);
  } catch (err) {
    streamError = err;
  } finally {
    clearTimeout(deadline);
  }
  await Promise.allSettled(parts);

  const files = slots.filter((f): f is StoredPart => f !== null);
  const discard = () => discardFiles(written);
  let failure: unknown = fatal;
  if (failure === null && streamError !== null) {
    const malformed = streamError instanceof Error && streamError.message === "Malformed part header";
    failure = badRequest(malformed && m.malformedHeader ? m.malformedHeader : m.aborted);
  }
  // A part whose write never finished while the body "succeeded": treat it as a broken upload.
  if (failure === null && files.length !== slots.length) failure = badRequest(m.aborted);
  if (failure !== null) {
    await discard();
    throw failure instanceof Error ? failure : new Error(String(failure));
  }
  return { fields, files, discard };
}

/**
 * One file part: its head read for `spec.accept`, then written into its storage while it arrives
 * (or read past). The request's shared state is `shared`: what was written (to delete on failure), the
 * part's slot among the stored files, and `fail`, the request's first reason to stop.
 */
export async function receivePart(
  shared: PartsReceived,
  spec: FileSpec,
  part: FilePartInfo,
  stream: Readable,
): Promise<void> {
  let chunks: AsyncIterator<Uint8Array> | null = null;
  // Set when the part itself broke (client gone, body cut, parse stopped): the pipeline's outcome
  // then says why, and the write's own error must not turn it into a server error.
  let sourceBroke = false;
  const next = async () => {
    chunks ??= stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    try {
      return await chunks.next();
    } catch (err) {
      sourceBroke = true;
      throw err;
    }
  };

  const head: Uint8Array[] = [];
  let headSize = 0;
  let ended = false;
  try {
    while (headSize < (spec.headBytes ?? 0)) {
      const r = await next();
      if (r.done) {
        ended = true;
        break;
      }
      head.push(r.value);
      headSize += r.value.byteLength;
    }
  } catch {
    return;
  }

  let key: string | null;
  try {
    key = spec.accept(part, join(head, headSize));
  } catch (err) {
    shared.fail(err);
    return;
  }
  if (key === null) {
    if (!chunks) stream.resume();
    else if (!ended) await drain(next);
    return;
  }

  shared.written.push({ storage: spec.storage, key });
  const slot = shared.slots.push(null) - 1;
  let size = 0;
  let fromHead = 0;
  // Pulled one chunk at a time (no buffering of its own), so busboy's back-pressure holds.
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      let chunk: Uint8Array;
      if (fromHead < head.length) chunk = head[fromHead++];
      else {
        const r = ended ? { done: true as const, value: undefined } : await next();
        if (r.done) return ctrl.close();
        chunk = r.value;
      }
      size += chunk.byteLength;
      if (size > spec.maxBytes) {
        // Decided here, before the storage write unwinds, so the answer names the limit.
        shared.fail(spec.tooLarge(part));
        ctrl.error(new TooLargeError(spec.maxBytes));
        return;
      }
      ctrl.enqueue(chunk);
    },
    async cancel() {
      await chunks?.return?.();
    },
  }, { highWaterMark: 0 });
  try {
    const stored = await spec.storage.write(key, body, { maxBytes: spec.maxBytes });
    shared.slots[slot] = { ...part, key, size: stored.size };
  } catch (err) {
    if (sourceBroke) return;
    // A storage failing on its own must stop the parser too, or busboy waits for ever on a part
    // nobody reads.
    shared.fail(err instanceof TooLargeError ? spec.tooLarge(part) : err);
  }
}

/**
 * Passes the body through, calling `onIdle` when a read waits `idleMs` for the client. Only time
 * spent waiting on the client counts: while the reader holds back (its storage is busy), nothing is
 * read and no timer runs. Between chunks it gives way to other requests (server/lib/give-way.ts).
 */
function watchIdle(body: ReadableStream<Uint8Array>, idleMs: number, onIdle: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      // Other requests are let in between chunks of a body that arrives faster than it is read.
      const wait = giveWay();
      if (wait) await wait;
      const timer = setTimeout(onIdle, idleMs);
      try {
        const r = await reader.read();
        if (r.done) ctrl.close();
        else ctrl.enqueue(r.value);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** 408: the client sent nothing for `idleMs`. */
export function idleTooLong(idleMs: number): ApiError {
  const s = Math.max(1, Math.round(idleMs / 1000));
  return new ApiError(
    408,
    `Загрузка прервана: данные не поступали ${s} ${plural(s, "секунду", "секунды", "секунд")}. ` +
      "Файлы не сохранены, попробуйте ещё раз.",
  );
}

/** 408: the body was still arriving after `maxMs`. */
function tookTooLong(maxMs: number): ApiError {
  const m = Math.max(1, Math.round(maxMs / 60_000));
  return new ApiError(
    408,
    `Загрузка прервана: она шла дольше ${m} ${plural(m, "минуты", "минут", "минут")}. ` +
      "Файлы не сохранены, попробуйте загрузить их по частям.",
  );
}

/** Deletes stored files (missing ones are fine); used when a request fails after files were written. */
export async function discardFiles(files: Array<{ storage: FileStorage; key: string }>): Promise<void> {
  await Promise.allSettled(files.map((f) => f.storage.delete(f.key)));
}

export type ImageKind = "jpg" | "png";

/** Enough of a part for `sniffImage`. */
export const IMAGE_HEAD_BYTES = 8;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image kind told by the first bytes (JPEG `FF D8 FF`, the PNG signature), whatever the client claimed. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpg";
  if (head.length >= 8 && PNG_SIGNATURE.every((b, i) => head[i] === b)) return "png";
  return null;
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

async function drain(next: () => Promise<IteratorResult<Uint8Array>>): Promise<void> {
  try {
    while (!(await next()).done) { /* read past */ }
  } catch { /* the request went away; the pipeline reports it */ }
}

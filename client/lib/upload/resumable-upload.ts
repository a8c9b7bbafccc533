import type { Direction } from "../../../domain/directions.ts";
import { refreshSession } from "../api.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";
import { interpretUpload, type RawAnswer, type UploadOutcome, type XhrRequest, xhrSend } from "./upload-request.ts";
import { TRANSFER_TEXTS as UPLOAD_TEXTS, UPLOAD_TIMEOUT_MS } from "./transfer-texts.ts";
import type { ResumableUploadSummary, ResumableUploadView } from "../../../domain/resumable-upload.ts";

/**
 * The upload page's side of the resumable protocol (issue 26; docs/decisions/0254, 0255): start
 * every file (checked by the server before any byte moves), send each file's missing parts — to
 * the bucket's presigned addresses in s3 mode, to the part endpoint on local disk — and complete
 * it. Each upload's id and finished parts are kept in localStorage by file name, size and
 * modification time, so the same file picked again after a dropped connection, a closed lid or a
 * reload continues where it stopped. After a reload the page lists the artist's unfinished uploads
 * from the server (issue 31, docs/decisions/0290): continuing one asks only for its file.
 */

/** The server's `Upload` (contract of issue 26). */
export type ResumableUpload = ResumableUploadView;

/** What this browser keeps of an unfinished upload. */
export interface StoredUpload {
  id: string;
  size: number;
  part_size: number;
  parts_done: number[];
  expires_at: string;
}

export const API_BASE = "/api/upload/resumable";
/**
 * Waits before each new try of a part that failed (ms), the last one repeated: the page keeps trying
 * while it is open, and tries at once when the browser says the connection is back (issue 31,
 * docs/decisions/0291).
 */
export const PART_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

/** The wait before try `failures + 1` of a part. */
export function retryDelay(failures: number): number {
  return PART_RETRY_DELAYS_MS[Math.min(failures, PART_RETRY_DELAYS_MS.length - 1)];
}
/** A part whose body sends nothing for this long is cut and tried again (a dead connection). */
export const PART_IDLE_MS = 60_000;
const API_TIMEOUT_MS = 120_000;

export const RESUMABLE_TEXTS = {
  resume: "Продолжить",
  interrupted: "Связь прервалась. Загрузка сохранена: нажмите «Продолжить», и она пойдёт с того же места.",
  gone: "Загрузка устарела и начнётся заново. Нажмите кнопку ещё раз.",
  stalled: "Связь прервалась. Пробуем снова: загрузка продолжится сама, когда связь вернётся.",
  cancel: "Отменить",
  unfinishedTitle: "Незавершённые загрузки",
  unfinishedHint: "Выберите тот же файл: направления и ответы сохранены.",
  notFound: "Загрузка не найдена: отправьте файл заново.",
} as const;

/** Why a file picked to continue an upload is not its file; null when it is (name, size, modification time). */
export function fileMismatch(
  file: Pick<File, "name" | "size" | "lastModified">,
  upload: Pick<ResumableUploadSummary, "filename" | "size" | "last_modified">,
): string | null {
  const same = file.name.normalize("NFC") === upload.filename && file.size === upload.size &&
    (upload.last_modified === null || file.lastModified === upload.last_modified);
  if (same) return null;
  return `Это другой файл: нужен «${upload.filename}», ${formatMb(upload.size)}, без изменений.`;
}

/** Size in megabytes for the page, as the artist's system shows it: «12,4 МБ». */
export function formatMb(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString("ru-RU", { maximumFractionDigits: 1 })} МБ`;
}

type FileLike = Pick<File, "name" | "size" | "lastModified" | "slice">;

// --- The browser's record of unfinished uploads -------------------------------------------------

/** The record's key: the same file picked again has the same name, size and modification time. */
export function fileKey(file: Pick<File, "name" | "size" | "lastModified">): string {
  return `${file.size}:${file.lastModified}:${file.name}`;
}

function readAll(): Record<string, StoredUpload> {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEYS.resumableUploads) ?? "{}");
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function writeAll(all: Record<string, StoredUpload>) {
  try {
    if (Object.keys(all).length === 0) localStorage.removeItem(STORAGE_KEYS.resumableUploads);
    else localStorage.setItem(STORAGE_KEYS.resumableUploads, JSON.stringify(all));
  } catch {
    // A full or blocked storage only loses the resume, never the upload.
  }
}

/** The stored unfinished upload of this file; an expired or malformed record is dropped. */
export function storedUpload(
  file: Pick<File, "name" | "size" | "lastModified">,
  now = Date.now(),
): StoredUpload | null {
  const all = readAll();
  const key = fileKey(file);
  const entry = all[key];
  if (!entry) return null;
  const valid = typeof entry.id === "string" && entry.size === file.size && Array.isArray(entry.parts_done) &&
    typeof entry.part_size === "number" && entry.part_size > 0 && Date.parse(entry.expires_at) > now;
  if (valid) return entry;
  delete all[key];
  writeAll(all);
  return null;
}

export function forgetUpload(file: Pick<File, "name" | "size" | "lastModified">) {
  const all = readAll();
  delete all[fileKey(file)];
  writeAll(all);
}

function remember(file: FileLike, upload: ResumableUpload) {
  const all = readAll();
  all[fileKey(file)] = {
    id: upload.id,
    size: upload.size,
    part_size: upload.part_size,
    parts_done: [...upload.parts_done].sort((a, b) => a - b),
    expires_at: upload.expires_at,
  };
  // Old records of files never picked again go once they expire.
  const now = Date.now();
  for (const [k, v] of Object.entries(all)) if (!(Date.parse(v?.expires_at) > now)) delete all[k];
  writeAll(all);
}

/** Bytes of a file the finished parts hold. */
export function bytesDone(size: number, partSize: number, partsDone: readonly number[]): number {
  let bytes = 0;
  for (const n of new Set(partsDone)) bytes += Math.max(0, Math.min(partSize, size - (n - 1) * partSize));
  return bytes;
}

/** The share (0–100, rounded down) of the file the finished parts hold: what the bar shows on resume. */
export function doneShare(size: number, partSize: number, partsDone: readonly number[]): number {
  if (size <= 0) return 0;
  return Math.min(100, Math.floor((bytesDone(size, partSize, partsDone) / size) * 100));
}

// --- Calls ---------------------------------------------------------------------------------------

export interface Deps {
  /** Waits between tries, cut short when the connection comes back; tests pass one that does not wait. */
  sleep(ms: number): Promise<void>;
}

const realDeps: Deps = {
  sleep: (ms) =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        globalThis.removeEventListener("online", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      globalThis.addEventListener("online", done);
    }),
};

type Call = { ok: true; body: Record<string, unknown> } | { ok: false; answer: RawAnswer; outcome: UploadOutcome };

/** A call to the site's API with one refresh-and-retry on a 401, as the typed client does. */
async function siteCall(req: Omit<XhrRequest, "site" | "timeoutMs"> & { timeoutMs?: number }): Promise<Call> {
  const send = () => xhrSend({ timeoutMs: API_TIMEOUT_MS, ...req, site: true });
  let answer = await send();
  if (answer.status === 401) {
    const refreshed = await refreshSession();
    // No answer to the refresh is a failed upload, not the end of the session.
    if (refreshed === "unreachable") {
      return { ok: false, answer, outcome: { kind: "error", message: UPLOAD_TEXTS.failed } };
    }
    if (refreshed === "refused") return { ok: false, answer, outcome: { kind: "expired" } };
    answer = await send();
    if (answer.status === 401) return { ok: false, answer, outcome: { kind: "expired" } };
  }
  if (answer.status >= 200 && answer.status < 300 && answer.body?.success === true) {
    return { ok: true, body: answer.body };
  }
  const outcome = answer.status >= 200 && answer.status < 300
    ? { kind: "error" as const, message: UPLOAD_TEXTS.unknownAnswer }
    : interpretUpload(answer);
  return { ok: false, answer, outcome };
}

function asUpload(body: Record<string, unknown>): ResumableUpload | null {
  const u = body.upload as ResumableUpload | undefined;
  if (
    !u || typeof u.id !== "string" || typeof u.part_size !== "number" || typeof u.part_count !== "number" ||
    !Array.isArray(u.parts_done) || (u.mode !== "s3" && u.mode !== "local")
  ) return null;
  return { ...u, part_urls: u.part_urls ?? {} };
}

const uploadPath = (id: string) => `${API_BASE}/${encodeURIComponent(id)}`;

/** Status of a stored upload: the upload, `null` when the server no longer has it (404), or a refusal. */
async function readStatus(id: string): Promise<ResumableUpload | null | UploadOutcome> {
  const call = await siteCall({ method: "GET", url: uploadPath(id) });
  if (call.ok) return asUpload(call.body) ?? { kind: "error", message: UPLOAD_TEXTS.unknownAnswer };
  if (call.answer.status === 404 || call.answer.status === 410) return null;
  return call.outcome;
}

/**
 * The server's view of a file's stored upload, for the page to show «Продолжить» with the share
 * already sent. A record the server no longer knows (expired, finished, 404) is dropped: `null`.
 * When the server cannot be asked, the stored record answers.
 */
export async function checkStored(file: FileLike): Promise<StoredUpload | null> {
  const stored = storedUpload(file);
  if (!stored) return null;
  const status = await readStatus(stored.id);
  if (status === null) {
    forgetUpload(file);
    return null;
  }
  if ("kind" in status) return stored;
  remember(file, status);
  return storedUpload(file);
}

export interface FileCallbacks {
  /** Share of this file on the server (0–100), the finished parts first. */
  onProgress(index: number, percent: number): void;
  /** The file is complete: its track entered processing. */
  onDone?(index: number, trackId: number): void;
  /** Parts stopped going through (true; the page keeps trying) or go through again (false). */
  onStall?(stalled: boolean): void;
}

interface Prepared {
  file: FileLike;
  upload: ResumableUpload;
  /** Started by this call (not resumed): aborted again if another file of the batch is refused. */
  fresh: boolean;
}

function isRetryable(status: number, mode: ResumableUpload["mode"]) {
  return status === 0 || status === 408 || status === 429 || status >= 500 ||
    // A presigned address that has run out (or a clock skew): fresh addresses come with the status.
    (mode === "s3" && status === 403) ||
    // The part endpoint got the part short (the connection broke inside it): "send it again".
    (mode === "local" && status === 400);
}

/**
 * Starts (or resumes) every file, then sends and completes them one after another. Every file is
 * checked by the server before any byte moves, as the one multipart request did: if one is refused,
 * the uploads this call started are aborted and nothing is sent.
 */
export async function uploadResumable(
  files: readonly FileLike[],
  directions: readonly Direction[],
  callbacks: FileCallbacks,
  opts: { signal?: AbortSignal; deps?: Deps; aiUse?: "no" | "partly" | "yes" } = {},
): Promise<UploadOutcome> {
  const deps = opts.deps ?? realDeps;
  const prepared: Prepared[] = [];
  const abortFresh = async () => {
    for (const p of prepared) {
      if (!p.fresh) continue;
      forgetUpload(p.file);
      await siteCall({ method: "DELETE", url: uploadPath(p.upload.id) });
    }
  };
  for (const file of files) {
    const stored = storedUpload(file);
    let upload: ResumableUpload | null = null;
    if (stored) {
      const status = await readStatus(stored.id);
      if (status !== null && "kind" in status) {
        await abortFresh();
        return status;
      }
      if (status === null) forgetUpload(file);
      upload = status;
    }
    let fresh = false;
    if (!upload) {
      const call = await siteCall({
        method: "POST",
        url: API_BASE,
        body: JSON.stringify({
          filename: file.name,
          size: file.size,
          last_modified: file.lastModified,
          directions: directions.join(","),
          ...(opts.aiUse ? { ai_use: opts.aiUse } : {}),
        }),
        signal: opts.signal,
      });
      if (!call.ok) {
        await abortFresh();
        return call.outcome;
      }
      upload = asUpload(call.body);
      if (!upload) {
        await abortFresh();
        return { kind: "error", message: UPLOAD_TEXTS.unknownAnswer };
      }
      fresh = true;
    }
    remember(file, upload);
    prepared.push({ file, upload, fresh });
  }
  prepared.forEach((p, i) => callbacks.onProgress(i, doneShare(p.file.size, p.upload.part_size, p.upload.parts_done)));

  const trackIds: number[] = [];
  for (const [index, p] of prepared.entries()) {
    const outcome = await sendFile(
      p.file,
      p.upload,
      { onProgress: (percent) => callbacks.onProgress(index, percent), onStall: callbacks.onStall },
      deps,
      opts.signal,
    );
    if (outcome.kind !== "success") return outcome;
    trackIds.push(...outcome.trackIds);
    callbacks.onDone?.(index, outcome.trackIds[0]);
  }
  return { kind: "success", trackIds };
}

/**
 * A release's file (issue 34): started with its `kind` and `release_id` (the server checks the
 * release, the name and the size before any byte moves), then sent in parts and completed as a
 * track's file is; the answer names the release, not a track (`trackIds` empty). Always a new
 * upload: a record of the same file kept by the upload page is not continued, so one file sent as
 * two kinds never completes as the other.
 */
export async function uploadReleaseFile(
  file: FileLike,
  target: { kind: "master" | "extended" | "instrumental"; releaseId: number },
  callbacks: Pick<FileCallbacks, "onStall"> & { onProgress(percent: number): void },
  opts: { signal?: AbortSignal; deps?: Deps } = {},
): Promise<UploadOutcome> {
  forgetUpload(file);
  const call = await siteCall({
    method: "POST",
    url: API_BASE,
    body: JSON.stringify({
      filename: file.name,
      size: file.size,
      last_modified: file.lastModified,
      kind: target.kind,
      release_id: target.releaseId,
    }),
    signal: opts.signal,
  });
  if (!call.ok) return call.outcome;
  const upload = asUpload(call.body);
  if (!upload) return { kind: "error", message: UPLOAD_TEXTS.unknownAnswer };
  remember(file, upload);
  callbacks.onProgress(0);
  return await sendFile(file, upload, callbacks, opts.deps ?? realDeps, opts.signal);
}

/** The artist's unfinished uploads (GET /api/upload/resumable), newest first; null when it cannot be asked. */
export async function listUnfinished(): Promise<ResumableUploadSummary[] | null> {
  const call = await siteCall({ method: "GET", url: API_BASE });
  return call.ok && Array.isArray(call.body.uploads) ? call.body.uploads as ResumableUploadSummary[] : null;
}

/** Cancels an unfinished upload (its parts removed) and forgets this browser's record of it. */
export async function cancelUnfinished(id: string): Promise<UploadOutcome | null> {
  const call = await siteCall({ method: "DELETE", url: uploadPath(id) });
  const all = readAll();
  for (const [k, v] of Object.entries(all)) if (v?.id === id) delete all[k];
  writeAll(all);
  // Already gone (finished, cancelled, expired) is what was asked.
  return call.ok || call.answer.status === 404 ? null : call.outcome;
}

/**
 * Continues a listed upload with the file the artist picked: checked by name, size and modification
 * time, then only its missing parts are sent and it is completed with the directions and the AI
 * answer it was started with. Nothing else is asked (issue 31).
 */
export async function continueUnfinished(
  listed: ResumableUploadSummary,
  file: FileLike,
  callbacks: Pick<FileCallbacks, "onStall"> & { onProgress(percent: number): void },
  opts: { signal?: AbortSignal; deps?: Deps } = {},
): Promise<UploadOutcome> {
  const mismatch = fileMismatch(file, listed);
  if (mismatch) return { kind: "error", message: mismatch };
  const status = await readStatus(listed.id);
  if (status === null) {
    forgetUpload(file);
    return { kind: "error", message: RESUMABLE_TEXTS.notFound };
  }
  if ("kind" in status) return status;
  remember(file, status);
  callbacks.onProgress(doneShare(file.size, status.part_size, status.parts_done));
  return await sendFile(file, status, callbacks, opts.deps ?? realDeps, opts.signal);
}

/** Sends a file's missing parts and completes it. */
async function sendFile(
  file: FileLike,
  start: ResumableUpload,
  { onProgress, onStall }: { onProgress(percent: number): void; onStall?(stalled: boolean): void },
  deps: Deps,
  signal?: AbortSignal,
): Promise<UploadOutcome> {
  let upload = start;
  // A completion that finds parts missing reads the status and sends them once more.
  for (let round = 0; round < 2; round++) {
    const done = new Set(upload.parts_done);
    const show = (current: number) =>
      onProgress(
        Math.min(100, Math.floor(((bytesDone(file.size, upload.part_size, [...done]) + current) / file.size) * 100)),
      );
    for (let n = 1; n <= upload.part_count; n++) {
      if (done.has(n)) continue;
      const blob = file.slice((n - 1) * upload.part_size, Math.min(n * upload.part_size, file.size));
      let failures = 0;
      for (;;) {
        const url = upload.mode === "s3" ? upload.part_urls[String(n)] : `${uploadPath(upload.id)}/parts/${n}`;
        let answer: RawAnswer;
        let outcome: UploadOutcome | null = null;
        if (!url) {
          answer = { status: 403, body: null, unparsable: true, timedOut: false };
        } else if (upload.mode === "s3") {
          answer = await xhrSend({
            method: "PUT",
            url,
            body: blob,
            site: false,
            onProgress: show,
            signal,
            timeoutMs: UPLOAD_TIMEOUT_MS,
            idleMs: PART_IDLE_MS,
          });
        } else {
          const call = await siteCall({
            method: "PUT",
            url,
            body: blob,
            onProgress: show,
            signal,
            timeoutMs: UPLOAD_TIMEOUT_MS,
            idleMs: PART_IDLE_MS,
          });
          answer = call.ok ? { status: 200, body: call.body, unparsable: false, timedOut: false } : call.answer;
          if (!call.ok && call.answer.status === 401) outcome = call.outcome;
        }
        if (outcome) return outcome;
        if (answer.status >= 200 && answer.status < 300) break;
        if (signal?.aborted) return { kind: "error", message: RESUMABLE_TEXTS.interrupted };
        if (answer.status === 404 && upload.mode === "local") {
          forgetUpload(file);
          return { kind: "error", message: RESUMABLE_TEXTS.notFound };
        }
        // Not a connection's failure (a refusal): said, not tried again.
        if (!isRetryable(answer.status, upload.mode)) return interpretUpload(answer);
        // The page says so and keeps trying while it is open, sooner when the connection is back.
        onStall?.(true);
        show(0);
        await deps.sleep(retryDelay(failures++));
        if (signal?.aborted) return { kind: "error", message: RESUMABLE_TEXTS.interrupted };
        if (upload.mode === "s3" && (answer.status === 403 || !url)) {
          const status = await readStatus(upload.id);
          // The server gives no address for a part it holds: nothing this page can send.
          if (!url && status !== null && !("kind" in status) && !status.part_urls[String(n)]) {
            return { kind: "error", message: UPLOAD_TEXTS.failed };
          }
          if (status === null) {
            forgetUpload(file);
            return { kind: "error", message: RESUMABLE_TEXTS.notFound };
          }
          if (!("kind" in status)) upload = { ...status, parts_done: [...done] };
        }
      }
      if (failures > 0) onStall?.(false);
      done.add(n);
      upload = { ...upload, parts_done: [...done] };
      remember(file, upload);
      show(0);
    }

    // Asking again is safe (a completed upload answers the same track), so a lost answer is asked again.
    let call = await siteCall({ method: "POST", url: `${uploadPath(upload.id)}/complete`, signal });
    // Tried on as the parts are (decision 0291) while the page is open.
    let tries = 0;
    for (; !call.ok && isRetryable(call.answer.status, "s3") && call.answer.status !== 403; tries++) {
      if (signal?.aborted) break;
      onStall?.(true);
      await deps.sleep(retryDelay(tries));
      call = await siteCall({ method: "POST", url: `${uploadPath(upload.id)}/complete`, signal });
    }
    if (tries > 0) onStall?.(false);
    if (call.ok) {
      forgetUpload(file);
      const id = call.body.track_id;
      // A release's file (issue 34) answers its release instead of a track.
      if (typeof id !== "number" && typeof call.body.release_id !== "number") {
        return { kind: "error", message: UPLOAD_TEXTS.unknownAnswer };
      }
      onProgress(100);
      return { kind: "success", trackIds: typeof id === "number" ? [id] : [] };
    }
    if (call.answer.status === 409 && round === 0) {
      const status = await readStatus(upload.id);
      if (status !== null && !("kind" in status)) {
        // Parts the server named of the wrong size (stored short by a cut) go again even if listed.
        const resend = call.answer.body?.resend_parts;
        const again = new Set(Array.isArray(resend) ? resend : []);
        upload = { ...status, parts_done: status.parts_done.filter((n) => !again.has(n)) };
        remember(file, upload);
        continue;
      }
    }
    // Too large (the server removed the parts) or unknown: this upload cannot go on.
    if (call.answer.status === 413 || call.answer.status === 404) forgetUpload(file);
    if (call.answer.status === 0) return { kind: "error", message: RESUMABLE_TEXTS.interrupted };
    return call.outcome;
  }
  return { kind: "error", message: UPLOAD_TEXTS.failed };
}

import { revealHiddenChars } from "./hidden-chars.ts";

/**
 * The upload limits (spec 1 §5; issue 33: one home): a file's size and a request's count of files,
 * set by MAX_UPLOAD_FILE_MB and MAX_UPLOAD_FILES (server/config.ts), and their messages. The
 * multipart upload (its streaming parser stops at the size), the resumable upload's start (the
 * declared size) and its completion (the parts' total, since a presigned PUT cannot cap its size)
 * all ask these. The hourly count (MAX_UPLOADS_PER_HOUR) is the upload quota's, with its own message.
 */

/** Over the size limit: strictly more than `maxBytes` (a file of exactly the limit is taken). */
export function isFileTooLarge(bytes: number, maxBytes: number): boolean {
  return bytes > maxBytes;
}

/** Over the count limit: the `count`-th file of one request when more than `maxFiles` are allowed. */
export function isOverFileCount(count: number, maxFiles: number): boolean {
  return count > maxFiles;
}

export function tooManyFilesMessage(max: number): string {
  return `Слишком много файлов: за один раз можно загрузить не больше ${max}.`;
}

export function fileTooLargeMessage(filename: string, maxBytes: number): string {
  // Quoted with any hidden character written out, as the name rule's message does (decision 0205).
  return `Файл «${revealHiddenChars(filename)}» слишком большой. Максимальный размер: ${formatMb(maxBytes)} МБ`;
}

export function requestTooLargeMessage(maxFiles: number, maxBytes: number): string {
  return `Слишком большой запрос: за один раз можно загрузить не больше ${maxFiles} файлов по ${
    formatMb(maxBytes)
  } МБ.`;
}

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
}

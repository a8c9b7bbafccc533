import {
  type Direction,
  DIRECTION_CONFLICT_MESSAGE,
  DIRECTION_LABELS,
  DIRECTIONS,
  findConflict,
  isDirection,
} from "../../domain/directions.ts";
import { INVALID_NAME_RECORD, INVALID_NAMES_MESSAGE, parseTrackName } from "../../domain/track-name.ts";
import { revealHiddenChars } from "../../domain/hidden-chars.ts";
import type { AiUse } from "../../domain/ai-use.ts";
import { AI_USE_ERRORS, parseAiUse } from "../../domain/ai-use-desk.ts";

/**
 * The upload rules the page enforces (spec 1 §5), repeated on the server. Pure functions so that the
 * streaming parser can check each part as it arrives and the tests can check every case.
 */

/**
 * MIME types browsers and tools send for an MP3. `application/octet-stream` (and no type at all) is
 * what a client sends when it does not know; the content itself is checked by the processing job
 * (docs/decisions/0020-upload-streaming-and-validation.md).
 */
const MP3_TYPES = new Set([
  "audio/mpeg",
  "audio/mp3",
  "audio/mpeg3",
  "audio/x-mpeg",
  "audio/x-mp3",
  "audio/x-mpeg-3",
  "application/octet-stream",
  "",
]);

/** Longer names are refused: they are shown in lists and kept in the database. */
export const MAX_FILENAME_LENGTH = 255;

export type FileProblem = "type" | "name";

export const FILE_PROBLEM_RECORD: Record<FileProblem | "duplicate", string> = {
  type: "Файл не является MP3",
  name: INVALID_NAME_RECORD,
  duplicate: "Файл уже добавлен",
};

/** The name as it will be kept: Unicode NFC, so that macOS (NFD) and other systems agree. */
export function normaliseFilename(raw: string): string {
  return raw.normalize("NFC");
}

// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** The first rule a file part breaks, judged from its name and declared type only. */
export function checkFilePart(filename: string, mimeType: string): FileProblem | null {
  const type = (mimeType ?? "").split(";")[0].trim().toLowerCase();
  if (!filename.toLowerCase().endsWith(".mp3") || !MP3_TYPES.has(type)) return "type";
  if (filename.length > MAX_FILENAME_LENGTH || CONTROL_CHARS.test(filename)) return "name";
  if (!parseTrackName(filename)) return "name";
  return null;
}

export interface FileFaults {
  type: string[];
  name: string[];
  duplicate: string[];
}

export function emptyFaults(): FileFaults {
  return { type: [], name: [], duplicate: [] };
}

export function hasFaults(f: FileFaults): boolean {
  return f.type.length + f.name.length + f.duplicate.length > 0;
}

/**
 * One message naming every file at fault, one line per kind, in the spec's words where it has them.
 * Characters that hide or turn text around are written out (`<U+202E>`), so a name cannot reorder
 * the message that quotes it.
 */
export function faultsMessage(f: FileFaults): string {
  const lines: string[] = [];
  const list = (names: string[]) => names.map((n) => revealHiddenChars(n)).join(", ");
  if (f.type.length) lines.push(`Принимаются только файлы MP3. Следующие файлы не подходят: ${list(f.type)}`);
  if (f.name.length) lines.push(`${INVALID_NAMES_MESSAGE} ${list(f.name)}`);
  if (f.duplicate.length) {
    lines.push(`${f.duplicate.length === 1 ? "Файл уже добавлен:" : "Файлы уже добавлены:"} ${list(f.duplicate)}`);
  }
  return lines.join("\n");
}

/** The same faults as records the page can keep in its failed-files list. */
export function faultRecords(f: FileFaults): Array<{ filename: string; error: string }> {
  return [
    ...f.type.map((filename) => ({ filename, error: FILE_PROBLEM_RECORD.type })),
    ...f.name.map((filename) => ({ filename, error: FILE_PROBLEM_RECORD.name })),
    ...f.duplicate.map((filename) => ({ filename, error: FILE_PROBLEM_RECORD.duplicate })),
  ];
}

export const NO_FILES_MESSAGE = "Добавьте хотя бы один файл MP3.";
export const NO_DIRECTIONS_MESSAGE = "Выберите хотя бы одно направление.";

/**
 * Adds the values of one `directions` field to `selected` (a comma-joined value is split too).
 * Returns an error message for an unknown code or a conflicting pair; a conflict cannot be undone by
 * later fields, so the parser may stop at the first one.
 */
export function addDirections(selected: Direction[], value: string): string | null {
  for (const raw of value.split(",")) {
    const code = raw.trim();
    if (!code) continue;
    if (!isDirection(code)) return `Неизвестное направление: ${code.slice(0, 64)}`;
    if (!selected.includes(code)) selected.push(code);
  }
  const pair = findConflict(selected);
  if (pair) {
    const [a, b] = DIRECTIONS.filter((d) => pair.includes(d));
    return `${DIRECTION_CONFLICT_MESSAGE.slice(0, -1)}: «${DIRECTION_LABELS[a]}» и «${DIRECTION_LABELS[b]}».`;
  }
  return null;
}

/**
 * The batch's answer to the AI question after one more `ai_use` field (issue 25, decision 0245):
 * `no`, `partly` or `yes` exactly; an empty or other value, or a second field that says otherwise,
 * is the 400's message. A request without the field keeps `null` (older scripts still work).
 */
export function addAiUse(current: AiUse | null, value: string): { value: AiUse } | { error: string } {
  const parsed = parseAiUse(value);
  if (!parsed.ok || parsed.value === null) return { error: AI_USE_ERRORS.invalid };
  if (current !== null && current !== parsed.value) return { error: AI_USE_ERRORS.conflicting };
  return { value: parsed.value };
}

/** "файла" after 1, 21, 31…; "файлов" otherwise ("не больше 60 файлов", "не больше 21 файла"). */
function filesWord(n: number): string {
  return n % 10 === 1 && n % 100 !== 11 ? "файла" : "файлов";
}

/** Whole minutes, at least one. */
function minutesOf(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/**
 * The 429 of MAX_UPLOADS_PER_HOUR (docs/decisions/0196): the limit, when to try again, and how many
 * files fit now when some do.
 */
export function tooManyUploadsMessage(limit: number, retryAfterS: number, fitNow: number): string {
  const head = `Слишком много загрузок за час: не больше ${limit} ${filesWord(limit)}.`;
  const later = `через ${minutesOf(retryAfterS)} мин.`;
  return fitNow > 0
    ? `${head} Сейчас можно загрузить ещё ${fitNow}, остальные — ${later}`
    : `${head} Попробуйте позже: ${later}`;
}

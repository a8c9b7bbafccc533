import { blockedDirections, type Direction, DIRECTIONS } from "../../../domain/directions.ts";
import { isValidTrackName } from "../../../domain/track-name.ts";
import { TRANSFER_TEXTS, UPLOAD_TIMEOUT_MS } from "../../lib/upload/transfer-texts.ts";

/** The upload page's rules (spec 1 §2, §5), free of React so they can be tested on their own. */

export { isValidTrackName };

export { UPLOAD_TIMEOUT_MS };
export const POST_UPLOAD_REDIRECT_MS = 1000;
export const BAN_REDIRECT_MS = 3000;
export const LOGIN_BANNER_MS = 3000;

export const UPLOAD_TEXTS = {
  title: "Отправить трек",
  signInPrompt: "Войти для загрузки",
  uploading: "Загрузка...",
  uploaded: "Успешно загружено!",
  ...TRANSFER_TEXTS,
  signedIn: "Авторизация успешно завершена!",
} as const;

/** Only MP3: the browser's type must say MPEG audio and the name must end in .mp3. */
export function isMp3(file: { name: string; type: string }): boolean {
  // Some systems report the non-standard "audio/mp3"; it is the same format.
  const type = file.type.toLowerCase();
  return (type === "audio/mpeg" || type === "audio/mp3") && file.name.toLowerCase().endsWith(".mp3");
}

/**
 * Splits newly chosen files into those to add and the duplicates to warn about. Non-MP3 files are
 * dropped silently; a name already in the list (or twice in the same pick) is a duplicate.
 */
export function sortIncoming<F extends { name: string; type: string }>(
  incoming: readonly F[],
  existingNames: Iterable<string>,
): { accepted: F[]; duplicates: string[] } {
  const seen = new Set(existingNames);
  const accepted: F[] = [];
  const duplicates: string[] = [];
  for (const file of incoming) {
    if (!isMp3(file)) continue;
    if (seen.has(file.name)) {
      if (!duplicates.includes(file.name)) duplicates.push(file.name);
      continue;
    }
    seen.add(file.name);
    accepted.push(file);
  }
  return { accepted, duplicates };
}

/** "Файл уже добавлен: a.mp3" or "Файлы уже добавлены: a.mp3, b.mp3"; null when there is none. */
export function duplicateWarning(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  return names.length === 1 ? `Файл уже добавлен: ${names[0]}` : `Файлы уже добавлены: ${names.join(", ")}`;
}

export type UploadPhase = "idle" | "uploading" | "success";

export interface ButtonState {
  label: string;
  disabled: boolean;
}

/**
 * The submit button. Anonymous visitors get the sign-in prompt (always clickable: it opens the login
 * dialog). Otherwise it needs at least one file, at least one direction and no invalid name.
 */
export function submitButton(opts: {
  signedIn: boolean;
  phase: UploadPhase;
  fileCount: number;
  invalidCount: number;
  directionCount: number;
  /** False when every file continues a stored upload, whose directions the server already has. */
  needsDirections?: boolean;
}): ButtonState {
  if (!opts.signedIn) return { label: UPLOAD_TEXTS.signInPrompt, disabled: false };
  if (opts.phase === "uploading") return { label: UPLOAD_TEXTS.uploading, disabled: true };
  if (opts.phase === "success") return { label: UPLOAD_TEXTS.uploaded, disabled: true };
  const label = opts.fileCount > 1 ? `Загрузить треки (${opts.fileCount})` : "Загрузить трек";
  const disabled = opts.fileCount === 0 || (opts.directionCount === 0 && opts.needsDirections !== false) ||
    opts.invalidCount > 0;
  return { label, disabled };
}

/** Toggles a direction; a direction that conflicts with the chosen ones cannot be added. */
export function toggleDirection(selected: readonly Direction[], code: Direction): Direction[] {
  if (selected.includes(code)) return selected.filter((d) => d !== code);
  if (blockedDirections(selected).has(code)) return [...selected];
  return DIRECTIONS.filter((d) => d === code || selected.includes(d));
}

/** "1:05" for 65 s; "0:00" for anything unknown. */
export function formatClock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "0:00";
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

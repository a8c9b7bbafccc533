/**
 * The upload name rule (spec 1 §5), shared by the upload page and the server:
 * `Artist - Title.mp3`, the last " - " separates artist and title, both non-empty after trimming,
 * and the artist must not be only "id" or "айди" in any letter case. A name holding a character that
 * hides or turns text around (hidden-chars.ts: bidi overrides and isolates, zero-width characters,
 * C1 controls) breaks the rule too: staff would read a name other than the file's (issue 20).
 */
import { hasHiddenChars } from "./hidden-chars.ts";

export interface ParsedTrackName {
  artist: string;
  title: string;
}

const SEPARATOR = " - ";

export function parseTrackName(filename: string): ParsedTrackName | null {
  if (!filename.toLowerCase().endsWith(".mp3") || hasHiddenChars(filename)) return null;
  const base = filename.slice(0, -4);
  const at = base.lastIndexOf(SEPARATOR);
  if (at < 0) return null;
  const artist = base.slice(0, at).trim();
  const title = base.slice(at + SEPARATOR.length).trim();
  if (!artist || !title) return null;
  const lowered = artist.toLowerCase();
  if (lowered === "id" || lowered === "айди") return null;
  return { artist, title };
}

export function isValidTrackName(filename: string): boolean {
  return parseTrackName(filename) !== null;
}

/** The name without its `.mp3` (any letter case): how messages and cards name a track. */
export function trackBaseName(filename: string): string {
  return filename.replace(/\.mp3$/i, "");
}

/**
 * `{artist}` and `{title}` of a track's name, for a message or a card: a name outside the rule (one
 * stored before it, or a test's) gives its whole self, without `.mp3`, as the title.
 */
export function trackNameParts(filename: string): ParsedTrackName {
  return parseTrackName(filename) ?? { artist: "", title: trackBaseName(filename) };
}

export const INVALID_NAMES_MESSAGE = "Следующие файлы имеют неверный формат имени:";
export const INVALID_NAME_RECORD = "Неверный формат имени файла";

import { csvText } from "../lib/csv.ts";
import { asciiName } from "../../domain/ascii-name.ts";
import { formatCue } from "../../domain/episodes.ts";

/** One line of an episode's tracklist, as the studio and the public page read it. */
export interface TracklistEntry {
  position: number;
  artist: string;
  title: string;
  /** The release desk's version (e.g. "VIP Mix"); null when none. */
  version: string | null;
  /** The release's label, else «Self-Released» (docs/decisions/0374). */
  label: string;
  /** The cue in seconds once aired; null before or when none was given. */
  at_s: number | null;
}

const two = (n: number) => String(n).padStart(2, "0");

/** `Title (Version)`, the version left out when empty or already in the title. */
export function titleWithVersion(e: Pick<TracklistEntry, "title" | "version">): string {
  const v = e.version?.trim();
  if (!v || e.title.toLowerCase().includes(`(${v.toLowerCase()})`)) return e.title;
  return `${e.title} (${v})`;
}

/** `NN. Artist – Title (Version) [Label]`, one line each, as guest-mix intakes ask for it. */
export function tracklistText(entries: readonly TracklistEntry[]): string {
  return entries.map((e) => `${two(e.position)}. ${e.artist} – ${titleWithVersion(e)} [${e.label}]\n`).join("");
}

/** RFC 4180 CSV with a header and a UTF-8 byte order mark (spreadsheets then read Cyrillic right). */
export function tracklistCsv(entries: readonly TracklistEntry[]): string {
  const rows = [["position", "artist", "title", "version", "label", "cue"]];
  for (const e of entries) {
    rows.push([
      String(e.position),
      e.artist,
      e.title,
      e.version ?? "",
      e.label,
      e.at_s === null ? "" : formatCue(e.at_s),
    ]);
  }
  return csvText(rows);
}

/**
 * `NN - Artist - Title.mp3` in ASCII for radio automation: the one transliteration rule
 * (domain/ascii-name.ts); a part left empty by it (only emoji, say) reads «Unknown».
 */
export function studioFileName(e: Pick<TracklistEntry, "position" | "artist" | "title">): string {
  const artist = asciiName(e.artist) || "Unknown";
  const title = asciiName(e.title) || "Unknown";
  return `${two(e.position)} - ${artist} - ${title}.mp3`;
}

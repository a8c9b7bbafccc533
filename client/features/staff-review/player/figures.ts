import type { StaffTrack } from "../../../lib/staff-queries.ts";
import { isKeySure, uncertainKeyLabel } from "../../../../domain/musical-key.ts";

/** The audio report a staff track carries (null until analysed). */
export type TrackAnalysis = NonNullable<StaffTrack["analysis"]>;

/** What the player needs of a row (list rows and single tracks both have it). */
export type ReviewTrack = Pick<StaffTrack, "id" | "filename" | "status" | "has_file" | "analysis"> & {
  /** The review state per direction (issue 13): the desk moves on to the next track still waiting. */
  decisions?: StaffTrack["decisions"];
};

const formatters = new Map<string, Intl.NumberFormat>();
function number(locale: string, value: number, digits: number): string {
  const key = `${locale}/${digits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f.format(value).replace("-", "−");
}

/** "320 kbps", "245 kbps VBR". */
export function formatBitrate(a: Pick<TrackAnalysis, "bitrate_kbps" | "bitrate_mode">, locale: string): string {
  return `${number(locale, Math.round(a.bitrate_kbps), 0)} kbps${a.bitrate_mode === "vbr" ? " VBR" : ""}`;
}

/** "−8,9 LUFS" (one decimal); "—" when the track has no measurable loudness. */
export function formatLoudness(lufs: number | null, locale: string): string {
  return lufs === null ? "—" : `${number(locale, lufs, 1)} LUFS`;
}

/** "−0,3 dBTP"; "—" for digital silence. */
export function formatTruePeak(dbtp: number | null, locale: string): string {
  return dbtp === null ? "—" : `${number(locale, dbtp, 1)} dBTP`;
}

/** "174" or "172,5"; "—" when no tempo was found. */
export function formatBpm(bpm: number | null, locale: string): string {
  if (bpm === null) return "—";
  const rounded = Math.round(bpm * 10) / 10;
  return number(locale, rounded, Number.isInteger(rounded) ? 0 : 1);
}

/**
 * "F minor · 4A" (the key's name and its Camelot code, issue 22); "—" when no key was read. A key read
 * with a confidence under KEY_SURE_CONFIDENCE is shown as uncertain, with its relative: «Fm / Ab? ·
 * 4A?» (issue 38, docs/decisions/0411).
 */
export function formatKey(a: Pick<TrackAnalysis, "key" | "camelot" | "key_confidence">): string {
  if (!a.key) return a.camelot ?? "—";
  if (!isKeySure(a.key_confidence)) return `${uncertainKeyLabel(a.key)}${a.camelot ? ` · ${a.camelot}?` : ""}`;
  return a.camelot ? `${a.key} · ${a.camelot}` : a.key;
}

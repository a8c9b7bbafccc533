/**
 * The shows' episodes (issue 35): which directions are shows, an episode's public name, a cue's
 * written form, and the Russian texts the artist reads (the Telegram message, the history line).
 * Shared by the server and the client. Docs: docs/decisions/0370-episode-desk.md, 0373.
 */
import { type Direction, DIRECTION_LABELS } from "./directions.ts";

/** The four directions that air episodes; the two labels release instead (issue 34). */
export const SHOW_DIRECTIONS = ["podcast_neuropunk", "podcast_koster", "show_neurogon", "radio_k_profit"] as const;
export type ShowDirection = (typeof SHOW_DIRECTIONS)[number];

export function isShowDirection(value: string): value is ShowDirection {
  return (SHOW_DIRECTIONS as readonly string[]).includes(value);
}

/** «Подкаст Костёр #57»: the direction's public name and the number. */
export function episodeName(direction: Direction, number: number): string {
  return `${DIRECTION_LABELS[direction]} #${number}`;
}

/** A cue in seconds as the listener's player shows it: 34:10, or 1:02:05 past the hour. */
export function formatCue(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

/** One of the artist's tracks in an aired episode: its title and cue (null: none given). */
export interface AiredTrack {
  title: string;
  at_s: number | null;
}

/**
 * The artist's Telegram message (plain text; the sender escapes nothing, so the caller escapes for
 * HTML): «Ваш трек «Title» прозвучал в выпуске «Подкаст Костёр #57» (на 34:10): url». Without a cue
 * the «(на …)» part is left out; several tracks of one artist in one episode make one message
 * (docs/decisions/0373).
 */
export function airedMessage(episode: string, url: string, list: readonly AiredTrack[]): string {
  const at = (t: AiredTrack) => (t.at_s === null ? "" : ` (на ${formatCue(t.at_s)})`);
  if (list.length === 1) return `Ваш трек «${list[0].title}» прозвучал в выпуске «${episode}»${at(list[0])}: ${url}`;
  const parts = list.map((t) => `«${t.title}»${at(t)}`);
  const joined = `${parts.slice(0, -1).join(", ")} и ${parts[parts.length - 1]}`;
  return `Ваши треки ${joined} прозвучали в выпуске «${episode}»: ${url}`;
}

/** The artist's history line: «В эфире: Подкаст Костёр #57 · 34:10» (no cue: the name alone). */
export function onAirLine(episode: string, atS: number | null): string {
  return `В эфире: ${episode}${atS === null ? "" : ` · ${formatCue(atS)}`}`;
}

/** The tracklist's label when the track has no release at a label: docs/decisions/0374. */
export const SELF_RELEASED = "Self-Released";

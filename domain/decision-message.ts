/**
 * What an artist reads of a decision's message (issue 31 "Read before you send"): one rule for the
 * server, which stores and sends it, and for the desk's chooser, which shows it before the key or
 * tap that sends. A ready-made message's `{artist}` and `{title}` come from the track's name
 * (`Artist - Title.mp3`; a name outside the rule gives its whole self, without `.mp3`, as the
 * title), `{direction}` is the direction's public name, the one the artist chose on the upload page
 * (`DIRECTION_LABELS`), never a staff name. The message is sent trimmed; an empty one is none.
 */
import { type Direction, DIRECTION_LABELS } from "./directions.ts";
import { fillTemplate } from "./review.ts";
import { trackNameParts } from "./track-name.ts";

/** A ready-made message as the artist of `filename` receives it about `direction`. */
export function templateMessage(text: string, filename: string, direction: Direction): string {
  const filled = fillTemplate(text, {
    ...trackNameParts(filename),
    direction: DIRECTION_LABELS[direction] ?? direction,
  });
  return artistMessage(filled) ?? "";
}

/** The message part of the artist's notice: the staff's text trimmed, or null when there is none. */
export function artistMessage(message: string | null | undefined): string | null {
  const trimmed = message?.trim();
  return trimmed ? trimmed : null;
}

import { z } from "zod";

/**
 * Listening receipts (issue 20, decisions 0197–0198): a (track, direction) pair reads «Прослушан»
 * only once a staff member has played at least 20 seconds of the track (all of it when shorter),
 * counted from the played time the staff player reports, never from requests of the stream.
 * The server's validator and the panels' texts read these from here.
 */

/** Played seconds that make a track heard (all of it when the track is shorter). */
export const HEARD_MIN_S = 20;

/**
 * A whole short track played by the browser may come out a fraction shorter than the analysis'
 * length (MP3 padding, the last `timeupdate` before `ended`): that much is forgiven.
 */
export const HEARD_SLACK_S = 0.5;

/** Seconds one staff member must have played of a track of `durationS` (unknown: 20). */
export function heardThreshold(durationS: number | null | undefined): number {
  if (durationS === null || durationS === undefined || !Number.isFinite(durationS) || durationS <= 0) {
    return HEARD_MIN_S;
  }
  return Math.min(HEARD_MIN_S, Math.max(durationS - HEARD_SLACK_S, durationS / 2));
}

/** Whether `heardS` played seconds count as having heard a track of `durationS`. */
export function isHeard(heardS: number, durationS: number | null | undefined): boolean {
  return heardS > 0 && heardS >= heardThreshold(durationS);
}

/** The largest single report the server reads at all (a day); it is capped far lower anyway. */
export const LISTEN_REPORT_MAX_S = 86_400;

export const LISTENING_TEXTS = {
  badSeconds: "Некорректное время прослушивания",
} as const;

/** POST …/tracks/{id}/listened: `seconds` played since the player's previous report of this track. */
export function listenedInputSchema() {
  return z.object({
    seconds: z.number({ message: LISTENING_TEXTS.badSeconds }).min(0, LISTENING_TEXTS.badSeconds)
      .max(LISTEN_REPORT_MAX_S, LISTENING_TEXTS.badSeconds),
  });
}

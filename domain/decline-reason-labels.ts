/**
 * The decline reasons' words on the staff's screens (issue 37): English on the moderator's desk, the
 * artist's Russian words on the admin's. Apart from decline-reasons.ts, whose Russian texts the
 * artist's history brings into the public bundle, so these ride only with the staff pages
 * (decision 0430).
 */
import { DECLINE_REASONS, type DeclineReason, REASON_TEXTS_RU } from "./decline-reasons.ts";

/** What the moderator's desk shows (English screens), with the key that toggles each. */
export const REASON_TEXTS_EN: Record<DeclineReason, string> = {
  mixdown: "Mixdown",
  mastering: "Mastering",
  arrangement: "Arrangement",
  sound_design: "Sound design",
  drop: "Drop",
  vocals: "Vocals",
  originality: "Originality",
  fit: "Not this sound",
  quality: "Technical quality",
};

/** The admin's desk (Russian screens): the artist's words. */
export const REASON_LABELS_RU: Record<DeclineReason, string> = Object.fromEntries(
  DECLINE_REASONS.map((r) => [r, REASON_TEXTS_RU[r].label]),
) as Record<DeclineReason, string>;

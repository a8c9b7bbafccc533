import type { DeclineReason } from "../../../../domain/decline-reasons.ts";
import { REASON_LABELS_RU, REASON_TEXTS_EN } from "../../../../domain/decline-reason-labels.ts";
import { REVIEW_TEXTS_EN } from "./review-texts.ts";
import { useReviewTexts } from "./review-texts-context.ts";

/**
 * The desk's words of issue 37 (decline reasons, versions side by side): English on the moderator's
 * desk, Russian on the admin's, chosen by the panel's review dictionary as the other desk words are.
 */
export interface FeedbackDeskTexts {
  reasonsGroup: string;
  reasonsHint: string;
  reasons: Record<DeclineReason, string>;
  /** «v2 of #N». */
  versionOf: (n: number, originalId: number) => string;
  previousComment: string;
  changesTitle: string;
  change: { loudness: string; true_peak: string; bpm: string; key: string; duration: string };
  abButton: (other: number) => string;
  abTitle: string;
  matched: (db: string) => string;
  keys: readonly (readonly [string, string])[];
}

export const FEEDBACK_DESK_TEXTS_RU: FeedbackDeskTexts = {
  reasonsGroup: "Причины",
  reasonsHint: "Shift+1–9 — причина",
  reasons: REASON_LABELS_RU,
  versionOf: (n, id) => `v${n} трека #${id}`,
  previousComment: "к прошлой версии",
  changesTitle: "Что изменилось",
  change: { loudness: "Громкость", true_peak: "Пик", bpm: "Темп", key: "Тональность", duration: "Длина" },
  abButton: (other) => `Переключить на v${other}`,
  abTitle: "Переключить версию на том же месте (B)",
  matched: (db) => `выровнено по громкости: ${db} дБ`,
  keys: [["Shift+1–9", "после X: причины отказа"], ["B", "другая версия на том же месте"]],
};

export const FEEDBACK_DESK_TEXTS_EN: FeedbackDeskTexts = {
  reasonsGroup: "Reasons",
  reasonsHint: "Shift+1–9 toggles a reason",
  reasons: REASON_TEXTS_EN,
  versionOf: (n, id) => `v${n} of #${id}`,
  previousComment: "on the previous version",
  changesTitle: "Changes",
  change: { loudness: "Loudness", true_peak: "True peak", bpm: "Tempo", key: "Key", duration: "Length" },
  abButton: (other) => `Switch to v${other}`,
  abTitle: "Switch versions at the same moment (B)",
  matched: (db) => `loudness-matched: ${db} dB`,
  keys: [["Shift+1–9", "after X: decline reasons"], ["B", "the other version at the same moment"]],
};

export const useFeedbackDeskTexts = (): FeedbackDeskTexts =>
  useReviewTexts() === REVIEW_TEXTS_EN ? FEEDBACK_DESK_TEXTS_EN : FEEDBACK_DESK_TEXTS_RU;

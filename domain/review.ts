import { z } from "zod";
import { charCount } from "./profile.ts";
import { hasHiddenChars, HIDDEN_CHARS_MESSAGE, hiddenCharsProblem } from "./hidden-chars.ts";

/**
 * The review of a track in each of its directions (issue 13): the staff's five states and their
 * labels, what the artist is shown instead, the limits of a decision's note and message, when a
 * track counts as waiting too long, and the decline templates' rules. The server's validators and
 * the panels' forms read them from here (decision 0130); decisions 0150–0156 explain the choices.
 *
 * The zod schemas are built inside functions, so a screen importing only the labels or the checks
 * does not bundle zod.
 */

export const REVIEW_STATUSES = ["new", "listened", "shortlisted", "accepted", "declined"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The staff's labels (issue 13). */
export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  new: "Новый",
  listened: "Прослушан",
  shortlisted: "В шорт-листе",
  accepted: "Принят",
  declined: "Отклонён",
};

/** What the artist sees: the staff's working states are folded (`new` → `in_review`, `shortlisted` → `listened`). */
export const ARTIST_REVIEW_STATUSES = ["in_review", "listened", "accepted", "declined"] as const;
export type ArtistReviewStatus = (typeof ARTIST_REVIEW_STATUSES)[number];

export const ARTIST_REVIEW_LABELS: Record<ArtistReviewStatus, string> = {
  in_review: "На рассмотрении",
  listened: "Прослушан",
  accepted: "Принят",
  declined: "Отклонён",
};

export function artistReviewStatus(status: ReviewStatus): ArtistReviewStatus {
  if (status === "new") return "in_review";
  if (status === "shortlisted") return "listened";
  return status;
}

export function isReviewStatus(value: unknown): value is ReviewStatus {
  return typeof value === "string" && (REVIEW_STATUSES as readonly string[]).includes(value);
}

/**
 * A pair still waits for someone while nobody has decided or parked it: `new` or `listened`.
 * A shortlisted pair is held on purpose, so it is never flagged (decision 0152).
 */
export function isAwaitingDecision(status: ReviewStatus): boolean {
  return status === "new" || status === "listened";
}

/** A track waiting longer than this is flagged in the panels. */
export const OVERDUE_AFTER_DAYS = 14;
const DAY_MS = 86_400_000;

/** Whole days since the upload (never negative). */
export function daysSince(uploadDate: Date | string | number, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(uploadDate).getTime()) / DAY_MS));
}

/** Waiting more than 14 days, counted to the millisecond (14 days and one hour is overdue). */
export function isOverdue(uploadDate: Date | string | number, now: Date): boolean {
  return now.getTime() - new Date(uploadDate).getTime() > OVERDUE_AFTER_DAYS * DAY_MS;
}

/** The staff note and the message to the artist: up to 1,000 characters each, as a person counts them. */
export const DECISION_TEXT_MAX_LENGTH = 1000;
export const DECLINE_TEMPLATE_TITLE_MAX_LENGTH = 100;
/** The list is meant to stay short; a runaway script cannot fill the decision form's menu. */
export const DECLINE_TEMPLATES_MAX = 50;

export const REVIEW_TEXTS = {
  unknownStatus: "Неизвестный статус решения",
  unknownReviewFilter: "Неизвестный статус рассмотрения",
  noteTooLong: `Заметка не должна превышать ${DECISION_TEXT_MAX_LENGTH} символов`,
  messageTooLong: `Сообщение артисту не должно превышать ${DECISION_TEXT_MAX_LENGTH} символов`,
  notTrackDirection: "У трека нет такого направления",
  outsideCategories: "Решение по этому направлению вне ваших категорий",
  messageAndTemplate: "Укажите либо сообщение артисту, либо шаблон отказа",
  templateOnlyForDecline: "Шаблон отказа можно выбрать только при отклонении",
  templateNotFound: "Шаблон отказа не найден",
  decisionChanged: "Решение уже изменено. В форме — текущее решение: проверьте его и сохраните снова",
  badRevision: "Некорректная ревизия решения",
  templateTitleRequired: "Название шаблона обязательно",
  templateTitleTooLong: `Название шаблона не должно превышать ${DECLINE_TEMPLATE_TITLE_MAX_LENGTH} символов`,
  templateTextRequired: "Текст шаблона обязателен",
  templateTextTooLong: `Текст шаблона не должен превышать ${DECISION_TEXT_MAX_LENGTH} символов`,
  tooManyTemplates: `Шаблонов может быть не больше ${DECLINE_TEMPLATES_MAX}`,
  badHistoryPage: "Некорректный номер страницы",
  badHistoryPageSize: "Размер страницы: от 1 до 100",
} as const;

export function decisionTextTooLong(value: string): boolean {
  return charCount(value) > DECISION_TEXT_MAX_LENGTH;
}

/** A note or message: trimmed, empty means none (null); `undefined` when the field was left out. */
const decisionText = (tooLong: string) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const text = v?.trim() ?? "";
      if (decisionTextTooLong(text)) {
        ctx.addIssue({ code: "custom", message: tooLong });
        return z.NEVER;
      }
      if (hasHiddenChars(text)) {
        ctx.addIssue({ code: "custom", message: HIDDEN_CHARS_MESSAGE });
        return z.NEVER;
      }
      return text === "" ? null : text;
    });

/**
 * PUT …/tracks/{id}/decisions/{direction}: `revision` is the pair's revision the form was made
 * from (a stale or missing one is refused with the current decision, decision 0199); `status`,
 * `note` and `message` may each be left out (decision 0151 says what that keeps; no `status` keeps
 * the status); `template_id` stands for a decline template's text.
 */
export function decisionInputSchema() {
  return z
    .object({
      /** A whole number ≥ 0, as a number or a form's string; left out or null: missing (409). */
      revision: z.unknown().optional().transform((v, ctx) => {
        if (v === undefined || v === null) return undefined;
        const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
        if (!Number.isSafeInteger(n) || n < 0) {
          ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.badRevision });
          return z.NEVER;
        }
        return n;
      }),
      status: z.unknown().optional().transform((v, ctx) => {
        if (v === undefined) return undefined;
        if (!isReviewStatus(v)) {
          ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.unknownStatus });
          return z.NEVER;
        }
        return v;
      }),
      note: decisionText(REVIEW_TEXTS.noteTooLong),
      message: decisionText(REVIEW_TEXTS.messageTooLong),
      /** A positive id, as a number or a form's string; null or left out means none. */
      template_id: z.unknown().optional().transform((v, ctx) => {
        if (v === undefined || v === null) return undefined;
        const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
        if (!Number.isSafeInteger(n) || n < 1) {
          ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.templateNotFound });
          return z.NEVER;
        }
        return n;
      }),
    })
    .superRefine((v, ctx) => {
      if (v.template_id === undefined) return;
      if (v.message !== undefined && v.message !== null) {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.messageAndTemplate });
      } else if (v.status !== "declined") {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.templateOnlyForDecline });
      }
    });
}

export type DecisionInput = z.output<ReturnType<typeof decisionInputSchema>>;

/** Why a decline template's title is refused, or null. */
export function templateTitleProblem(title: string): string | null {
  const t = title.trim();
  if (!t) return REVIEW_TEXTS.templateTitleRequired;
  if (charCount(t) > DECLINE_TEMPLATE_TITLE_MAX_LENGTH) return REVIEW_TEXTS.templateTitleTooLong;
  return hiddenCharsProblem(t);
}

/** Why a decline template's text is refused, or null. */
export function templateTextProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return REVIEW_TEXTS.templateTextRequired;
  if (decisionTextTooLong(t)) return REVIEW_TEXTS.templateTextTooLong;
  return hiddenCharsProblem(t);
}

const checkedText = (problem: (v: string) => string | null, required: string) =>
  z.string({ message: required }).transform((v, ctx) => {
    const p = problem(v);
    if (p) {
      ctx.addIssue({ code: "custom", message: p });
      return z.NEVER;
    }
    return v.trim();
  });

/** The admin's template form: create needs both fields, an update either. */
export function declineTemplateSchemas() {
  const title = checkedText(templateTitleProblem, REVIEW_TEXTS.templateTitleRequired);
  const text = checkedText(templateTextProblem, REVIEW_TEXTS.templateTextRequired);
  return {
    create: z.object({ title, text }),
    update: z.object({ title: title.optional(), text: text.optional() }),
  };
}

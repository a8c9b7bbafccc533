import { z } from "zod";
import { charCount } from "./profile.ts";
import { type Direction, DIRECTIONS } from "./directions.ts";
import { hiddenCharsProblem, multiline } from "./hidden-chars.ts";
import { INTAKE_DEFAULTS } from "./intake-rules.ts";
import { DAY_MS } from "./response-promise.ts";
import { type DeclineReason, parseReasons, REASON_ERRORS, REASON_OUTCOMES } from "./decline-reasons.ts";

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

// What the artist sees lives in its own module, so the artist's history page does not carry this
// one's staff rules into the public bundle (decision 0266).
import type { ArtistReviewStatus } from "./artist-review.ts";
export { ARTIST_REVIEW_LABELS, ARTIST_REVIEW_STATUSES, type ArtistReviewStatus } from "./artist-review.ts";

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

/** A track waiting longer than this is flagged in the panels: the response promise's default. */
export const OVERDUE_AFTER_DAYS = INTAKE_DEFAULTS.promise_days;

/** Whole days since the upload (never negative). */
export function daysSince(uploadDate: Date | string | number, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(uploadDate).getTime()) / DAY_MS));
}

/** The outcomes a decision of the review desk sets, each with its own message templates (0224). */
export const TEMPLATE_OUTCOMES = ["accepted", "shortlisted", "declined"] as const;
export type TemplateOutcome = (typeof TEMPLATE_OUTCOMES)[number];

export function isTemplateOutcome(value: unknown): value is TemplateOutcome {
  return typeof value === "string" && (TEMPLATE_OUTCOMES as readonly string[]).includes(value);
}

/** The admin's labels of the template groups. */
export const TEMPLATE_OUTCOME_LABELS: Record<TemplateOutcome, string> = {
  accepted: "Принять",
  shortlisted: "В шорт-лист",
  declined: "Отклонить",
};

/**
 * What a template's text may hold, filled in on the server when the message is made (0224):
 * `{artist}` and `{title}` from the track's name («Артист - Название»), `{direction}` the
 * direction's Russian name. Anything else in braces is refused when a template is saved.
 */
export const TEMPLATE_PLACEHOLDERS = ["artist", "title", "direction"] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

/** `{word}` that is not a known placeholder, or null. */
export function unknownPlaceholder(text: string): string | null {
  for (const m of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(m[1])) return m[0];
  }
  return null;
}

/** The text with its known placeholders filled in; an unknown `{x}` is left as written. */
export function fillTemplate(text: string, values: Record<TemplatePlaceholder, string>): string {
  return text.replace(/\{(artist|title|direction)\}/g, (_, name: TemplatePlaceholder) => values[name]);
}

/** The staff note and the message to the artist: up to 1,000 characters each, as a person counts them. */
export const DECISION_TEXT_MAX_LENGTH = 1000;
export const DECLINE_TEMPLATE_TITLE_MAX_LENGTH = 100;
/**
 * The list of each outcome is meant to stay short; a runaway script cannot fill the decision form's
 * menu. Counted per outcome (docs/decisions/0224).
 */
export const DECLINE_TEMPLATES_MAX = 50;

export const REVIEW_TEXTS = {
  unknownStatus: "Неизвестный статус решения",
  unknownReviewFilter: "Неизвестный статус рассмотрения",
  noteTooLong: `Заметка не должна превышать ${DECISION_TEXT_MAX_LENGTH} символов`,
  messageTooLong: `Сообщение артисту не должно превышать ${DECISION_TEXT_MAX_LENGTH} символов`,
  notTrackDirection: "У трека нет такого направления",
  outsideCategories: "Решение по этому направлению вне ваших категорий",
  messageAndTemplate: "Укажите либо сообщение артисту, либо шаблон",
  templateOnlyForDecline: "Шаблон можно выбрать только вместе с решением: принять, в шорт-лист или отклонить",
  templateOtherOutcome: "Этот шаблон относится к другому решению",
  templateNotFound: "Шаблон не найден",
  unknownOutcome: "Неизвестное решение шаблона: accepted, shortlisted или declined",
  unknownPlaceholder: (p: string) => `Неизвестная подстановка ${p}: можно использовать {artist}, {title} и {direction}`,
  trackDecisionStatus: "Решение: accepted, shortlisted или declined",
  badRevisions: "Некорректные ревизии решений",
  badOverrides: "Некорректные решения по направлениям",
  nothingInScope: "У трека нет направлений в ваших категориях",
  nothingToUndo: "Нечего отменять: у вас нет решения по этому треку",
  alreadyTold: "Отменить нельзя: артисту уже сообщили о решении",
  decisionChanged: "Решение уже изменено. В форме — текущее решение: проверьте его и сохраните снова",
  /** The desk's 409 (issue 31): the answer's `decisions` say who decided what and when. */
  decidedMeanwhile: "Пока вы слушали, решение по треку уже принял другой сотрудник",
  badRevision: "Некорректная ревизия решения",
  templateTitleRequired: "Название шаблона обязательно",
  templateTitleTooLong: `Название шаблона не должно превышать ${DECLINE_TEMPLATE_TITLE_MAX_LENGTH} символов`,
  templateTextRequired: "Текст шаблона обязателен",
  templateTextTooLong: `Текст шаблона не должен превышать ${DECISION_TEXT_MAX_LENGTH} символов`,
  tooManyTemplates: `Шаблонов одного решения может быть не больше ${DECLINE_TEMPLATES_MAX}`,
  badHistoryPage: "Некорректный номер страницы",
  badHistoryPageSize: "Размер страницы: от 1 до 100",
} as const;

export function decisionTextTooLong(value: string): boolean {
  return charCount(value) > DECISION_TEXT_MAX_LENGTH;
}

/** A note or message: trimmed, empty means none (null); `undefined` when the field was left out. */
const decisionText = (tooLong: string) =>
  multiline(
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
        const hidden = hiddenCharsProblem(text, { multiline: true });
        if (hidden) {
          ctx.addIssue({ code: "custom", message: hidden });
          return z.NEVER;
        }
        return text === "" ? null : text;
      }),
  );

/** `reasons` (issue 37): a list of codes, checked by `parseReasons`; left out or null: none given. */
const reasonList = () =>
  z.array(z.string().max(64), { error: REASON_ERRORS.notList }).max(32, REASON_ERRORS.notList).nullish();

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
      /** Decline reasons (issue 37, domain/decline-reasons.ts): only with `declined` or `shortlisted`. */
      reasons: reasonList().transform((v, ctx) => {
        const r = parseReasons(v);
        if (!r.ok) {
          ctx.addIssue({ code: "custom", message: r.error });
          return z.NEVER;
        }
        return r.value;
      }),
    })
    .superRefine((v, ctx) => {
      if (v.reasons && v.reasons.length > 0 && !(REASON_OUTCOMES as readonly unknown[]).includes(v.status)) {
        ctx.addIssue({ code: "custom", message: REASON_ERRORS.wrongOutcome });
      }
      if (v.template_id === undefined) return;
      if (v.message !== undefined && v.message !== null) {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.messageAndTemplate });
      } else if (!isTemplateOutcome(v.status)) {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.templateOnlyForDecline });
      }
    });
}

export type DecisionInput = Omit<z.output<ReturnType<typeof decisionInputSchema>>, "reasons"> & {
  /** Optional for callers that name none (the Telegram desk, the automatic decline). */
  reasons?: DeclineReason[];
};

/** A whole number ≥ 0 (a revision), as a number or a form's string. */
const revisionValue = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
};

/**
 * PUT …/tracks/{id}/decision (issue 23, docs/decisions/0222): one decision for every direction of
 * the track within the caller's categories. `revisions` holds each pair's revision the desk saw (a
 * pair in scope without one is stale: 409); `overrides` replaces the fields for a direction. Each
 * pair is then checked with the per-pair call's rules (`decisionInputSchema`).
 */
export function trackDecisionInputSchema() {
  const pair = decisionInputSchema();
  const status = z.unknown().transform((v, ctx) => {
    if (!isTemplateOutcome(v)) {
      ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.trackDecisionStatus });
      return z.NEVER;
    }
    return v;
  });
  const fields = z.object({
    status,
    template_id: z.unknown().optional(),
    reasons: reasonList(),
    // Checked below by the per-pair rules; marked so the check at the edge reads them as text.
    message: multiline(z.unknown().optional()),
    note: multiline(z.unknown().optional()),
  }).transform((v, ctx) => {
    const r = pair.safeParse({ ...v, revision: 0 });
    if (!r.success) {
      for (const i of r.error.issues) ctx.addIssue({ code: "custom", message: i.message });
      return z.NEVER;
    }
    const { revision: _, ...rest } = r.data;
    return { ...rest, status: v.status };
  });
  const directionKey = (key: string) => (DIRECTIONS as readonly string[]).includes(key);
  return z.object({
    revisions: z.record(z.string(), z.unknown(), { message: REVIEW_TEXTS.badRevisions }).transform((v, ctx) => {
      const out: Partial<Record<Direction, number>> = {};
      for (const [k, raw] of Object.entries(v)) {
        const n = revisionValue(raw);
        if (!directionKey(k) || n === null) {
          ctx.addIssue({
            code: "custom",
            message: directionKey(k) ? REVIEW_TEXTS.badRevision : REVIEW_TEXTS.notTrackDirection,
          });
          return z.NEVER;
        }
        out[k as Direction] = n;
      }
      return out;
    }),
    overrides: z.union([z.record(z.string(), fields, { message: REVIEW_TEXTS.badOverrides }), z.null()]).optional()
      .transform((v, ctx) => {
        const out: Partial<Record<Direction, z.output<typeof fields>>> = {};
        for (const [k, o] of Object.entries(v ?? {})) {
          if (!directionKey(k)) {
            ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.notTrackDirection });
            return z.NEVER;
          }
          out[k as Direction] = o;
        }
        return out;
      }),
  }).and(fields);
}

export type TrackDecisionInput = z.output<ReturnType<typeof trackDecisionInputSchema>>;
/** The fields of one pair's decision within a whole-track decision. */
export type PairDecisionFields = Omit<DecisionInput, "revision"> & { status: TemplateOutcome };

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
  const unknown = unknownPlaceholder(t);
  if (unknown) return REVIEW_TEXTS.unknownPlaceholder(unknown);
  return hiddenCharsProblem(t, { multiline: true });
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
  const text = multiline(checkedText(templateTextProblem, REVIEW_TEXTS.templateTextRequired));
  const outcomeOr = <D extends TemplateOutcome | undefined>(missing: D) =>
    z.unknown().optional().transform((v, ctx): TemplateOutcome | D => {
      if (v === undefined) return missing;
      if (!isTemplateOutcome(v)) {
        ctx.addIssue({ code: "custom", message: REVIEW_TEXTS.unknownOutcome });
        return z.NEVER;
      }
      return v;
    });
  return {
    // Left out: a decline, as every template was before outcomes (scripts written then, 0224).
    create: z.object({
      title,
      text,
      outcome: outcomeOr("declined" as const),
    }),
    update: z.object({ title: title.optional(), text: text.optional(), outcome: outcomeOr(undefined) }),
  };
}

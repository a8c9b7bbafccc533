/**
 * What only the server and the staff lists use of the AI answer (domain/ai-use.ts): the reading of
 * the request's field and its refusals, the lists' filter, the staff badges. Apart from ai-use.ts,
 * which the upload page imports, so that the public pages do not carry them (decision 0432).
 */
import { AI_USE_VALUES, type AiUse, isAiUse } from "./ai-use.ts";

/** The server's refusals of the field. */
export const AI_USE_ERRORS = {
  /** The server's 400 for any other value of `ai_use` (an absent field is no answer, not an error). */
  invalid: "Некорректный ответ на вопрос об ИИ: допустимы значения no, partly или yes.",
  /** Two different answers in one request: the question is asked once per batch. */
  conflicting: "Ответ на вопрос об ИИ указан несколько раз с разными значениями.",
  /** The staff list's 400 for an unknown filter value. */
  badFilter: "Неизвестный фильтр по ИИ: допустимы no, partly, yes или none.",
} as const;

/** The staff lists' `ai_use` filter: an answer, or `none` for tracks without one (older uploads, scripts). */
export const AI_USE_FILTERS = [...AI_USE_VALUES, "none"] as const;
export type AiUseFilter = (typeof AI_USE_FILTERS)[number];

/** The staff badge and the detail line (decision 0246). */
export const AI_USE_BADGES: Record<AiUse | "none", string> = {
  no: "ИИ: нет",
  partly: "ИИ: частично",
  yes: "ИИ: да",
  none: "ИИ: не указано",
};

/** The filter's choices in the staff lists. */
export const AI_USE_FILTER_LABELS: Record<AiUseFilter, string> = {
  no: "ИИ: нет",
  partly: "ИИ: частично",
  yes: "ИИ: да",
  none: "Без ответа",
};

/**
 * One `ai_use` value as a request sends it: undefined or null (the field left out, as older scripts
 * do) is no answer; `no`, `partly`, `yes` exactly are the answers; anything else is refused. The one
 * reading of the field, for the multipart upload and the resumable start alike.
 */
export function parseAiUse(value: unknown): { ok: true; value: AiUse | null } | { ok: false; error: string } {
  if (value === undefined || value === null) return { ok: true, value: null };
  return isAiUse(value) ? { ok: true, value } : { ok: false, error: AI_USE_ERRORS.invalid };
}

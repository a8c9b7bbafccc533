/**
 * The AI question of the upload form (issue 25, docs/decisions/0245 and 0246): asked once per batch,
 * answered `no`, `partly` or `yes`, kept on every track of the batch (`tracks.ai_use`) and shown to
 * staff only, as a badge and a filter. Nothing is guessed by a model: it is what the artist said.
 * Shared by the server's upload reader (multipart field `ai_use`, the resumable start's JSON field),
 * the staff list's filter and the client's form. No zod here: the upload page imports it.
 */

export const AI_USE_VALUES = ["no", "partly", "yes"] as const;
export type AiUse = (typeof AI_USE_VALUES)[number];

/** The staff lists' `ai_use` filter: an answer, or `none` for tracks without one (older uploads, scripts). */
export const AI_USE_FILTERS = [...AI_USE_VALUES, "none"] as const;
export type AiUseFilter = (typeof AI_USE_FILTERS)[number];

export const AI_USE_QUESTION = "Использовался ли ИИ при создании трека?";

/** The form's answers, in the order. */
export const AI_USE_LABELS: Record<AiUse, string> = { no: "Нет", partly: "Частично", yes: "Да" };

/**
 * The site's rule about AI-generated tracks, in the words of the seeded FAQ («Можно ли отправлять
 * треки, созданные с помощью ИИ?»; spec 1 §1: AI-generated tracks lead to a ban). Shown under «Да».
 */
export const AI_RULE_TEXT = "Треки, сгенерированные искусственным интеллектом, приводят к блокировке аккаунта.";

export const AI_USE_TEXTS = {
  /** The server's 400 for any other value of `ai_use` (an absent field is no answer, not an error). */
  invalid: "Некорректный ответ на вопрос об ИИ: допустимы значения no, partly или yes.",
  /** Two different answers in one request: the question is asked once per batch. */
  conflicting: "Ответ на вопрос об ИИ указан несколько раз с разными значениями.",
  /** The staff list's 400 for an unknown filter value. */
  badFilter: "Неизвестный фильтр по ИИ: допустимы no, partly, yes или none.",
  /** The form's hint while no answer is chosen. */
  required: "Ответьте на вопрос об ИИ.",
  /** The form's checkbox under «Да». */
  confirm: "Я прочитал(а) правило и понимаю, что трек, сгенерированный ИИ, может привести к блокировке аккаунта.",
  /** The form's hint while «Да» is chosen and the checkbox is not ticked. */
  confirmRequired: "Подтвердите, что прочитали правило об ИИ.",
  /** The rule's heading under «Да». */
  ruleTitle: "Правило сайта",
} as const;

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

export function isAiUse(v: unknown): v is AiUse {
  return typeof v === "string" && (AI_USE_VALUES as readonly string[]).includes(v);
}

/**
 * One `ai_use` value as a request sends it: undefined or null (the field left out, as older scripts
 * do) is no answer; `no`, `partly`, `yes` exactly are the answers; anything else is refused. The one
 * reading of the field, for the multipart upload and the resumable start alike.
 */
export function parseAiUse(value: unknown): { ok: true; value: AiUse | null } | { ok: false; error: string } {
  if (value === undefined || value === null) return { ok: true, value: null };
  return isAiUse(value) ? { ok: true, value } : { ok: false, error: AI_USE_TEXTS.invalid };
}

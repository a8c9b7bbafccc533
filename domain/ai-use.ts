/**
 * The AI question of the upload form (issue 25, docs/decisions/0245 and 0246): asked once per batch,
 * answered `no`, `partly` or `yes`, kept on every track of the batch (`tracks.ai_use`) and shown to
 * staff only, as a badge and a filter. Nothing is guessed by a model: it is what the artist said.
 * Shared by the server's upload reader (multipart field `ai_use`, the resumable start's JSON field),
 * the staff list's filter and the client's form. No zod here: the upload page imports it. What only
 * the server and the staff lists use is in ai-use-desk.ts, out of the public pages (decision 0432).
 */

export const AI_USE_VALUES = ["no", "partly", "yes"] as const;
export type AiUse = (typeof AI_USE_VALUES)[number];

export const AI_USE_QUESTION = "Использовался ли ИИ при создании трека?";

/** The form's answers, in the order. */
export const AI_USE_LABELS: Record<AiUse, string> = { no: "Нет", partly: "Частично", yes: "Да" };

/**
 * The site's rule about AI-generated tracks, in the words of the seeded FAQ («Можно ли отправлять
 * треки, созданные с помощью ИИ?»; spec 1 §1: AI-generated tracks lead to a ban). Shown under «Да».
 */
export const AI_RULE_TEXT = "Треки, сгенерированные искусственным интеллектом, приводят к блокировке аккаунта.";

export const AI_USE_TEXTS = {
  /** The form's hint while no answer is chosen. */
  required: "Ответьте на вопрос об ИИ.",
  /** The form's checkbox under «Да». */
  confirm: "Я прочитал(а) правило и понимаю, что трек, сгенерированный ИИ, может привести к блокировке аккаунта.",
  /** The form's hint while «Да» is chosen and the checkbox is not ticked. */
  confirmRequired: "Подтвердите, что прочитали правило об ИИ.",
  /** The rule's heading under «Да». */
  ruleTitle: "Правило сайта",
} as const;

export function isAiUse(v: unknown): v is AiUse {
  return typeof v === "string" && (AI_USE_VALUES as readonly string[]).includes(v);
}

/**
 * Decline reasons (issue 37): what a `declined` (or `shortlisted`) decision may name so the artist
 * knows what to work on. Codes are the API's; the artist reads the Russian word and a short line on
 * what the reason usually means (site and Telegram message); the moderator's desk shows English.
 * No zod here: the artist's history imports these texts into the public bundle.
 */

export const DECLINE_REASONS = [
  "mixdown",
  "mastering",
  "arrangement",
  "sound_design",
  "drop",
  "vocals",
  "originality",
  "fit",
  "quality",
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** The outcomes a decision may carry reasons with. */
export const REASON_OUTCOMES = ["declined", "shortlisted"] as const;

export function isDeclineReason(value: unknown): value is DeclineReason {
  return typeof value === "string" && (DECLINE_REASONS as readonly string[]).includes(value);
}

/** What the artist reads: the word, and a line on what the reason usually means. */
export const REASON_TEXTS_RU: Record<DeclineReason, { label: string; line: string }> = {
  mixdown: { label: "Сведение", line: "Баланс инструментов: бас, барабаны и остальное мешают друг другу." },
  mastering: { label: "Мастеринг", line: "Громкость и общая обработка: трек тихий, пережат или звучит плоско." },
  arrangement: { label: "Аранжировка", line: "Структура трека: части затянуты, не развиваются или не связаны." },
  sound_design: { label: "Саунд-дизайн", line: "Сами звуки: басы и синтезаторы звучат простовато или устаревше." },
  drop: { label: "Дроп", line: "Главная часть трека не даёт ожидаемой энергии." },
  vocals: { label: "Вокал", line: "Запись, обработка или место вокала в миксе." },
  originality: { label: "Оригинальность", line: "Трек слишком похож на известные треки или шаблоны жанра." },
  fit: { label: "Не наш звук", line: "Трек может быть хорош, но не подходит звучанию этого направления." },
  quality: { label: "Техническое качество", line: "Клиппинг, низкий битрейт или другие технические дефекты файла." },
};

export const REASON_ERRORS = {
  notList: "Поле reasons должно быть списком причин.",
  unknown: (code: string) => `Неизвестная причина: ${code.slice(0, 40)}. Допустимые: ${DECLINE_REASONS.join(", ")}.`,
  wrongOutcome: "Причины можно указать только при отказе (declined) или шорт-листе (shortlisted).",
} as const;

/**
 * `reasons` as the API receives it: left out or null is none given; otherwise a list of known
 * codes (repeats dropped, in the canonical order), or the error's text.
 */
export function parseReasons(value: unknown): { ok: true; value: DeclineReason[] | undefined } | {
  ok: false;
  error: string;
} {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (!Array.isArray(value) || value.length > 32) return { ok: false, error: REASON_ERRORS.notList };
  for (const v of value) {
    if (!isDeclineReason(v)) return { ok: false, error: REASON_ERRORS.unknown(String(v)) };
  }
  return { ok: true, value: DECLINE_REASONS.filter((r) => value.includes(r)) };
}

/** The stored JSON text of a pair's reasons, read back (unknown codes dropped). */
export function reasonsFromJson(text: string | null | undefined): DeclineReason[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? DECLINE_REASONS.filter((r) => v.includes(r)) : [];
  } catch {
    return [];
  }
}

/** The reasons' lines of a Telegram message or the site: «Сведение — …». */
export function reasonLinesRu(reasons: readonly DeclineReason[]): string[] {
  return reasons.map((r) => `${REASON_TEXTS_RU[r].label} — ${REASON_TEXTS_RU[r].line}`);
}

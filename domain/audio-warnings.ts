/**
 * The warnings an analysed track can carry and their Russian texts: one home for the server's
 * analysis (server/audio/warnings.ts picks them) and the screens that show them (the staff player's
 * report, the artist's «Мои треки»). Plain values, so a client import brings nothing else along.
 */
export const AUDIO_WARNING_TEXTS = {
  low_bitrate: "Битрейт ниже 320 kbps",
  clipping: "Клиппинг",
  too_quiet: "Тихий мастер (ниже −14 LUFS)",
  tempo_outside_dnb: "Темп вне диапазона drum and bass",
  tempo_outside_window: "Темп вне окна направления (правила приёма)",
} as const;

export type AudioWarning = keyof typeof AUDIO_WARNING_TEXTS;

/**
 * Warnings for the staff only, never in the artist's report (issue 25): a tempo outside a direction's
 * window set by the intake rules, flagged rather than refused.
 */
export const STAFF_ONLY_WARNINGS: readonly AudioWarning[] = ["tempo_outside_window"];

/** Every warning code, in the order the texts are listed. */
export const AUDIO_WARNINGS = Object.keys(AUDIO_WARNING_TEXTS) as AudioWarning[];

export function isAudioWarning(value: unknown): value is AudioWarning {
  return typeof value === "string" && Object.hasOwn(AUDIO_WARNING_TEXTS, value);
}

/** The text of a warning code; an unknown code (a newer server) is shown as it is. */
export function audioWarningText(code: string): string {
  return isAudioWarning(code) ? AUDIO_WARNING_TEXTS[code] : code;
}

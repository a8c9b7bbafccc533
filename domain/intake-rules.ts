/**
 * Intake rules per direction (issue 25): the defaults of a direction never saved, the limits of each
 * field, the validation of an admin's change, and the Russian texts. Shared by the server's checks and
 * the admin's «Приём треков» form.
 */
import { z } from "zod";
import { hiddenCharsProblem, multiline } from "./hidden-chars.ts";
import { DNB_MAX_BPM, DNB_MIN_BPM } from "./tempo.ts";

export const TEMPO_MODES = ["flag", "refuse"] as const;
export type TempoMode = (typeof TEMPO_MODES)[number];

/** The writable fields of a direction's rules. */
export interface IntakeSettings {
  open: boolean;
  pause_message: string | null;
  cap_per_30_days: number | null;
  cooldown_hours: number | null;
  tempo_min: number;
  tempo_max: number;
  tempo_mode: TempoMode;
  promise_days: number;
  auto_decline_after_days: number;
  staff_chat_id: string | null;
  late_message: string | null;
  /** The release desk (issue 34; label directions): catalogue prefix (null: built in), next number, extras asked. */
  catalogue_prefix: string | null;
  catalogue_next: number;
  release_extended: boolean;
  release_instrumental: boolean;
}

/** A direction without a saved row (db/schema.ts `direction_intake` has the same defaults). */
export const INTAKE_DEFAULTS: IntakeSettings = {
  open: true,
  pause_message: null,
  cap_per_30_days: null,
  cooldown_hours: null,
  tempo_min: DNB_MIN_BPM,
  tempo_max: DNB_MAX_BPM,
  tempo_mode: "flag",
  promise_days: 14,
  auto_decline_after_days: 7,
  staff_chat_id: null,
  late_message: null,
  catalogue_prefix: null,
  catalogue_next: 1,
  release_extended: false,
  release_instrumental: false,
};

export const INTAKE_LIMITS = {
  pauseMessageMax: 500,
  lateMessageMax: 1000,
  capMax: 1000,
  /** A year. */
  cooldownHoursMax: 8760,
  tempoMin: 40,
  tempoMax: 400,
  promiseDaysMax: 365,
  autoDeclineAfterDaysMax: 365,
  catalogueNextMax: 999_999,
} as const;

/** The window the cap counts over. */
export const CAP_WINDOW_DAYS = 30;

/**
 * The automatic decline's message when the direction has none of its own (`{artist}` `{title}`
 * `{direction}` are filled in, as in the decline templates).
 */
export const DEFAULT_LATE_MESSAGE =
  "Здравствуйте, {artist}! К сожалению, мы не успели послушать «{title}» для направления «{direction}» в обещанный срок, поэтому закрываем заявку. Это не оценка трека: вы можете отправить его снова.";

export const INTAKE_TEXTS = {
  paused: (label: string, message: string | null) =>
    message
      ? `Направление «${label}» сейчас не принимает треки: ${message}`
      : `Направление «${label}» сейчас не принимает треки.`,
  cap: (label: string, cap: number, opensAt: string) =>
    `В направление «${label}» можно отправить не больше ${cap} ${
      tracksWord(cap)
    } за ${CAP_WINDOW_DAYS} дней. Следующий трек можно будет отправить ${opensAt}.`,
  cooldown: (label: string, hours: number, opensAt: string) =>
    `В направление «${label}» можно отправлять треки не чаще раза в ${hours} ч. Следующая отправка — ${opensAt}.`,
  tempoRefused: (bpm: number, refused: readonly { label: string; min: number; max: number }[], others: boolean) =>
    `Темп трека (${Math.round(bpm)} BPM) вне окна ${
      refused.map((r) => `направления «${r.label}» (${r.min}–${r.max} BPM)`).join(", ")
    }: трек не принят.${others ? " В остальные выбранные направления отправьте его заново, без этого." : ""}`,
  unknownDirection: "Неизвестное направление",
  nothingToChange: "Не указано ни одно поле правил",
  tempoOrder: "Нижняя граница темпа должна быть меньше верхней",
  unknownField: (name: string) => `Неизвестное поле: ${name}`,
} as const;

function tracksWord(n: number): string {
  const m10 = n % 10, m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return "трека";
  return "треков";
}

/** The pause and late messages: multi-line texts (textareas). */
const text = (max: number, label: string) =>
  multiline(
    z.union([z.string(), z.null()], { message: `${label}: ожидается текст или null` })
      .transform((v) => (v === null || v.trim() === "" ? null : v.trim()))
      .refine((v) => v === null || v.length <= max, { message: `${label}: не длиннее ${max} символов` })
      .superRefine((v, ctx) => {
        const hidden = v === null ? null : hiddenCharsProblem(v, { multiline: true });
        if (hidden) ctx.addIssue({ code: "custom", message: `${label}: ${hidden}` });
      }),
  );

const whole = (min: number, max: number, label: string) =>
  z.number({ message: `${label}: ожидается целое число` }).int({ message: `${label}: ожидается целое число` })
    .min(min, { message: `${label}: от ${min} до ${max}` }).max(max, { message: `${label}: от ${min} до ${max}` });

const tempo = (label: string) =>
  z.number({ message: `${label}: ожидается число` }).finite()
    .min(INTAKE_LIMITS.tempoMin, { message: `${label}: от ${INTAKE_LIMITS.tempoMin} до ${INTAKE_LIMITS.tempoMax} BPM` })
    .max(INTAKE_LIMITS.tempoMax, {
      message: `${label}: от ${INTAKE_LIMITS.tempoMin} до ${INTAKE_LIMITS.tempoMax} BPM`,
    });

/** A Telegram chat: its numeric id (a supergroup's is like -1001234567890) or a public @username. */
export const STAFF_CHAT_ID_RULE = /^(-?[1-9]\d{0,19}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
const STAFF_CHAT_ID_MESSAGE = "staff_chat_id: id чата Telegram (целое число, например -1001234567890) или @имя_канала";

const staffChatId = z.union([z.string(), z.number(), z.null()], { message: STAFF_CHAT_ID_MESSAGE })
  .transform((v) => (v === null ? null : typeof v === "number" ? String(v) : v.trim() === "" ? null : v.trim()))
  .refine((v) => v === null || (STAFF_CHAT_ID_RULE.test(v) && (!/^-?\d/.test(v) || Number.isSafeInteger(Number(v)))), {
    message: STAFF_CHAT_ID_MESSAGE,
  });

/** A catalogue prefix: 2 to 8 Latin capitals (NPR, KSTR). */
export const CATALOGUE_PREFIX_RULE = /^[A-Z]{2,8}$/;
const CATALOGUE_PREFIX_MESSAGE = "catalogue_prefix: от 2 до 8 латинских заглавных букв (например NPR) или null";

const cataloguePrefix = z.union([z.string(), z.null()], { message: CATALOGUE_PREFIX_MESSAGE })
  .transform((v) => (v === null || v.trim() === "" ? null : v.trim().toUpperCase()))
  .refine((v) => v === null || CATALOGUE_PREFIX_RULE.test(v), { message: CATALOGUE_PREFIX_MESSAGE });

/** Fields a client may send back from a read Rule: ignored, not an error. */
const READ_ONLY = new Set(["direction", "updated_at", "updated_by"]);

const updateShape = {
  open: z.boolean({ message: "open: ожидается true или false" }),
  pause_message: text(INTAKE_LIMITS.pauseMessageMax, "Сообщение о паузе"),
  cap_per_30_days: whole(1, INTAKE_LIMITS.capMax, "Лимит за 30 дней").nullable(),
  cooldown_hours: whole(1, INTAKE_LIMITS.cooldownHoursMax, "Пауза между отправками, ч").nullable(),
  tempo_min: tempo("Темп от"),
  tempo_max: tempo("Темп до"),
  tempo_mode: z.enum(TEMPO_MODES, { message: "tempo_mode: flag или refuse" }),
  promise_days: whole(1, INTAKE_LIMITS.promiseDaysMax, "Срок ответа, дней"),
  auto_decline_after_days: whole(0, INTAKE_LIMITS.autoDeclineAfterDaysMax, "Отказ после срока, дней"),
  staff_chat_id: staffChatId,
  late_message: text(INTAKE_LIMITS.lateMessageMax, "Сообщение «не успели послушать»"),
  catalogue_prefix: cataloguePrefix,
  catalogue_next: whole(1, INTAKE_LIMITS.catalogueNextMax, "Следующий номер каталога"),
  release_extended: z.boolean({ message: "release_extended: ожидается true или false" }),
  release_instrumental: z.boolean({ message: "release_instrumental: ожидается true или false" }),
};

/** PUT /api/admin/intake/{direction}: any subset of the writable fields (at least one). */
export const intakeUpdateSchema = z.record(z.string(), z.unknown())
  .superRefine((body, ctx) => {
    for (const key of Object.keys(body)) {
      if (!(key in updateShape) && !READ_ONLY.has(key)) {
        ctx.addIssue({ code: "custom", message: INTAKE_TEXTS.unknownField(key) });
      }
    }
  })
  .transform((body) => {
    const picked: Record<string, unknown> = {};
    for (const key of Object.keys(updateShape)) if (key in body) picked[key] = body[key];
    return picked;
  })
  .pipe(z.object(updateShape).partial())
  .refine((v) => Object.keys(v).length > 0, { message: INTAKE_TEXTS.nothingToChange });

export type IntakeUpdate = z.output<typeof intakeUpdateSchema>;

/** The rules after a change: what is checked across fields (tempo_min < tempo_max). */
export function mergedProblem(merged: IntakeSettings): string | null {
  return merged.tempo_min < merged.tempo_max ? null : INTAKE_TEXTS.tempoOrder;
}

/**
 * The release desk of the two labels (issue 34): which directions have releases, the stages (the
 * moves between them and the label's day are in release-desk.ts), the label copy's rules (authors' shares, the ISRC, the
 * samples), the catalogue number, and the Russian texts the artist reads. Shared by the server's
 * validators and the client's forms.
 */
import type { Direction } from "./directions.ts";

/** The directions whose accepted tracks become releases. */
export const LABEL_DIRECTIONS = ["label_neuropunk", "label_koster"] as const satisfies readonly Direction[];
export type LabelDirection = (typeof LABEL_DIRECTIONS)[number];

export function isLabelDirection(d: string): d is LabelDirection {
  return (LABEL_DIRECTIONS as readonly string[]).includes(d);
}

/** A label's catalogue prefix until an administrator sets one (intake settings `catalogue_prefix`). */
export const DEFAULT_CATALOGUE_PREFIX: Record<LabelDirection, string> = {
  label_neuropunk: "NPR",
  label_koster: "KSTR",
};

/** The label's name on exports and in the artist's messages. */
export const LABEL_NAMES: Record<LabelDirection, string> = {
  label_neuropunk: "Neuropunk Records",
  label_koster: "Костёр Звукозапись",
};

/** Stages, in their order (db/schema.ts `RELEASE_STAGES` holds the same list for the column). */
export const RELEASE_STAGE_LABELS = {
  materials_requested: "Ждём материалы",
  materials_received: "Материалы получены",
  scheduled: "Запланирован",
  released: "Вышел",
  cancelled: "Отменён",
} as const;
export type ReleaseStage = keyof typeof RELEASE_STAGE_LABELS;
export const RELEASE_STAGE_LIST = Object.keys(RELEASE_STAGE_LABELS) as ReleaseStage[];

/** `CC-XXX-YY-NNNNN`: country, registrant (letters or digits), year, designation. */
export const ISRC_RULE = /^[A-Z]{2}-[A-Z0-9]{3}-\d{2}-\d{5}$/;

/** The ISRC as stored: upper case, with its hyphens (given with or without them). */
export function normalIsrc(raw: string): string | null {
  const compact = raw.trim().toUpperCase().replace(/-/g, "");
  if (!/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(compact)) return null;
  const isrc = `${compact.slice(0, 2)}-${compact.slice(2, 5)}-${compact.slice(5, 7)}-${compact.slice(7)}`;
  return ISRC_RULE.test(isrc) ? isrc : null;
}

/** A catalogue number: capitals and digits, an optional hyphen (NPR001, KSTR-12). */
export const CATALOGUE_NUMBER_RULE = /^[A-Z]{1,8}-?\d{1,6}$/;

/** The catalogue number `prefix` + `n`, at least three digits: NPR001, KSTR120. */
export function catalogueNumber(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(3, "0")}`;
}

/** The number of a catalogue number of this prefix, else null. */
export function catalogueNumberOf(prefix: string, value: string): number | null {
  const m = new RegExp(`^${prefix}-?(\\d+)$`).exec(value);
  return m ? Number(m[1]) : null;
}

export const AUTHOR_ROLES = ["music", "lyrics", "both"] as const;
export type AuthorRole = (typeof AUTHOR_ROLES)[number];
export const AUTHOR_ROLE_LABELS: Record<AuthorRole, string> = {
  music: "музыка",
  lyrics: "текст",
  both: "музыка и текст",
};

export const LABEL_COPY_LIMITS = { name: 100, title: 200, version: 100, people: 20, details: 1000 } as const;

export const RELEASE_TEXTS = {
  notFound: "Релиз не найден",
  outsideCategories: "Релиз вне ваших категорий",
  changed: "Релиз изменился: обновите страницу",
  badMove: (from: ReleaseStage, to: ReleaseStage) =>
    `Нельзя перевести релиз из «${RELEASE_STAGE_LABELS[from]}» в «${RELEASE_STAGE_LABELS[to]}»`,
  needsNumberAndDate: "Чтобы запланировать релиз, нужны номер по каталогу и дата выхода",
  catalogueTaken: (n: string, other: string) => `Номер ${n} уже у релиза ${other}`,
  isrcTaken: (isrc: string, other: string) => `ISRC ${isrc} уже указан у релиза ${other}`,
  sharesTotal: (total: number) => `authors: доли авторов в сумме должны быть ровно 100 (сейчас ${total})`,
  nothingToChange: "Не указано ни одно поле",
  cancelledCopy: "Релиз отменён: данные больше не меняются",
  releasedCopy: "Релиз уже вышел: данные больше не меняются",
} as const;

/** How one release is named in a refusal: its catalogue number, else its id. */
export function releaseRef(r: { id: number; catalogue_number: string | null }): string {
  return r.catalogue_number ? `${r.catalogue_number} (№ ${r.id})` : `№ ${r.id}`;
}

/** The total of the shares, to the hundredth (shares have at most two decimals). */
export function sharesTotal(shares: readonly number[]): number {
  return shares.reduce((sum, s) => sum + Math.round(s * 100), 0) / 100;
}

/** YYYY-MM-DD naming a real day. */
export function isCalendarDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** ДД.ММ.ГГГГ of a YYYY-MM-DD day. */
export function russianDate(day: string): string {
  const [y, m, d] = day.split("-");
  return `${d}.${m}.${y}`;
}

/** Reminders for missing materials: at most this many, at least this far apart (and after the request). */
export const REMINDER_EVERY_DAYS = 3;
export const REMINDERS_MAX = 4;

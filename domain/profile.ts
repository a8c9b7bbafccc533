import { z } from "zod";
import { GENRES } from "./directions.ts";
import { hiddenCharsProblem, multiline } from "./hidden-chars.ts";

/**
 * A person's profile fields (spec 1 §2 "/profile/edit", §5 "Avatar", "Biography"; spec 2 §4 "User"):
 * their limits, texts and checks. The profile form, the admin user form and the server's validators
 * of both read them from here, so a profile field has one rule whoever edits it (decision 0130).
 *
 * The checks are plain functions; the zod schema is built from them inside a function, so a client
 * module that imports only the checks does not pull zod into the public bundle.
 */

/** First name, last name and city, counted in UTF-16 units like the inputs' `maxLength`. */
export const NAME_MAX_LENGTH = 100;
/** Spec 1 §5 and §9: "at most 500 characters", counted as a person counts them (an emoji is one). */
export const BIO_MAX_LENGTH = 500;
export const BIRTH_DATE_MIN = "1900-01-01";
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** `image/jpg` is not a registered type, but some browsers send it for .jpg files. */
export const AVATAR_TYPES = ["image/jpeg", "image/png", "image/jpg"] as const;

export const PROFILE_TEXTS = {
  firstNameTooLong: `Имя не должно превышать ${NAME_MAX_LENGTH} символов`,
  lastNameTooLong: `Фамилия не должна превышать ${NAME_MAX_LENGTH} символов`,
  cityTooLong: `Название города не должно превышать ${NAME_MAX_LENGTH} символов`,
  bioTooLong: `Биография не должна превышать ${BIO_MAX_LENGTH} символов`,
  badBirthDate: "Некорректная дата рождения",
  futureBirthDate: "Дата рождения не может быть в будущем",
  badGenre: "Выберите жанр из списка",
  avatarTooLarge: "Файл слишком большой. Максимальный размер: 5 МБ",
  avatarBadType: "Неподдерживаемый формат файла. Допустимые форматы: JPG, PNG",
  saved: "Профиль успешно обновлен",
} as const;

/** Characters as a person counts them (an emoji is one). */
export function charCount(text: string): number {
  return [...text].length;
}

export function nameTooLong(value: string): boolean {
  return value.length > NAME_MAX_LENGTH;
}

export function bioTooLong(value: string): boolean {
  return charCount(value) > BIO_MAX_LENGTH;
}

/** Whole calendar date, `YYYY-MM-DD`, that exists (no 31 February). */
export function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Why a non-empty birth date is refused, or null. `today` is `YYYY-MM-DD`. */
export function birthDateProblem(value: string, today: string): string | null {
  if (!isRealDate(value) || value < BIRTH_DATE_MIN) return PROFILE_TEXTS.badBirthDate;
  if (value > today) return PROFILE_TEXTS.futureBirthDate;
  return null;
}

export function isGenre(value: string): boolean {
  return (GENRES as readonly string[]).includes(value);
}

export function isAvatarType(type: string): boolean {
  return (AVATAR_TYPES as readonly string[]).includes(type.toLowerCase());
}

/** The reason an avatar file cannot be used, or null when it can. */
export function avatarProblem(file: { size: number; type: string }): string | null {
  if (!isAvatarType(file.type)) return PROFILE_TEXTS.avatarBadType;
  if (file.size > AVATAR_MAX_BYTES) return PROFILE_TEXTS.avatarTooLarge;
  return null;
}

/** Profile text never needs NUL bytes; they are dropped before trimming. */
const withoutNulTrimmed = (v: string) => v.replaceAll("\u0000", "").trim();
const emptyToNull = (v: string) => (v === "" ? null : v);

/** The hidden-characters rule as a zod check, its message naming them. */
const refuseHidden = (kind?: { multiline: boolean }) => (v: string, ctx: z.RefinementCtx) => {
  const hidden = hiddenCharsProblem(v, kind);
  if (hidden) ctx.addIssue({ code: "custom", message: hidden });
};

const name = (tooLong: string) =>
  z.string().transform(withoutNulTrimmed).refine((v) => !nameTooLong(v), tooLong)
    .superRefine(refuseHidden()).transform(emptyToNull);

/**
 * The fields of `POST /api/profile/update`, as strings from a form: each trimmed, empty means "clear
 * the value" (null), a field left out is not changed. `today` is `YYYY-MM-DD` on the server's clock.
 */
export function profileSchema(today: string) {
  return z.object({
    first_name: name(PROFILE_TEXTS.firstNameTooLong).optional(),
    last_name: name(PROFILE_TEXTS.lastNameTooLong).optional(),
    city: name(PROFILE_TEXTS.cityTooLong).optional(),
    bio: multiline(
      z.string().transform(withoutNulTrimmed).refine((v) => !bioTooLong(v), PROFILE_TEXTS.bioTooLong)
        .superRefine(refuseHidden({ multiline: true })).transform(emptyToNull).optional(),
    ),
    birth_date: z
      .string()
      .transform((v) => v.trim())
      .check((ctx) => {
        const problem = ctx.value === "" ? null : birthDateProblem(ctx.value, today);
        if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
      })
      .transform(emptyToNull)
      .optional(),
    favorite_dnb_genre: z
      .string()
      .transform((v) => v.trim())
      .refine((v) => v === "" || isGenre(v), PROFILE_TEXTS.badGenre)
      .transform(emptyToNull)
      .optional(),
  });
}

export const PROFILE_FIELDS = ["first_name", "last_name", "city", "bio", "birth_date", "favorite_dnb_genre"] as const;

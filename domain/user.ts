import { z } from "zod";
import { BAN_REASON_MAX_LENGTH, BAN_TEXTS } from "./ban-rules.ts";
import { type Direction, isDirection } from "./directions.ts";
import { hiddenCharsProblem, multiline, type TextKind } from "./hidden-chars.ts";
import { bioTooLong, birthDateProblem, isGenre, nameTooLong, PROFILE_TEXTS } from "./profile.ts";

/**
 * The administrator's user rules (spec 2 §4 "User", §5 "User", §6): username and e-mail, roles and
 * their display priority, moderator categories, and which flag changes are refused. The admin user
 * form checks them before saving and `/api/admin/users` checks them again, from this one module.
 * The profile fields an admin edits (names, city, bio, birth date, genre) follow the profile's own
 * rules (profile.ts): one person, one set of limits, whoever edits them.
 */

export const USERNAME_MAX_LENGTH = 64;
export const EMAIL_MAX_LENGTH = 254;
export const PHONE_MAX_LENGTH = 32;
export const TELEGRAM_HASH_MAX_LENGTH = 200;
/** The usual "something@domain.tld" check: no spaces, one @, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** VK and Telegram ids as an admin may type them. */
export const EXTERNAL_ID_PATTERN = /^[\w.@-]{1,64}$/;

export const USER_TEXTS = {
  notFound: "Пользователь не найден",
  usernameRequired: "Имя пользователя обязательно для заполнения",
  usernameTooLong: `Имя пользователя: не более ${USERNAME_MAX_LENGTH} символов`,
  usernameTaken: "Пользователь с таким именем уже существует",
  badEmail: "Некорректный формат email",
  phoneTooLong: `Телефон: не более ${PHONE_MAX_LENGTH} символов`,
  telegramHashTooLong: `Telegram hash: не более ${TELEGRAM_HASH_MAX_LENGTH} символов`,
  badVkId: "Некорректный VK ID",
  badTelegramId: "Некорректный Telegram ID",
  vkIdTaken: "Этот VK ID уже привязан к другому пользователю",
  telegramIdTaken: "Этот Telegram ID уже привязан к другому пользователю",
  unknownCategory: "Неизвестная категория модератора",
  selfDemote: "Вы не можете снять с себя права администратора",
  selfBan: BAN_TEXTS.selfBan,
  banAdmin: BAN_TEXTS.banAdmin,
  selfDelete: "Вы не можете удалить свой аккаунт",
  banWarning: "Пользователь не сможет авторизоваться и загружать треки.",
  demoteQuestion: "Вы собираетесь понизить права администратора. Продолжить?",
  demoteWarning: "Пользователь потеряет доступ к функциям администратора.",
  banQuestion: (username: string) => `Вы собираетесь заблокировать пользователя ${username}. Продолжить?`,
} as const;

/** Spec 2 §6: admin over moderator over user, in badges and in the role filter alike. */
export const ROLES = ["admin", "moderator", "user"] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_FILTERS = ["all", ...ROLES] as const;
export const STATUS_FILTERS = ["all", "active", "banned"] as const;
export const USERS_MAX_PAGE_SIZE = 100;

export function displayRole(user: { is_admin: boolean; is_moderator: boolean }): Role {
  return user.is_admin ? "admin" : user.is_moderator ? "moderator" : "user";
}

export function usernameProblem(value: string): string | null {
  const s = value.trim();
  if (!s) return USER_TEXTS.usernameRequired;
  if (s.length > USERNAME_MAX_LENGTH) return USER_TEXTS.usernameTooLong;
  return hiddenCharsProblem(s);
}

/** An empty e-mail is allowed (the field is optional). */
export function emailProblem(value: string): string | null {
  const s = value.trim();
  if (s === "") return null;
  return s.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(s) ? null : USER_TEXTS.badEmail;
}

/** What a moderator's categories are stored as: `*`, or the codes joined by commas. */
export function formatCategories(categories: "*" | readonly Direction[]): string {
  return categories === "*" ? "*" : categories.join(",");
}

/**
 * The rule the flags of a saved user must keep, or null when they keep it. `self`: the admin edits
 * their own account. `adminChosen`: this very change makes the user an admin, which clears a ban
 * (spec 2 §4) instead of being refused; the form clears the box itself, so it never sets it.
 */
export function userFlagsProblem(
  f: { self: boolean; admin: boolean; banned: boolean; adminChosen?: boolean },
): string | null {
  if (f.self && !f.admin) return USER_TEXTS.selfDemote;
  if (!f.banned) return null;
  if (f.self) return USER_TEXTS.selfBan;
  if (f.admin && !f.adminChosen) return USER_TEXTS.banAdmin;
  return null;
}

// ---------------------------------------------------------------------------------------------
// The request schemas of /api/admin/users. Only functions here, nothing built at load time: a zod
// call at module level would keep zod in every client bundle that imports a rule above.

/**
 * Optional text (spec 2 §5: empty optional values are sent as null): trimmed, empty is null. Every
 * one is shown to staff, so none may hold characters that hide or turn text around (issue 20).
 */
const optional = (problem: (trimmed: string) => string | null, kind?: TextKind) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v?.trim() ?? "";
      if (s === "") return null;
      const found = problem(s) ?? hiddenCharsProblem(s, kind);
      if (found) {
        ctx.addIssue({ code: "custom", message: found });
        return z.NEVER;
      }
      return s;
    });

const longerThan = (max: number, message: string) => (s: string) => (s.length > max ? message : null);

const externalId = (message: string) =>
  z
    .union([z.string().max(64), z.number().int().nonnegative(), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v === null ? "" : String(v).trim();
      if (s === "") return null;
      if (!EXTERNAL_ID_PATTERN.test(s)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return s;
    });

const flag = () => z.union([z.boolean(), z.enum(["true", "false"])]).transform((v) => v === true || v === "true");

/** `*` wins over any list; unknown codes are refused; repeats are dropped, the order is kept. */
const categories = () =>
  z.union([z.string().max(500), z.array(z.string().max(50)).max(20), z.null()]).transform((v, ctx) => {
    const list = (Array.isArray(v) ? v : (v ?? "").split(",")).map((s) => s.trim()).filter(Boolean);
    if (list.includes("*")) return "*";
    if (list.some((s) => !isDirection(s))) {
      ctx.addIssue({ code: "custom", message: USER_TEXTS.unknownCategory });
      return z.NEVER;
    }
    return [...new Set(list)].join(",");
  });

/** `today()` is `YYYY-MM-DD` on the server's clock, read at each request. */
export function adminUserSchemas(today: () => string) {
  const fields = {
    username: z
      .string({ message: USER_TEXTS.usernameRequired })
      .transform((v) => v.trim())
      .check((ctx) => {
        const found = usernameProblem(ctx.value);
        if (found) ctx.issues.push({ code: "custom", message: found, input: ctx.value });
      }),
    email: optional(emailProblem),
    first_name: optional((s) => (nameTooLong(s) ? PROFILE_TEXTS.firstNameTooLong : null)),
    last_name: optional((s) => (nameTooLong(s) ? PROFILE_TEXTS.lastNameTooLong : null)),
    city: optional((s) => (nameTooLong(s) ? PROFILE_TEXTS.cityTooLong : null)),
    bio: multiline(optional((s) => (bioTooLong(s) ? PROFILE_TEXTS.bioTooLong : null), { multiline: true })),
    phone_number: optional(longerThan(PHONE_MAX_LENGTH, USER_TEXTS.phoneTooLong)),
    telegram_hash: optional(longerThan(TELEGRAM_HASH_MAX_LENGTH, USER_TEXTS.telegramHashTooLong)),
    ban_reason: optional(longerThan(BAN_REASON_MAX_LENGTH, BAN_TEXTS.reasonTooLong)),
    vk_id: externalId(USER_TEXTS.badVkId),
    telegram_id: externalId(USER_TEXTS.badTelegramId),
    birth_date: optional((s) => birthDateProblem(s, today())),
    favorite_dnb_genre: optional((s) => (isGenre(s) ? null : PROFILE_TEXTS.badGenre)),
    is_admin: flag().optional(),
    is_moderator: flag().optional(),
    is_banned: flag().optional(),
    moderator_categories: categories().optional(),
  };
  return {
    create: z.object(fields),
    update: z.object({ ...fields, username: fields.username.optional() }),
    list: z.object({
      search: z.string().max(200, "Слишком длинный поисковый запрос").optional(),
      status: z.enum([...STATUS_FILTERS, ""], { message: "Некорректный фильтр статуса" }).optional(),
      role: z.enum([...ROLE_FILTERS, ""], { message: "Некорректный фильтр роли" }).optional(),
      page: z.string().regex(/^\d{1,9}$/, "Некорректный номер страницы").optional(),
      page_size: z.string().regex(/^\d{1,3}$/, "Некорректный размер страницы").optional()
        .refine(
          (v) => v === undefined || (+v >= 1 && +v <= USERS_MAX_PAGE_SIZE),
          `Размер страницы: от 1 до ${USERS_MAX_PAGE_SIZE}`,
        ),
    }),
    ban: z.object({ reason: optional(longerThan(BAN_REASON_MAX_LENGTH, BAN_TEXTS.reasonTooLong)) }),
  };
}

export type AdminUserSchemas = ReturnType<typeof adminUserSchemas>;
export type AdminUserPatch = z.output<AdminUserSchemas["update"]>;

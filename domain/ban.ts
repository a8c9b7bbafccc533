/**
 * Bans (spec 1 §8 "Ban", spec 2 §4 "User"): what a banned person is told, which server messages mean
 * a ban, and who may be banned. The server's guards and admin user routes and the client's ban modal,
 * user form and user list all read these, so the text and the rule cannot drift apart.
 */

export const DEFAULT_BAN_MESSAGE = "Ваш аккаунт заблокирован за нарушение правил сервиса";
export const BAN_REASON_MAX_LENGTH = 500;

export const BAN_TEXTS = {
  selfBan: "Вы не можете заблокировать себя",
  banAdmin: "Нельзя заблокировать администратора",
  reasonTooLong: `Причина блокировки: не более ${BAN_REASON_MAX_LENGTH} символов`,
} as const;

/** The admin's reason when one was given, else the default text. */
export function banMessage(reason: string | null | undefined): string {
  return reason?.trim() || DEFAULT_BAN_MESSAGE;
}

/** Spec 1 §8: a server message containing заблокирован, banned or block means the account is banned. */
export function isBanMessage(text: string | null | undefined): boolean {
  return /заблокирован|banned|block/i.test(text ?? "");
}

/**
 * Why the target may not be banned, or null when they may: nobody bans themself, and administrators
 * cannot be banned. Self comes first because that is the answer the person can do nothing about.
 */
export function banRefusal(target: { self: boolean; admin: boolean }): string | null {
  if (target.self) return BAN_TEXTS.selfBan;
  if (target.admin) return BAN_TEXTS.banAdmin;
  return null;
}

/**
 * Bans (spec 1 §8 "Ban", spec 2 §4 "User"): what a banned person is told, which server messages mean
 * a ban, and who may be banned. The server's guards and admin user routes and the client's ban modal,
 * user form and user list all read these, so the text and the rule cannot drift apart. Who may be
 * banned, and the reason's limit, are in ban-rules.ts, out of the public pages (decision 0432).
 */

export const DEFAULT_BAN_MESSAGE = "Ваш аккаунт заблокирован за нарушение правил сервиса";

/** The admin's reason when one was given, else the default text. */
export function banMessage(reason: string | null | undefined): string {
  return reason?.trim() || DEFAULT_BAN_MESSAGE;
}

/** Spec 1 §8: a server message containing заблокирован, banned or block means the account is banned. */
export function isBanMessage(text: string | null | undefined): boolean {
  return /заблокирован|banned|block/i.test(text ?? "");
}

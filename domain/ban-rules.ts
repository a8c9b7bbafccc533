/**
 * Who may be banned and how long the admin's reason may be (spec 2 §4 "User"): the server's admin
 * user routes, the user form and the user list. Apart from ban.ts, which the public pages import, so
 * that they do not carry these (decision 0432).
 */

export const BAN_REASON_MAX_LENGTH = 500;

export const BAN_TEXTS = {
  selfBan: "Вы не можете заблокировать себя",
  banAdmin: "Нельзя заблокировать администратора",
  reasonTooLong: `Причина блокировки: не более ${BAN_REASON_MAX_LENGTH} символов`,
} as const;

/**
 * Why the target may not be banned, or null when they may: nobody bans themself, and administrators
 * cannot be banned. Self comes first because that is the answer the person can do nothing about.
 */
export function banRefusal(target: { self: boolean; admin: boolean }): string | null {
  if (target.self) return BAN_TEXTS.selfBan;
  if (target.admin) return BAN_TEXTS.banAdmin;
  return null;
}

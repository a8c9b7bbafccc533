import { PROFILE_TEXTS as FIELD_TEXTS } from "../../../domain/profile.ts";
import type { User } from "../../lib/auth.ts";

/**
 * The profile screens' helpers. The form's rules themselves (avatar, biography, the other fields)
 * and their texts are in domain/profile.ts, which the server checks the same form with.
 */
export const PROFILE_SAVED_BANNER_MS = 3000;

export const PROFILE_TEXTS = {
  ...FIELD_TEXTS,
  updateFailed: "Failed to update profile",
  updateError: "Error updating profile",
  loadFailed: "Failed to load profile data",
  linkFailed: "Failed to link accounts",
  linkError: "Error linking accounts",
  linkPending: "Номер сохранён: войдите через ВКонтакте, чтобы завершить привязку.",
  telegramLinked: "Telegram успешно привязан к вашему аккаунту",
  telegramUnavailable: "Вход через Telegram не настроен",
  vkLinked: "ВКонтакте успешно привязан к вашему аккаунту",
  vkUnavailable: "Вход через ВКонтакте не настроен",
  tracksFailed: "Не удалось загрузить треки",
  downloaded: "Загружен",
  processing: "В обработке",
  emptyHint: "Поддерживается формат MP3 с битрейтом 320 kbps.",
  /** Issue 31: the phone folds the card's details so «Мои треки» starts on the first screen (decision 0288). */
  showDetails: "Данные профиля",
  hideDetails: "Скрыть данные",
} as const;

/** Two letters for the avatar placeholder: first and last name, else the start of the username. */
export function initials(user: Pick<User, "first_name" | "last_name" | "username">): string {
  const first = [...(user.first_name?.trim() ?? "")][0] ?? "";
  const last = [...(user.last_name?.trim() ?? "")][0] ?? "";
  const fromName = `${first}${last}`;
  if (fromName) return fromName.toUpperCase();
  return [...(user.username ?? "").replace(/^@/, "")].slice(0, 2).join("").toUpperCase() || "?";
}

export function fullName(user: Pick<User, "first_name" | "last_name" | "username">): string {
  return [user.first_name, user.last_name].map((s) => s?.trim()).filter(Boolean).join(" ") || user.username;
}

/** "1990-05-17" → "17.05.1990"; a calendar date, so no time zone may shift it. */
export function formatBirthDate(value: string | null | undefined): string | null {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return m ? `${m[3]}.${m[2]}.${m[1]}` : null;
}

/** Today as YYYY-MM-DD in the visitor's own calendar (the date input's `max`). */
export function todayIso(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

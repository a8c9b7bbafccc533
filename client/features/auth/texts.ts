/** Every sign-in text of spec 1 §2 and §8, in one place (copied exactly). */
export const AUTH_TEXTS = {
  loginTitle: "Вход в систему",
  telegramButton: "Войти через Telegram",
  vkButton: "Войти через ВКонтакте",
  connecting: "Подключение...",
  dialogTitle: "Войдите, чтобы загрузить трек",
  dialogText: "Чтобы отправить трек на лейбл, войдите через Telegram или ВКонтакте.",
  termsPrefix: "Продолжая, вы принимаете",
  termsLink: "условия использования",
  processing: "Выполняется вход...",
  success: "Вы успешно вошли в систему! Сейчас вы будете перенаправлены на главную.",
  home: "На главную",
  providerUnavailable: "Этот способ входа сейчас недоступен",
  noProviders: "Вход через Telegram и ВКонтакте на этом сервере не настроен.",

  urlError: "Ошибка при получении URL для авторизации",
  telegramError: "Ошибка при авторизации через Telegram",
  vkErrorShort: "Ошибка при авторизации через VK",
  vkError: "Ошибка при авторизации через ВКонтакте",
  startError: "Не удалось начать процесс авторизации. Попробуйте перезагрузить страницу.",
  startErrorFlash: "Не удалось начать процесс авторизации",
  initError: "Ошибка при инициализации авторизации",
  optionsError: "Не удалось получить варианты входа",
  telegramLoginError: "Не удалось войти через Telegram",
  processError: "Ошибка при обработке авторизации",

  userDataError: "Ошибка при получении данных пользователя",
  telegramDataMissing: "Данные авторизации Telegram не найдены",
  unknownProvider: "Неизвестный провайдер авторизации",
  missingData: "Отсутствуют необходимые данные для авторизации. Пожалуйста, попробуйте снова.",
  vkProviderError: "Ошибка ВКонтакте",
  /** A provider's answer this browser did not ask for (or too late); the server's wording too. */
  sessionInvalid: "Сессия авторизации истекла или недействительна. Попробуйте войти снова.",

  /** A sign-in address for another account in a signed-in browser (decision 0202). */
  switchQuestion: (current: string, next: string) => `Вы вошли как @${current}. Войти как @${next}?`,
  switchText: "Ссылка для входа открыта в браузере, где уже выполнен вход в другой аккаунт.",
  switchYes: (next: string) => `Войти как @${next}`,
  switchStay: "Остаться",
  loginCodeError: "Не удалось завершить вход через ВКонтакте",

  banTitle: "Аккаунт заблокирован",
  banOk: "Понятно",
} as const;

/** Ban modal auto-close (spec 1 §9). */
export const BAN_MODAL_MS = 5000;
/** Callback page: success → home (spec 1 §9). */
export const CALLBACK_REDIRECT_MS = 1500;
/** Account re-check (spec 1 §9). */
export const ACCOUNT_CHECK_MS = 5 * 60_000;

/** "Text: detail" when there is a detail worth showing. */
export function withDetail(text: string, detail?: string | null): string {
  const d = detail?.trim();
  return d && d !== text ? `${text}: ${d}` : text;
}

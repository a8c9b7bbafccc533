/** The Mini App's texts (issue 36): everything the artist reads there is Russian. */
export const MINI_APP_TEXTS = {
  title: "Нейропанк",
  signingIn: "Входим через Telegram…",
  notInTelegram: "Откройте это приложение из бота Нейропанка в Telegram.",
  signInFailed: "Не удалось войти через Telegram",
  retry: "Попробовать снова",
  tabs: "Разделы",
  myTracks: "Мои треки",
  send: "Отправить трек",
  back: "Назад",
  writeAccessTitle: "Ответы лейбла в Telegram",
  writeAccessText: "Разрешите боту писать вам — решения по трекам придут сообщением.",
  writeAccessButton: "Разрешить сообщения",
  writeAccessRefused: "Без разрешения бот не сможет написать вам. Можно разрешить позже.",
} as const;

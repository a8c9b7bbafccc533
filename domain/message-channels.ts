/**
 * Where an artist's answers go (issue 36): Telegram, the label's VK community, or both. The
 * server's validators and the profile's form read the same names and texts.
 */
export const MESSAGE_CHANNELS = ["telegram", "vk"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const CHANNEL_LABELS: Record<MessageChannel, string> = {
  telegram: "Telegram",
  vk: "ВКонтакте",
};

/** The Russian texts of the VK messages' calls and of the profile's part about them. */
export const VK_MESSAGES_TEXTS = {
  badChannels: "Укажите каналы: telegram, vk",
  noChannel: "Выберите хотя бы один канал",
  vkOff: "Сообщения ВКонтакте не настроены",
  badEvent: "Некорректное событие Callback API",
  badSecret: "Неверный секрет Callback API",
  heading: "Куда присылать ответы",
  allowButton: "Получать ответы ВКонтакте",
  allowedNote: "ВКонтакте: сообщество может писать вам",
  notAllowedNote: "ВКонтакте: разрешите сообществу писать вам, чтобы получать ответы там",
  refresh: "Я разрешил — проверить",
  save: "Сохранить",
  saved: "Сохранено",
  saveFailed: "Не удалось сохранить, попробуйте ещё раз",
  noTelegram: "Telegram не привязан",
  defaultNote: "Ответы приходят в выбранные каналы, а если они недоступны — туда, где вы можете их получить.",
} as const;

/**
 * VK's allow-messages window for a community (the page VK's AllowMessagesFromCommunity widget
 * shows): pressing «Разрешить» there makes VK send the Callback API's `message_allow` with `key`.
 */
export function vkAllowMessagesUrl(groupId: number, key: string): string {
  const q = new URLSearchParams({ group_id: String(groupId), key });
  return `https://vk.com/widget_allow_messages_from_community.php?${q}`;
}

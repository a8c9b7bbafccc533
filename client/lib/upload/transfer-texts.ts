/**
 * What every file transfer says when the connection or the server lets it down, and how long one
 * request may take: the upload page's and the release page's (issue 34) uploads share them.
 */
export const UPLOAD_TIMEOUT_MS = 600_000;

export const TRANSFER_TEXTS = {
  timeout: "Превышено время ожидания. Попробуйте загрузить файлы по частям.",
  unknownAnswer: "Неизвестный ответ от сервера.",
  failed: "Ошибка загрузки треков. Пожалуйста, попробуйте позже.",
} as const;

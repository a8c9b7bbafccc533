/** The release page's file items (issue 34): Russian, for the artist. */
export const RELEASE_FILES_TEXTS = {
  title: "Файлы",
  hint:
    "WAV (16 или 24 бит, 32 бит с плавающей точкой), FLAC или AIFF, 44,1 или 48 кГц. После загрузки файл проверяется: это может занять пару минут.",
  required: "обязательно",
  optional: "по желанию",
  upload: "Загрузить файл",
  replace: "Заменить файл",
  uploading: "Загрузка…",
  states: {
    missing: "Не загружен",
    checking: "Проверяется…",
    accepted: "Принят",
    refused: "Не принят",
  },
  progress: (label: string) => `Загрузка: ${label}`,
  pick: (label: string) => `Выбрать файл: ${label}`,
  expired: "Сессия истекла: войдите снова и загрузите файл ещё раз.",
} as const;

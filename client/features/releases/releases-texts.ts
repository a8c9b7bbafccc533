import { RELEASE_STAGE_LABELS } from "../../../domain/releases.ts";

/**
 * The artist's release pages' texts (issue 34, Russian) and the label copy form's Russian texts (the
 * artist's page and the admin's). The staff pages' texts are in staff-texts.ts, so the artist's
 * chunk carries none of them.
 */
/** The artist's pages (Russian). */
export const ARTIST_RELEASE_TEXTS = {
  title: "Мои релизы",
  none: "Релизов пока нет: здесь появятся треки, принятые на лейбл.",
  loading: "Загружаем релизы…",
  loadFailed: "Не удалось загрузить релизы",
  back: "← Все релизы",
  checklist: "Что нужно для релиза",
  required: "обязательно",
  optional: "по желанию",
  done: "готово",
  missing: "нужно",
  refused: "не принято",
  stage: "Стадия",
  date: "Дата выхода",
  catalogue: "Номер",
  complete: "Всё получено — лейбл готовит релиз.",
  labelCopy: "Данные релиза (label copy)",
  samples: "Сэмплы",
  stages: RELEASE_STAGE_LABELS,
  open: "Открыть",
} as const;

/** The label copy form (Russian on the artist's page and the admin's, English on the moderator's). */
export const LABEL_COPY_FORM_RU = {
  title: "Название",
  version: "Версия (например Original Mix)",
  artists: "Артисты (через запятую)",
  featuring: "Featuring (через запятую)",
  remixers: "Ремиксеры (через запятую)",
  authors: "Авторы и их доли, %",
  authorName: "Имя автора",
  role: "Роль",
  roles: { music: "музыка", lyrics: "текст", both: "музыка и текст" },
  share: "Доля, %",
  addAuthor: "+ Автор",
  removeAuthor: "Убрать",
  total: (n: number) => `Сумма долей: ${n}%`,
  samplesUsed: "В треке есть чужие сэмплы",
  samplesCleared: "Сэмплы разрешены правообладателями",
  samplesDetails: "Какие сэмплы и откуда",
  isrc: "ISRC (если есть): CC-XXX-YY-NNNNN",
  save: "Сохранить данные релиза",
  saving: "Сохраняем…",
  saved: "Данные релиза сохранены",
  failed: "Не удалось сохранить",
};

export type LabelCopyFormTexts = typeof LABEL_COPY_FORM_RU;

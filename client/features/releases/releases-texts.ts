import { RELEASE_STAGE_LABELS, RELEASE_STAGE_LABELS_EN, type ReleaseStage } from "../../../domain/releases.ts";

/**
 * The release desk's texts (issue 34): the staff pages in Russian for the admin's panel and in
 * English for the moderator's, and the artist's pages (Russian).
 */
export interface StaffReleaseTexts {
  title: string;
  list: string;
  waiting: string;
  calendar: string;
  allLabels: string;
  allStages: string;
  label: string;
  stage: string;
  from: string;
  to: string;
  artist: string;
  release: string;
  catalogue: string;
  date: string;
  waited: (days: number) => string;
  nothing: string;
  nothingWaiting: string;
  loading: string;
  loadFailed: string;
  open: string;
  back: string;
  exportCsv: string;
  labelCopyCsv: string;
  filesZip: string;
  stages: Record<ReleaseStage, string>;
  moveTo: string;
  takeNumber: (n: string) => string;
  save: string;
  saved: string;
  saveFailed: string;
  note: string;
  titleField: string;
  version: string;
  materials: string;
  history: string;
  labelCopy: string;
  noLabelCopy: string;
  prevMonth: string;
  nextMonth: string;
  weekdays: string[];
  noReleasesThisMonth: string;
  kinds: Record<string, string>;
  states: Record<string, string>;
  by: (who: string | null) => string;
  actions: Record<string, string>;
}

export const STAFF_RELEASE_TEXTS_RU: StaffReleaseTexts = {
  title: "Релизы",
  list: "Все релизы",
  waiting: "Ждут материалы",
  calendar: "Календарь",
  allLabels: "Все лейблы",
  allStages: "Все стадии",
  label: "Лейбл",
  stage: "Стадия",
  from: "С даты",
  to: "По дату",
  artist: "Артист",
  release: "Релиз",
  catalogue: "Номер по каталогу",
  date: "Дата выхода",
  waited: (d) => `ждёт ${d} дн.`,
  nothing: "Релизов нет",
  nothingWaiting: "Никто не ждёт материалов",
  loading: "Загрузка...",
  loadFailed: "Не удалось загрузить релизы",
  open: "Открыть",
  back: "← К релизам",
  exportCsv: "Экспорт CSV",
  labelCopyCsv: "Label copy (CSV)",
  filesZip: "Файлы (ZIP)",
  stages: RELEASE_STAGE_LABELS,
  moveTo: "Перевести в",
  takeNumber: (n) => `Взять ${n}`,
  save: "Сохранить",
  saved: "Сохранено",
  saveFailed: "Не удалось сохранить",
  note: "Заметка (видна только команде)",
  titleField: "Название",
  version: "Версия",
  materials: "Материалы",
  history: "История",
  labelCopy: "Label copy",
  noLabelCopy: "Артист ещё не заполнил данные релиза",
  prevMonth: "← Предыдущий",
  nextMonth: "Следующий →",
  weekdays: ["Пн", "Вт", "Ср", "Чт", "Пт", "Сб", "Вс"],
  noReleasesThisMonth: "В этом месяце релизов нет",
  kinds: {
    master: "Мастер",
    extended: "Extended mix",
    instrumental: "Инструментал",
    label_copy: "Данные релиза",
    sample_clearance: "Сэмплы",
  },
  states: { missing: "нет", checking: "проверяется", accepted: "принят", refused: "отклонён" },
  by: (who) => (who ? `@${who}` : "система"),
  actions: {
    created: "создан при принятии",
    cancelled: "отменён",
    reopened: "открыт снова",
    uncancelled: "отмена снята",
    edit: "изменён",
    label_copy: "данные релиза",
    materials_complete: "материалы получены",
    released: "вышел",
  },
};

export const STAFF_RELEASE_TEXTS_EN: StaffReleaseTexts = {
  title: "Releases",
  list: "All releases",
  waiting: "Waiting for materials",
  calendar: "Calendar",
  allLabels: "All labels",
  allStages: "All stages",
  label: "Label",
  stage: "Stage",
  from: "From",
  to: "To",
  artist: "Artist",
  release: "Release",
  catalogue: "Catalogue number",
  date: "Release date",
  waited: (d) => `waiting ${d} ${d === 1 ? "day" : "days"}`,
  nothing: "No releases",
  nothingWaiting: "Nothing is waiting for materials",
  loading: "Loading...",
  loadFailed: "Failed to load releases",
  open: "Open",
  back: "← Back to releases",
  exportCsv: "Export CSV",
  labelCopyCsv: "Label copy (CSV)",
  filesZip: "Files (ZIP)",
  stages: RELEASE_STAGE_LABELS_EN,
  moveTo: "Move to",
  takeNumber: (n) => `Take ${n}`,
  save: "Save",
  saved: "Saved",
  saveFailed: "Failed to save",
  note: "Note (staff only)",
  titleField: "Title",
  version: "Version",
  materials: "Materials",
  history: "History",
  labelCopy: "Label copy",
  noLabelCopy: "The artist has not filled in the label copy yet",
  prevMonth: "← Previous",
  nextMonth: "Next →",
  weekdays: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
  noReleasesThisMonth: "No releases this month",
  kinds: {
    master: "Master",
    extended: "Extended mix",
    instrumental: "Instrumental",
    label_copy: "Label copy",
    sample_clearance: "Sample clearance",
  },
  states: { missing: "missing", checking: "checking", accepted: "accepted", refused: "refused" },
  by: (who) => (who ? `@${who}` : "system"),
  actions: {
    created: "created on accept",
    cancelled: "cancelled",
    reopened: "reopened",
    uncancelled: "cancel undone",
    edit: "edited",
    label_copy: "label copy",
    materials_complete: "materials complete",
    released: "released",
  },
};

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

export const LABEL_COPY_FORM_EN: typeof LABEL_COPY_FORM_RU = {
  title: "Title",
  version: "Version (e.g. Original Mix)",
  artists: "Artists (comma separated)",
  featuring: "Featuring (comma separated)",
  remixers: "Remixers (comma separated)",
  authors: "Authors and their shares, %",
  authorName: "Author name",
  role: "Role",
  roles: { music: "music", lyrics: "lyrics", both: "music and lyrics" },
  share: "Share, %",
  addAuthor: "+ Author",
  removeAuthor: "Remove",
  total: (n: number) => `Shares total: ${n}%`,
  samplesUsed: "The track uses samples",
  samplesCleared: "The samples are cleared",
  samplesDetails: "Which samples, from where",
  isrc: "ISRC (if any): CC-XXX-YY-NNNNN",
  save: "Save label copy",
  saving: "Saving…",
  saved: "Label copy saved",
  failed: "Failed to save",
};

export type LabelCopyFormTexts = typeof LABEL_COPY_FORM_RU;

import { RELEASE_STAGE_LABELS, type ReleaseStage } from "../../../domain/releases.ts";
import type { LabelCopyFormTexts } from "./releases-texts.ts";

/**
 * The release desk's staff texts (issue 34): Russian for the admin's panel, English for the
 * moderator's; the label copy form's English texts (the moderator's). Apart from releases-texts.ts
 * (the artist's) so the artist's pages carry none of them.
 */
/** The stages' English names for the moderator's screens (here, not in domain/releases.ts, which the artist's pages load). */
export const RELEASE_STAGE_LABELS_EN: Record<ReleaseStage, string> = {
  materials_requested: "Waiting for materials",
  materials_received: "Materials received",
  scheduled: "Scheduled",
  released: "Released",
  cancelled: "Cancelled",
};

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

export const LABEL_COPY_FORM_EN: LabelCopyFormTexts = {
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

import type { Direction } from "../../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS, MODERATOR_CATEGORY_LABELS } from "../../../domain/staff-directions.ts";
import type { KeyRelation } from "../../../domain/running-order.ts";

/**
 * The episode desk's words (issue 35): Russian in the admin panel, English in the moderator's, like
 * the rest of each panel. The artist's and the public page's texts are Russian and live elsewhere
 * (domain/episodes.ts, show-texts.ts).
 */
export interface EpisodeTexts {
  lang: "ru" | "en";
  direction: (d: Direction) => string;
  title: string;
  listTitle: string;
  show: string;
  loading: string;
  loadFailed: string;
  none: string;
  number: string;
  episodeTitle: string;
  airDate: string;
  create: string;
  creating: string;
  open: string;
  aired: string;
  notAired: string;
  tracks: (n: number) => string;
  back: string;
  order: string;
  orderHelp: string;
  orderEmpty: string;
  pool: string;
  poolHelp: string;
  poolEmpty: string;
  add: string;
  remove: string;
  up: string;
  down: string;
  relation: Record<KeyRelation, string>;
  clashes: (n: number) => string;
  maxStep: (pct: number) => string;
  suggest: string;
  suggesting: string;
  startWith: string;
  current: string;
  suggested: string;
  take: string;
  dismiss: string;
  exports: string;
  tracklistTxt: string;
  tracklistCsv: string;
  filesZip: string;
  airedTitle: string;
  airedAt: string;
  url: string;
  cue: string;
  cueHint: string;
  badCue: string;
  markAired: string;
  saveAired: string;
  saving: string;
  airedDone: (when: string) => string;
  airedLocked: string;
  notices: string;
  notice: (filename: string, reason: string) => string;
  deleteEpisode: string;
  deleteConfirm: string;
  saveFailed: string;
  bpm: string;
  key: string;
  drop: string;
}

const KEY_RU: Record<KeyRelation, string> = {
  same: "та же тональность",
  "+1": "+1 по кругу",
  "-1": "−1 по кругу",
  relative: "параллельная",
  clash: "конфликт",
  unknown: "тональность неизвестна",
};
const KEY_EN: Record<KeyRelation, string> = {
  same: "same key",
  "+1": "+1 on the wheel",
  "-1": "−1 on the wheel",
  relative: "relative",
  clash: "clash",
  unknown: "key unknown",
};

const pct = (n: number) => `${n.toLocaleString("en-US", { maximumFractionDigits: 1 })} %`;

export const EPISODE_TEXTS_RU: EpisodeTexts = {
  lang: "ru",
  direction: (d) => ADMIN_DIRECTION_LABELS[d],
  title: "Выпуск",
  listTitle: "Выпуски",
  show: "Передача",
  loading: "Загрузка...",
  loadFailed: "Не удалось загрузить",
  none: "Выпусков пока нет",
  number: "Номер",
  episodeTitle: "Название",
  airDate: "Дата эфира",
  create: "Создать выпуск",
  creating: "Создаём...",
  open: "Открыть",
  aired: "В эфире",
  notAired: "Готовится",
  tracks: (n) => `треков: ${n}`,
  back: "← Все выпуски",
  order: "Порядок в эфире",
  orderHelp: "↑/↓ — переставить трек, Delete — вернуть в пул, перетаскивание мышью тоже работает.",
  orderEmpty: "В выпуске пока нет треков: добавьте их из пула.",
  pool: "Пул",
  poolHelp: "Принятые треки передачи, ещё не стоящие в выпуске, по дате принятия. ↑/↓ — выбор, Enter — добавить.",
  poolEmpty: "Пул пуст",
  add: "Добавить",
  remove: "Убрать",
  up: "Выше",
  down: "Ниже",
  relation: KEY_RU,
  clashes: (n) => `конфликтов: ${n}`,
  maxStep: (n) => `наибольший шаг темпа: ${pct(n)}`,
  suggest: "Предложить порядок",
  suggesting: "Считаем...",
  startWith: "Начать с",
  current: "Сейчас",
  suggested: "Предложение",
  take: "Взять этот порядок",
  dismiss: "Оставить как есть",
  exports: "Для студии",
  tracklistTxt: "Треклист .txt",
  tracklistCsv: "Треклист .csv",
  filesZip: "Файлы .zip",
  airedTitle: "Выпуск вышел",
  airedAt: "Когда вышел",
  url: "Ссылка на выпуск",
  cue: "Время в выпуске",
  cueHint: "мм:сс или ч:мм:сс",
  badCue: "Время — мм:сс или ч:мм:сс",
  markAired: "Отметить как вышедший",
  saveAired: "Сохранить время и ссылку",
  saving: "Сохраняем...",
  airedDone: (when) => `Вышел ${when}. Артисты получили сообщения.`,
  airedLocked:
    "Выпуск вышел: порядок треков больше не меняется; время и ссылку можно поправить (сообщения не повторяются).",
  notices: "Убраны из выпуска",
  notice: (f, r) =>
    `${f}: ${r === "undone" ? "решение отменено" : r === "declined" ? "отклонён" : `статус теперь «${r}»`}`,
  deleteEpisode: "Удалить выпуск",
  deleteConfirm: "Удалить выпуск? Треки вернутся в пул.",
  saveFailed: "Не удалось сохранить",
  bpm: "BPM",
  key: "Тон.",
  drop: "Дроп",
};

export const EPISODE_TEXTS_EN: EpisodeTexts = {
  lang: "en",
  direction: (d) => MODERATOR_CATEGORY_LABELS[d],
  title: "Episode",
  listTitle: "Episodes",
  show: "Show",
  loading: "Loading...",
  loadFailed: "Failed to load",
  none: "No episodes yet",
  number: "Number",
  episodeTitle: "Title",
  airDate: "Air date",
  create: "Create episode",
  creating: "Creating...",
  open: "Open",
  aired: "Aired",
  notAired: "In preparation",
  tracks: (n) => `${n} ${n === 1 ? "track" : "tracks"}`,
  back: "← All episodes",
  order: "Running order",
  orderHelp: "↑/↓ move the track, Delete puts it back in the pool; dragging works too.",
  orderEmpty: "No tracks yet: add them from the pool.",
  pool: "Pool",
  poolHelp: "The show's accepted tracks in no episode yet, oldest accept first. ↑/↓ choose, Enter adds.",
  poolEmpty: "The pool is empty",
  add: "Add",
  remove: "Remove",
  up: "Up",
  down: "Down",
  relation: KEY_EN,
  clashes: (n) => `${n} ${n === 1 ? "clash" : "clashes"}`,
  maxStep: (n) => `largest tempo step ${pct(n)}`,
  suggest: "Suggest order",
  suggesting: "Working...",
  startWith: "Start with",
  current: "Current",
  suggested: "Suggested",
  take: "Take this order",
  dismiss: "Keep mine",
  exports: "For the studio",
  tracklistTxt: "Tracklist .txt",
  tracklistCsv: "Tracklist .csv",
  filesZip: "Files .zip",
  airedTitle: "Aired",
  airedAt: "Aired at",
  url: "Episode link",
  cue: "Cue",
  cueHint: "mm:ss or h:mm:ss",
  badCue: "A cue is mm:ss or h:mm:ss",
  markAired: "Mark as aired",
  saveAired: "Save cues and link",
  saving: "Saving...",
  airedDone: (when) => `Aired ${when}. The artists have been told.`,
  airedLocked:
    "Aired: the running order is fixed; cues and the link may still be corrected (no message is sent again).",
  notices: "Removed from this episode",
  notice: (f, r) => `${f}: ${r === "undone" ? "decision undone" : r === "declined" ? "declined" : `now ${r}`}`,
  deleteEpisode: "Delete episode",
  deleteConfirm: "Delete this episode? Its tracks go back to the pool.",
  saveFailed: "Failed to save",
  bpm: "BPM",
  key: "Key",
  drop: "Drop",
};

/** "34:10" or "1:02:05" → seconds; null for anything else. */
export function parseCue(text: string): number | null {
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const [h, mm, ss] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (ss >= 60 || (m[1] !== undefined && mm >= 60)) return null;
  return h * 3600 + mm * 60 + ss;
}

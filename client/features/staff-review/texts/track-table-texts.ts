/** The words of the staff queue's table and cards, one dictionary per panel (issue 31). */
export interface TrackTableTexts {
  selectAll: string;
  select: (filename: string) => string;
  track: string;
  user: string;
  date: string;
  directions: string;
  status: string;
  actions: string;
  downloaded: string;
  notDownloaded: string;
  processing: string;
  failed: string;
  guest: string;
  unknownUser: string;
  edit: string;
  download: string;
  delete: string;
  empty: string;
  // Issue 12: the audio report's figures (full names for screen readers, short headers), listening.
  duration: string;
  bitrate: string;
  loudness: string;
  bpm: string;
  // Issue 22: the key (Camelot code, the key's name under it) and the drop's time.
  key: string;
  drop: string;
  short: { duration: string; bitrate: string; loudness: string; bpm: string; key: string; drop: string };
  warnings: string;
  /** Issue 24: the votes' score column (decision 0230). */
  votes: string;
  play: (filename: string) => string;
  /** Number formatting of the figures. */
  locale: string;
}

export const TRACK_TABLE_TEXTS_RU: TrackTableTexts = {
  selectAll: "Выбрать все на странице",
  select: (f) => `Выбрать трек ${f}`,
  track: "Трек",
  user: "Пользователь",
  date: "Дата загрузки",
  directions: "Направления",
  status: "Статус",
  actions: "Действия",
  downloaded: "Скачан",
  notDownloaded: "Не скачан",
  processing: "Обработка",
  failed: "Ошибка обработки",
  guest: "гость",
  unknownUser: "—",
  edit: "Изменить",
  download: "Скачать",
  delete: "Удалить",
  empty: "Треки не найдены",
  duration: "Длительность",
  bitrate: "Битрейт",
  loudness: "Громкость",
  bpm: "Темп",
  key: "Тональность",
  drop: "Время дропа",
  short: { duration: "Длина", bitrate: "kbps", loudness: "LUFS", bpm: "BPM", key: "Тон.", drop: "Дроп" },
  warnings: "Предупреждения",
  votes: "Голоса",
  play: (f) => `Слушать: ${f}`,
  locale: "ru-RU",
};

export const TRACK_TABLE_TEXTS_EN: TrackTableTexts = {
  selectAll: "Select all on this page",
  select: (f) => `Select track ${f}`,
  track: "Track",
  user: "User",
  date: "Date uploaded",
  directions: "Directions",
  status: "Status",
  actions: "Actions",
  downloaded: "Downloaded",
  notDownloaded: "Not downloaded",
  processing: "Processing",
  failed: "Failed",
  guest: "guest",
  unknownUser: "Unknown",
  edit: "Edit",
  download: "Download",
  delete: "Delete",
  empty: "No tracks found",
  duration: "Duration",
  bitrate: "Bitrate",
  loudness: "Loudness",
  bpm: "Tempo",
  key: "Musical key",
  drop: "Drop time",
  short: { duration: "Length", bitrate: "kbps", loudness: "LUFS", bpm: "BPM", key: "Key", drop: "Drop" },
  warnings: "Warnings",
  votes: "Votes",
  play: (f) => `Play: ${f}`,
  locale: "en-US",
};

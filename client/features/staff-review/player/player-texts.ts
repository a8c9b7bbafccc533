/**
 * Words of the review player (issue 12 §2): Russian for the admin panel, English for the moderator
 * panel (decision 0051's `texts` pattern). Warning names stay the analysis's Russian texts in both
 * (domain/audio-warnings.ts; decision 0140).
 */
export interface PlayerTexts {
  /** Number formatting of the figures (decimal separator). */
  locale: string;
  region: string;
  idle: string;
  keysHint: string;
  play: (filename: string) => string;
  playPause: string;
  previous: string;
  next: string;
  back5: string;
  /** "с" / "s" on the seek buttons. */
  secondsShort: string;
  forward5: string;
  toDrop: string;
  noDrop: string;
  /** The switch: the next track starts at its drop. */
  fromDrop: string;
  fromDropTitle: string;
  position: string;
  of: string;
  drop: string;
  loading: string;
  nowPlaying: (filename: string) => string;
  paused: (filename: string) => string;
  endOfList: string;
  failed: string;
  noAnalysis: string;
  report: string;
  duration: string;
  bitrate: string;
  loudness: string;
  truePeak: string;
  bpm: string;
  /** The key and its Camelot code (issue 22). */
  key: string;
  warnings: string;
  noWarnings: string;
  sortBy: (column: string) => string;
}

export const PLAYER_TEXTS_RU: PlayerTexts = {
  locale: "ru-RU",
  region: "Плеер",
  idle: "Нажмите «Слушать» в строке трека или Пробел, чтобы начать с первого.",
  keysHint: "Пробел — пауза, J/K — следующий/предыдущий, ←/→ — 5 с, D — дроп",
  play: (f) => `Слушать: ${f}`,
  playPause: "Воспроизведение/пауза",
  previous: "Предыдущий трек",
  next: "Следующий трек",
  back5: "Назад на 5 секунд",
  secondsShort: "с",
  forward5: "Вперёд на 5 секунд",
  toDrop: "К дропу",
  noDrop: "Дроп не найден",
  fromDrop: "С дропа",
  fromDropTitle: "Следующий трек начинается с дропа",
  position: "Позиция воспроизведения",
  of: "из",
  drop: "Дроп",
  loading: "Загрузка…",
  nowPlaying: (f) => `Играет: ${f}`,
  paused: (f) => `Пауза: ${f}`,
  endOfList: "Это последний трек списка",
  failed: "Не удалось воспроизвести трек",
  noAnalysis: "Анализ ещё не готов",
  report: "Технический отчёт",
  duration: "Длительность",
  bitrate: "Битрейт",
  loudness: "Громкость",
  truePeak: "True peak",
  bpm: "BPM",
  key: "Тональность",
  warnings: "Предупреждения",
  noWarnings: "Без предупреждений",
  sortBy: (c) => `Сортировать: ${c}`,
};

export const PLAYER_TEXTS_EN: PlayerTexts = {
  locale: "en-US",
  region: "Player",
  idle: "Press Play on a track row, or Space to start with the first one.",
  keysHint: "Space pause, J/K next/previous, ←/→ 5 s, D drop",
  play: (f) => `Play: ${f}`,
  playPause: "Play/pause",
  previous: "Previous track",
  next: "Next track",
  back5: "Back 5 seconds",
  secondsShort: "s",
  forward5: "Forward 5 seconds",
  toDrop: "Jump to drop",
  noDrop: "No drop found",
  fromDrop: "From drop",
  fromDropTitle: "The next track starts at its drop",
  position: "Playback position",
  of: "of",
  drop: "Drop",
  loading: "Loading…",
  nowPlaying: (f) => `Playing: ${f}`,
  paused: (f) => `Paused: ${f}`,
  endOfList: "This is the last track of the list",
  failed: "Could not play the track",
  noAnalysis: "No analysis yet",
  report: "Technical report",
  duration: "Duration",
  bitrate: "Bitrate",
  loudness: "Loudness",
  truePeak: "True peak",
  bpm: "BPM",
  key: "Key",
  warnings: "Warnings",
  noWarnings: "No warnings",
  sortBy: (c) => `Sort by ${c}`,
};

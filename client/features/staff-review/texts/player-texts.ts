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
  /** Issue 31: the desk's slips and ends (decisions 0275–0279). */
  desk: DeskEndTexts;
}

/** The desk's ends and slips (issue 31): the view done, the next views, a conflict, a held shortlist. */
export interface DeskEndTexts {
  /** Said when the last undecided track of the view is decided: the player stops. */
  queueDone: string;
  /** Before the offered views. */
  nextViews: string;
  /** «Новые» of a direction, with how many wait. */
  newOf: (direction: string, count: number) => string;
  /** «Мне назначено», with how many wait. */
  assignedToMe: (count: number) => string;
  /** No other view has anything waiting. */
  nothingElse: string;
  /** The tracks left with J, offered again on request. */
  backToSkipped: (count: number) => string;
  /** The hold of a decision nobody is told of (a shortlist without a message): Z still takes it back. */
  undoWithin: (filename: string, outcome: string) => string;
  undo: string;
  /** 409: another staff member decided the track meanwhile. */
  conflict: (filename: string) => string;
  /** One pair of the other decision: who, which state, in which direction, when. */
  conflictPair: (who: string, state: string, direction: string, at: string) => string;
  /** Nobody's name stored (the promise's automatic decline). */
  someone: string;
  keepTheirs: string;
  decideAgain: string;
}

/** The moment of another's decision in the panel's format. */
export const deskMoment = (texts: PlayerTexts, iso: string | null) =>
  iso === null ? "" : new Date(iso).toLocaleString(texts.locale, {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });

const DESK_END_TEXTS_RU: DeskEndTexts = {
  queueDone: "Вид разобран: нерешённых треков в нём больше нет. Воспроизведение остановлено.",
  nextViews: "Дальше:",
  newOf: (d, n) => `Новые · ${d} (${n})`,
  assignedToMe: (n) => `Мне назначено (${n})`,
  nothingElse: "Больше ничего не ждёт решения.",
  backToSkipped: (n) => `Вернуться к пропущенным (${n})`,
  undoWithin: (f, o) => `«${f}»: ${o} — отменить можно ещё`,
  undo: "Отменить",
  conflict: (f) => `«${f}»: пока вы слушали, решение уже принял другой сотрудник.`,
  conflictPair: (who, state, d, at) => `${who}: ${state} — ${d}, ${at}`,
  someone: "автоматически",
  keepTheirs: "Оставить их решение",
  decideAgain: "Решить заново",
};

const DESK_END_TEXTS_EN: DeskEndTexts = {
  queueDone: "This view is done: no undecided tracks left. Playback stopped.",
  nextViews: "Next:",
  newOf: (d, n) => `New · ${d} (${n})`,
  assignedToMe: (n) => `Assigned to me (${n})`,
  nothingElse: "Nothing else waits for a decision.",
  backToSkipped: (n) => `Back to skipped (${n})`,
  undoWithin: (f, o) => `“${f}”: ${o} — undo possible for`,
  undo: "Undo",
  conflict: (f) => `“${f}”: while you listened, a colleague decided it.`,
  conflictPair: (who, state, d, at) => `${who}: ${state} — ${d}, ${at}`,
  someone: "automatically",
  keepTheirs: "Keep theirs",
  decideAgain: "Decide again",
};

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
  desk: DESK_END_TEXTS_RU,
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
  desk: DESK_END_TEXTS_EN,
};

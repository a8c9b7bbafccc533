import type { AiUse } from "../../../../domain/ai-use.ts";
import { AI_USE_BADGES } from "../../../../domain/ai-use-desk.ts";
import { AUDIO_WARNING_TEXTS, type AudioWarning } from "../../../../domain/audio-warnings.ts";
import { DIRECTION_CONFLICT_MESSAGE } from "../../../../domain/directions.ts";
import { REVIEW_STATUS_LABELS, REVIEW_TEXTS, type ReviewStatus } from "../../../../domain/review.ts";
import { VOTE_LABELS, VOTE_TEXTS, type VoteValue } from "../../../../domain/votes.ts";
import { COMMENT_TEXTS } from "../../../../domain/track-comments.ts";
import { ASSIGN_TEXTS } from "../../../../domain/assignment.ts";
import { errorText } from "../../../lib/api.ts";
import { formatDuration } from "../../../lib/format.ts";
import type { DeskOutcome } from "../api/desk-queries.ts";

/**
 * The words of the review pieces both panels share (issue 31): the desk's dock, the review states,
 * the votes, the assignment, the edit page's decision panel, the listening list, the duplicate
 * lines, the warnings and the AI badge. Russian for the admin panel, English for the moderator's
 * (spec 2 gives its tracks and FAQ screens in English; decision 0280). A panel's dictionary
 * (panel-texts.ts) holds one of these; the pieces read it through `usePanelTexts()`.
 */
export interface ReviewTexts {
  /** Review states per direction (row badges, the dock, the decision panel, the history). */
  states: Record<ReviewStatus, string>;
  /** Issue 25: a pair past its response promise and still undecided. */
  overdue: string;
  /** The row's badge: whole days the track has waited for the caller. */
  waiting: (days: number) => string;
  warnings: Record<AudioWarning, string>;
  aiUse: Record<AiUse | "none", string>;
  /** A direction box that cannot be ticked beside those already ticked (the edit pages). */
  directionConflict: string;
  desk: DeskTexts;
  votes: VoteTexts;
  work: WorkTexts;
  assign: AssignTexts;
  split: SplitTexts;
  queue: QueueAssignTexts;
  decisions: DecisionPanelTexts;
  listens: ListenTexts;
  duplicate: DuplicateTexts;
  /** The server's refusals in this panel's language, by their text (server texts are Russian). */
  serverErrors: ReadonlyMap<string, string>;
}

export interface DeskTexts {
  outcomes: Record<DeskOutcome, string>;
  /** The outcome after the track's name on the hold line ("accepted"). */
  outcomeDone: Record<DeskOutcome, string>;
  chooserTitles: Record<DeskOutcome, string>;
  /** Each key and what it does (the legend, decision 0226). */
  keys: readonly (readonly [string, string])[];
  decisionGroup: string;
  shortlistWithTemplate: string;
  statesGroup: string;
  outsideCategories: string;
  /** The track's name quoted. */
  quoted: (filename: string) => string;
  /** Before the hold's clock: " — артист узнает через". */
  holdTold: string;
  undo: string;
  /** After a decision whose hold is over: the message has left. */
  sent: string;
  saving: string;
  sheet: string;
  sheetWithVotes: string;
  keysButton: string;
  keysTitle: string;
  close: string;
  noTemplates: string;
  sendWithMine: string;
  sendWithout: string;
  message: string;
  note: string;
  overrides: string;
  sameAsAll: string;
  saveFailed: string;
  undoFailed: string;
}

export interface VoteTexts {
  labels: Record<VoteValue, string>;
  region: string;
  yours: string;
  wordLabel: string;
  wordPlaceholder: string;
  withdraw: string;
  list: string;
  nobody: string;
  hidden: (count: number) => string;
  failed: string;
  /** The list's score badge. */
  scoreHidden: string;
  score: (score: string) => string;
  count: string;
  secondEar: string;
}

export interface WorkTexts {
  assigned: (name: string) => string;
  assignedToYou: string;
  listening: (username: string) => string;
  andMore: (n: number) => string;
}

export interface AssignTexts {
  label: string;
  choose: string;
  nobody: string;
  apply: string;
  busy: string;
  noneEligible: string;
}

export interface SplitTexts {
  open: string;
  title: string;
  direction: string;
  people: string;
  submit: string;
  busy: string;
  cancel: string;
  noPeople: string;
  result: (total: number) => string;
  failed: string;
}

export interface QueueAssignTexts {
  selection: string;
  assignedToMe: string;
  failed: string;
}

export interface DecisionPanelTexts {
  title: string;
  saveFailed: string;
  saved: string;
  declinedWithTemplate: string;
  promised: (date: string) => string;
  readonlyMessage: string;
  outside: string;
  status: string;
  note: string;
  message: string;
  saving: string;
  save: string;
  template: string;
  declineWithTemplate: string;
  noteTooLong: string;
  messageTooLong: string;
  automatic: string;
  history: string;
  noHistory: string;
  when: string;
  who: string;
  direction: string;
  from: string;
  to: string;
}

export interface ListenTexts {
  heading: string;
  nobody: string;
  /** «прослушано 1:20 из 5:10»; without the length while it is unknown. */
  heard: (heard: string, duration: string | null) => string;
}

export interface DuplicateTexts {
  /** A copy of another upload: the track's number, its uploader (or null) and its date (or null once deleted). */
  sameFile: (id: number, username: string | null, date: string | null) => string;
  sameAudio: (id: number, username: string | null, date: string | null) => string;
  /** Issue 38: another version of a track (an instrumental, another mix), by its number. */
  similarVersion: (id: number) => string;
}

/** Every string entry of the server's texts, keyed by the entry's name. */
function stringsOf(texts: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(texts).filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

const SERVER_RU = {
  ...stringsOf(REVIEW_TEXTS),
  ...prefixed("vote.", stringsOf(VOTE_TEXTS)),
  ...prefixed("comment.", stringsOf(COMMENT_TEXTS)),
  ...prefixed("assign.", stringsOf(ASSIGN_TEXTS)),
};

function prefixed(prefix: string, texts: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(texts).map(([k, v]) => [prefix + k, v]));
}

/** The English of the review and vote refusals a moderator can meet (by the server's key). */
const SERVER_EN: Partial<Record<keyof typeof SERVER_RU, string>> = {
  unknownStatus: "Unknown decision status",
  unknownReviewFilter: "Unknown review state",
  noteTooLong: "The note must not exceed 1000 characters",
  messageTooLong: "The message to the artist must not exceed 1000 characters",
  notTrackDirection: "The track has no such direction",
  outsideCategories: "This direction is outside your categories",
  messageAndTemplate: "Give either a message to the artist or a template",
  templateOnlyForDecline: "A template goes only with a decision: accept, shortlist or decline",
  templateOtherOutcome: "This template belongs to another decision",
  templateNotFound: "Template not found",
  trackDecisionStatus: "Decision: accepted, shortlisted or declined",
  badRevisions: "Invalid decision revisions",
  badOverrides: "Invalid per-direction decisions",
  nothingInScope: "The track has no directions in your categories",
  nothingToUndo: "Nothing to undo: you have no decision on this track",
  alreadyTold: "Too late to undo: the artist has been told",
  decisionChanged: "The decision has changed meanwhile. The current decision is shown: check it and save again",
  badRevision: "Invalid decision revision",
  badHistoryPage: "Invalid page number",
  badHistoryPageSize: "Page size: 1 to 100",
  "vote.badVote": "Vote: 1, 0 or -1",
  "vote.wordTooLong": "The word must not exceed 100 characters",
  "vote.outsideCategories": "You can vote only in the directions of your categories",
  "comment.textRequired": "Type the comment's text",
  "comment.textTooLong": "The comment must not exceed 1000 characters",
  "comment.badAt": "The comment's moment is a number of seconds from 0",
  "comment.badEnd": "The range must end after it starts",
  "comment.beyondTrack": "The comment's moment is beyond the track",
  "comment.nothingToChange": "Nothing to change",
  "comment.notFound": "Comment not found",
  "comment.notAuthor": "Only its author or an administrator may change or delete a comment",
  "assign.userNotFound": "No staff member with this ID",
  "assign.notStaff": "Only an administrator or a moderator can be assigned",
  "assign.notTrackDirection": "The track has no such direction",
  "assign.outsideCategories": "This direction is outside your categories",
  "assign.nothingToAssign": "Everything in your categories is decided on this track: nothing to assign",
  "assign.noTracks": "No tracks chosen to assign",
  "assign.noPeople": "Choose at least one staff member",
};

const translations = (en: Partial<Record<string, string>>) =>
  new Map(Object.entries(en).flatMap(([k, v]) => (v && SERVER_RU[k] ? [[SERVER_RU[k], v] as const] : [])));

export const REVIEW_TEXTS_RU: ReviewTexts = {
  states: REVIEW_STATUS_LABELS,
  overdue: "Просрочен",
  waiting: (d) => `Ждёт ${d} дн.`,
  warnings: AUDIO_WARNING_TEXTS,
  aiUse: AI_USE_BADGES,
  directionConflict: DIRECTION_CONFLICT_MESSAGE,
  desk: {
    outcomes: { accepted: "Принять", shortlisted: "В шорт-лист", declined: "Отклонить" },
    outcomeDone: { accepted: "принять", shortlisted: "в шорт-лист", declined: "отклонить" },
    chooserTitles: {
      accepted: "Принять: готовое сообщение",
      shortlisted: "В шорт-лист: готовое сообщение",
      declined: "Отклонить: готовое сообщение",
    },
    keys: [
      ["Пробел", "пауза / продолжить"],
      ["J / K", "следующий / предыдущий трек"],
      ["← / →", "на 5 секунд назад / вперёд"],
      ["D", "к дропу"],
      ["A", "принять (затем 1–9 — шаблон, Enter — без шаблона)"],
      ["S", "в шорт-лист"],
      ["X", "отклонить (затем 1–9 — шаблон, Enter — без шаблона)"],
      ["M", "сообщение артисту"],
      ["N", "заметка для сотрудников"],
      ["Z", "отменить последнее решение, пока сообщение не ушло"],
      ["C", "комментарий к текущему моменту (протяните по волне — к отрезку)"],
      ["Esc", "закрыть выбор шаблона / подсказку; из поля — вернуть клавиши"],
      ["?", "эта подсказка"],
    ],
    decisionGroup: "Решение по треку",
    shortlistWithTemplate: "В шорт-лист с готовым сообщением",
    statesGroup: "Состояние по направлениям",
    outsideCategories: "Направления трека вне ваших категорий",
    quoted: (f) => `«${f}»`,
    holdTold: " — артист узнает через",
    undo: "Отменить",
    sent: ", сообщение ушло в отправку",
    saving: "Сохранение…",
    sheet: "Сообщение и заметка",
    sheetWithVotes: "Голос, сообщение и заметка",
    keysButton: "Клавиши",
    keysTitle: "Клавиши (?)",
    close: "Закрыть",
    noTemplates: "Готовых сообщений для этого решения нет",
    sendWithMine: "Отправить с моим сообщением",
    sendWithout: "Без готового сообщения",
    message: "Сообщение артисту",
    note: "Заметка для сотрудников",
    overrides: "По направлениям (если решение различается)",
    sameAsAll: "Как у всех",
    saveFailed: "Не удалось сохранить решение",
    undoFailed: "Не удалось отменить решение",
  },
  votes: {
    labels: VOTE_LABELS,
    region: "Голоса сотрудников",
    yours: "Ваш голос",
    wordLabel: "Слово к голосу (необязательно)",
    wordPlaceholder: "Слово к голосу",
    withdraw: "Отозвать",
    list: "Голоса",
    nobody: "Пока никто не голосовал",
    hidden: (n) => `Голосов: ${n}. Они видны после вашего голоса`,
    failed: "Не удалось сохранить голос",
    scoreHidden: "оценка скрыта до вашего голоса",
    score: (s) => `оценка ${s}`,
    count: "голосов",
    secondEar: "второе мнение",
  },
  work: {
    assigned: (name) => `Назначен: ${name}`,
    assignedToYou: "Назначен вам",
    listening: (username) => `Слушает @${username}`,
    andMore: (n) => `и ещё ${n}`,
  },
  assign: {
    label: "Назначить",
    choose: "Кому назначить…",
    nobody: "Снять назначение",
    apply: "Назначить",
    busy: "Назначение…",
    noneEligible: "Нет сотрудников, чьи категории покрывают эти направления",
  },
  split: {
    open: "Разделить новые",
    title: "Разделить новые треки направления поровну",
    direction: "Направление",
    people: "Кому",
    submit: "Разделить поровну",
    busy: "Распределение…",
    cancel: "Закрыть",
    noPeople: "Нет сотрудников, чьи категории покрывают это направление",
    result: (total) => (total === 0 ? "Новых неназначенных треков нет" : `Распределено треков: ${total}`),
    failed: "Не удалось распределить треки",
  },
  queue: {
    selection: "Назначить выбранные",
    assignedToMe: "Мне назначено",
    failed: "Не удалось назначить",
  },
  decisions: {
    title: "Решения по направлениям",
    saveFailed: "Не удалось сохранить решение",
    saved: "Решение сохранено",
    declinedWithTemplate: "Отклонено с шаблоном",
    promised: (date) => `Ответ обещан до ${date}`,
    readonlyMessage: "Сообщение артисту:",
    outside: "Это направление вне ваших категорий",
    status: "Статус",
    note: "Заметка для сотрудников",
    message: "Сообщение артисту",
    saving: "Сохранение...",
    save: "Сохранить решение",
    template: "Шаблон отказа",
    declineWithTemplate: "Отклонить с шаблоном",
    noteTooLong: REVIEW_TEXTS.noteTooLong,
    messageTooLong: REVIEW_TEXTS.messageTooLong,
    automatic: "Автоматически",
    history: "История решений",
    noHistory: "Решений пока нет",
    when: "Когда",
    who: "Кто",
    direction: "Направление",
    from: "Было",
    to: "Стало",
  },
  listens: {
    heading: "Прослушивания",
    nobody: "Трек ещё никто не слушал",
    heard: (heard, duration) => (duration ? `прослушано ${heard} из ${duration}` : `прослушано ${heard}`),
  },
  duplicate: {
    sameFile: (id, username, date) =>
      date === null
        ? `тот же файл, что трек #${id} (трек удалён)`
        : `тот же файл, что трек #${id}${username ? ` от @${username}` : ""} (${date})`,
    sameAudio: (id, username, date) =>
      date === null
        ? `та же запись, что трек #${id} (трек удалён)`
        : `та же запись, что трек #${id}${username ? ` от @${username}` : ""}, ${date}`,
    similarVersion: (id) => `похоже на другую версию трека #${id}`,
  },
  serverErrors: new Map(),
};

const days = (d: number) => `${d} ${d === 1 ? "day" : "days"}`;

export const REVIEW_TEXTS_EN: ReviewTexts = {
  states: { new: "New", listened: "Listened", shortlisted: "Shortlisted", accepted: "Accepted", declined: "Declined" },
  overdue: "Overdue",
  waiting: (d) => `Waiting ${days(d)}`,
  warnings: {
    low_bitrate: "Bitrate below 320 kbps",
    clipping: "Clipping",
    too_quiet: "Quiet master (below −14 LUFS)",
    tempo_outside_dnb: "Tempo outside drum and bass",
    tempo_outside_window: "Tempo outside the direction's window (intake rules)",
  },
  aiUse: { no: "AI: no", partly: "AI: partly", yes: "AI: yes", none: "AI: not stated" },
  directionConflict: "This direction cannot be chosen together with the directions already chosen.",
  desk: {
    outcomes: { accepted: "Accept", shortlisted: "Shortlist", declined: "Decline" },
    outcomeDone: { accepted: "accepted", shortlisted: "shortlisted", declined: "declined" },
    chooserTitles: {
      accepted: "Accept: ready-made message",
      shortlisted: "Shortlist: ready-made message",
      declined: "Decline: ready-made message",
    },
    keys: [
      ["Space", "pause / resume"],
      ["J / K", "next / previous track"],
      ["← / →", "5 seconds back / forward"],
      ["D", "jump to the drop"],
      ["A", "accept (then 1–9 a template, Enter none)"],
      ["S", "shortlist"],
      ["X", "decline (then 1–9 a template, Enter none)"],
      ["M", "message to the artist"],
      ["N", "note for the staff"],
      ["Z", "undo the last decision while its message has not left"],
      ["C", "comment on the current moment (drag across the waveform for a range)"],
      ["Esc", "close the chooser / legend; in a field, give the keys back"],
      ["?", "this legend"],
    ],
    decisionGroup: "Decision on the track",
    shortlistWithTemplate: "Shortlist with a ready-made message",
    statesGroup: "State per direction",
    outsideCategories: "The track's directions are outside your categories",
    quoted: (f) => `“${f}”`,
    holdTold: " — the artist is told in",
    undo: "Undo",
    sent: ", the message is on its way",
    saving: "Saving…",
    sheet: "Message and note",
    sheetWithVotes: "Vote, message and note",
    keysButton: "Keys",
    keysTitle: "Keys (?)",
    close: "Close",
    noTemplates: "No ready-made messages for this decision",
    sendWithMine: "Send with my message",
    sendWithout: "Without a ready-made message",
    message: "Message to the artist",
    note: "Note for the staff",
    overrides: "Per direction (where the decision differs)",
    sameAsAll: "Same as all",
    saveFailed: "Could not save the decision",
    undoFailed: "Could not undo the decision",
  },
  votes: {
    labels: { 1: "For", 0: "Unsure", [-1]: "Against" },
    region: "Staff votes",
    yours: "Your vote",
    wordLabel: "A word with the vote (optional)",
    wordPlaceholder: "A word with the vote",
    withdraw: "Withdraw",
    list: "Votes",
    nobody: "Nobody has voted yet",
    hidden: (n) => `Votes: ${n}. They show once you vote`,
    failed: "Could not save the vote",
    scoreHidden: "score hidden until you vote",
    score: (s) => `score ${s}`,
    count: "votes",
    secondEar: "second ear",
  },
  work: {
    assigned: (name) => `Assigned: ${name}`,
    assignedToYou: "Assigned to you",
    listening: (username) => `@${username} is listening`,
    andMore: (n) => `and ${n} more`,
  },
  assign: {
    label: "Assign",
    choose: "Assign to…",
    nobody: "Remove the assignment",
    apply: "Assign",
    busy: "Assigning…",
    noneEligible: "No staff member's categories cover these directions",
  },
  split: {
    open: "Split new",
    title: "Split a direction's new tracks evenly",
    direction: "Direction",
    people: "Between",
    submit: "Split evenly",
    busy: "Splitting…",
    cancel: "Close",
    noPeople: "No staff member's categories cover this direction",
    result: (total) => (total === 0 ? "No new unassigned tracks" : `Tracks assigned: ${total}`),
    failed: "Could not split the tracks",
  },
  queue: {
    selection: "Assign selected",
    assignedToMe: "Assigned to me",
    failed: "Could not assign",
  },
  decisions: {
    title: "Decisions per direction",
    saveFailed: "Could not save the decision",
    saved: "Decision saved",
    declinedWithTemplate: "Declined with a template",
    promised: (date) => `Answer promised by ${date}`,
    readonlyMessage: "Message to the artist:",
    outside: "This direction is outside your categories",
    status: "Status",
    note: "Note for the staff",
    message: "Message to the artist",
    saving: "Saving...",
    save: "Save decision",
    template: "Decline template",
    declineWithTemplate: "Decline with a template",
    noteTooLong: SERVER_EN.noteTooLong!,
    messageTooLong: SERVER_EN.messageTooLong!,
    automatic: "Automatic",
    history: "Decision history",
    noHistory: "No decisions yet",
    when: "When",
    who: "Who",
    direction: "Direction",
    from: "From",
    to: "To",
  },
  listens: {
    heading: "Listens",
    nobody: "Nobody has listened to the track yet",
    heard: (heard, duration) => (duration ? `heard ${heard} of ${duration}` : `heard ${heard}`),
  },
  duplicate: {
    sameFile: (id, username, date) =>
      date === null
        ? `the same file as track #${id} (track deleted)`
        : `the same file as track #${id}${username ? ` by @${username}` : ""} (${date})`,
    sameAudio: (id, username, date) =>
      date === null
        ? `the same recording as track #${id} (track deleted)`
        : `the same recording as track #${id}${username ? ` by @${username}` : ""}, ${date}`,
    similarVersion: (id) => `looks like another version of track #${id}`,
  },
  serverErrors: translations(SERVER_EN),
};

/** The server's refusal in the panel's language where it has one; any other text as it came. */
export function panelError(texts: ReviewTexts, text: string): string {
  return texts.serverErrors.get(text) ?? text;
}

/** `errorText` (the server's text, else the fallback) in the panel's language. */
export function panelErrorText(texts: ReviewTexts, err: unknown, fallback: string): string {
  return panelError(texts, errorText(err, fallback));
}

/** «1:20» or «1:20 из 5:10» as the listening list says it. */
export function listenedText(texts: ListenTexts, heardS: number, durationS: number | null | undefined): string {
  return texts.heard(
    formatDuration(Math.max(0, heardS)),
    durationS && durationS > 0 ? formatDuration(durationS) : null,
  );
}

/** A warning code in the panel's words; an unknown code (a newer server) as it is. */
export function warningText(texts: ReviewTexts, code: string): string {
  return Object.hasOwn(texts.warnings, code) ? texts.warnings[code as AudioWarning] : code;
}

import type { AiUseFilter } from "../../../../domain/ai-use-desk.ts";

/** The words of the queue's filters and of the phone's filter panel, one dictionary per panel (issue 31). */
export interface TrackFilterTexts {
  filename: string;
  filenamePlaceholder: string;
  user: string;
  userPlaceholder: string;
  date: string;
  direction: string;
  allDirections: string;
  downloaded: string;
  all: string;
  downloadedYes: string;
  downloadedNo: string;
  warning: string;
  anyWarning: string;
  review: string;
  /** `awaiting`: new or listened, a decision still to make (issue 23). */
  awaiting: string;
  /** Issue 24: the assignment filter and its one value. */
  assigned: string;
  assignedToMe: string;
  votes: string;
  /** The votes filter's choices (decision 0230). */
  voteFilters: Record<"second_ear" | "positive" | "negative" | "none", string>;
  /** `overdue`: awaiting past the direction's response promise (issue 24; per direction since issue 25). */
  overdue: string;
  /** Issue 25: the AI question's answer and its choices. */
  aiUse: string;
  aiUseFilters: Record<AiUseFilter, string>;
  reset: string;
}

export const TRACK_FILTER_TEXTS_RU: TrackFilterTexts = {
  filename: "Название трека",
  filenamePlaceholder: "Поиск по названию",
  user: "Пользователь",
  userPlaceholder: "Имя или логин",
  date: "Дата загрузки",
  direction: "Направление",
  allDirections: "Все направления",
  downloaded: "Статус",
  all: "Все",
  downloadedYes: "Скачанные",
  downloadedNo: "Не скачанные",
  warning: "Предупреждение",
  anyWarning: "С предупреждениями",
  review: "Рассмотрение",
  awaiting: "Ждут решения",
  assigned: "Назначение",
  assignedToMe: "Мне назначено",
  votes: "Голоса",
  voteFilters: {
    second_ear: "Нужно второе мнение",
    positive: "Оценка выше нуля",
    negative: "Оценка ниже нуля",
    none: "Без голосов",
  },
  overdue: "Просрочены (срок ответа прошёл)",
  aiUse: "ИИ",
  aiUseFilters: { no: "Нет", partly: "Частично", yes: "Да", none: "Без ответа" },
  reset: "Сбросить",
};

export const TRACK_FILTER_TEXTS_EN: TrackFilterTexts = {
  filename: "Track name",
  filenamePlaceholder: "Search by name",
  user: "User",
  userPlaceholder: "Search by user",
  date: "Date",
  direction: "Direction",
  allDirections: "All directions",
  downloaded: "Status",
  all: "All",
  downloadedYes: "Downloaded",
  downloadedNo: "Not downloaded",
  warning: "Warning",
  anyWarning: "Any warning",
  review: "Review",
  awaiting: "Awaiting a decision",
  assigned: "Assignment",
  assignedToMe: "Assigned to me",
  votes: "Votes",
  voteFilters: {
    second_ear: "Needs a second ear",
    positive: "Score above zero",
    negative: "Score below zero",
    none: "No votes",
  },
  overdue: "Overdue (past the promise)",
  aiUse: "AI",
  aiUseFilters: { no: "No", partly: "Partly", yes: "Yes", none: "No answer" },
  reset: "Reset",
};

/** The words of the phone's filter button and panel. */
export interface FilterPanelTexts {
  /** The button: its name and, with filters on, how many ("Фильтры · 2"). */
  button: (active: number) => string;
  done: string;
}

export const FILTER_PANEL_TEXTS_RU: FilterPanelTexts = {
  button: (n) => (n > 0 ? `Фильтры · ${n}` : "Фильтры"),
  done: "Готово",
};

export const FILTER_PANEL_TEXTS_EN: FilterPanelTexts = {
  button: (n) => (n > 0 ? `Filters · ${n}` : "Filters"),
  done: "Done",
};

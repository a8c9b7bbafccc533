/**
 * Assignment and presence (issue 24, docs/decisions/0233, 0234): the limits and Russian texts the
 * server's checks and the panels' controls share.
 */

/** Most tracks one bulk assignment takes (the list's largest page is 100; a selection may span pages). */
export const MAX_ASSIGN_TRACKS = 500;
/** Most colleagues a direction's new queue is split among. */
export const MAX_SPLIT_PEOPLE = 50;
/** Most track ids one presence poll asks about. */
export const MAX_PRESENCE_IDS = 200;
/** A track someone played within this many seconds shows «Слушает @name» (issue 24). */
export const PRESENCE_WINDOW_S = 30;

export const ASSIGN_TEXTS = {
  badUserId: "ID сотрудника должен быть числом или null",
  userNotFound: "Сотрудник с таким ID не найден",
  notStaff: "Назначить можно только администратора или модератора",
  notCovering: (name: string, direction: string) =>
    `Категории сотрудника ${name} не покрывают направление «${direction}»`,
  notTrackDirection: "У трека нет такого направления",
  outsideCategories: "Назначение по этому направлению вне ваших категорий",
  nothingToAssign: "По этому треку в ваших категориях решения уже приняты: назначать нечего",
  noTracks: "Не выбраны треки для назначения",
  tooManyTracks: `Можно назначить не более ${MAX_ASSIGN_TRACKS} треков за раз`,
  noPeople: "Выберите хотя бы одного сотрудника",
  tooManyPeople: `Можно выбрать не более ${MAX_SPLIT_PEOPLE} сотрудников`,
  badIds: "Некорректный список треков",
  tooManyIds: `Не более ${MAX_PRESENCE_IDS} треков за раз`,
  unknownDirection: "Неизвестное направление",
  badAssignedFilter: "Фильтр назначения: me",
  /** The queue's and the desk's badge (issue 24). */
  listening: (username: string) => `Слушает @${username}`,
  /** The view of the desk: the caller's assigned tracks. */
  assignedToMe: "Мне назначено",
} as const;

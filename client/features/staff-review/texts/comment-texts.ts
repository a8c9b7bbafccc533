import { formatDuration } from "../../../lib/format.ts";

/**
 * Words of the comments on the waveform (issue 24, decision 0231), Russian for the admin panel and
 * English for the moderator panel like the player's (player-texts.ts). The switch was «показать
 * артисту» in both (issue 24 named it); issue 31 puts the moderator's panel wholly in English
 * (decision 0280), so there it reads "show to the artist".
 */
export interface CommentTexts {
  heading: string;
  empty: string;
  add: string;
  marker: (at: number, end: number | null, text: string) => string;
  placeholder: string;
  newAt: (at: number, end: number | null) => string;
  save: string;
  cancel: string;
  share: string;
  shared: string;
  edit: string;
  remove: string;
  removeConfirm: string;
  seek: (at: number) => string;
  noAuthor: string;
  failed: string;
}

export const span = (at: number, end: number | null) =>
  end === null ? formatDuration(at) : `${formatDuration(at)}–${formatDuration(end)}`;

export const COMMENT_TEXTS_RU: CommentTexts = {
  heading: "Комментарии",
  empty: "Комментариев нет. C — комментарий к текущему моменту, протяните по волне — к отрезку.",
  add: "Комментарий",
  marker: (at, end, text) => `Комментарий на ${span(at, end)}: ${text}`,
  placeholder: "Что слышно в этот момент",
  newAt: (at, end) => `Новый комментарий на ${span(at, end)}`,
  save: "Сохранить",
  cancel: "Отмена",
  share: "показать артисту",
  shared: "Виден артисту",
  edit: "Изменить",
  remove: "Удалить",
  removeConfirm: "Удалить комментарий?",
  seek: (at) => `Перейти к ${formatDuration(at)}`,
  noAuthor: "Удалённый пользователь",
  failed: "Не удалось сохранить комментарий",
};

export const COMMENT_TEXTS_EN: CommentTexts = {
  heading: "Comments",
  empty: "No comments. C comments on the current moment; drag across the waveform for a range.",
  add: "Comment",
  marker: (at, end, text) => `Comment at ${span(at, end)}: ${text}`,
  placeholder: "What you hear at this moment",
  newAt: (at, end) => `New comment at ${span(at, end)}`,
  save: "Save",
  cancel: "Cancel",
  share: "show to the artist",
  shared: "Shown to the artist",
  edit: "Edit",
  remove: "Delete",
  removeConfirm: "Delete the comment?",
  seek: (at) => `Go to ${formatDuration(at)}`,
  noAuthor: "Deleted user",
  failed: "Could not save the comment",
};

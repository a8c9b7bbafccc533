/** The resumable uploads' answers to the artist (Russian), server/uploads/resumable/. */

export const UPLOAD_NOT_FOUND = "Загрузка не найдена: она завершена, отменена или устарела. Выберите файл ещё раз.";
export const S3_PARTS_ELSEWHERE =
  "Части этой загрузки отправляются прямо в хранилище по выданным адресам, а не на сервер.";
export const COMPLETING_MESSAGE = "Загрузка уже завершается.";
export const SHORT_PART_MESSAGE = "Часть файла получена не полностью: отправьте её ещё раз.";
export const EMPTY_FILE_MESSAGE = "Файл пустой.";

export function partsMissingMessage(missing: number, count: number): string {
  return `Загружены не все части файла: не хватает ${missing} из ${count}. Продолжите загрузку.`;
}

export function partSizeMessage(n: number): string {
  return `Часть ${n} файла не того размера: отправьте её ещё раз.`;
}

export function badPartNumberMessage(count: number): string {
  return `Неверный номер части: ожидается число от 1 до ${count}.`;
}

export function partTooLargeMessage(n: number, expected: number): string {
  return `Часть ${n} больше, чем должна быть (${expected} байт).`;
}

/** The 429 of MAX_OPEN_UPLOADS: the limit, what frees a place, and when one frees itself. */
export function tooManyOpenUploadsMessage(limit: number, retryAfterS: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
  const later = minutes < 120 ? `${minutes} мин.` : `${Math.ceil(minutes / 60)} ч.`;
  return `Слишком много незавершённых загрузок: не больше ${limit} одновременно. ` +
    `Завершите или отмените одну из них, чтобы начать новую, или попробуйте позже: через ${later}`;
}

import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The one error type handlers throw; `app.onError` turns it into `{ success: false, error }`. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Extra fields merged into the JSON answer (e.g. `ban_reason`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, extra?: Record<string, unknown>) => new ApiError(400, msg, extra);
export const unauthorized = (msg = "Требуется авторизация") => new ApiError(401, msg);
export const forbidden = (msg = "Недостаточно прав", extra?: Record<string, unknown>) => new ApiError(403, msg, extra);
export const notFound = (msg = "Не найдено") => new ApiError(404, msg);
export const conflict = (msg: string, extra?: Record<string, unknown>) => new ApiError(409, msg, extra);
export const tooLarge = (msg: string) => new ApiError(413, msg);

import { ApiError } from "../../../lib/api.ts";

/** Spec 2 §8: the text when no answer came at all. */
export const NO_RESPONSE_TEXT = "Сервер не отвечает. Проверьте соединение с интернетом.";

export type LoadErrorKind = "database" | "server" | "access" | "generic";

export interface LoadErrorView {
  kind: LoadErrorKind;
  title: string;
  message: string;
  details?: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

const TITLES: Record<LoadErrorKind, string> = {
  database: "Database Error",
  server: "Server Error (500)",
  access: "Access Error (403)",
  generic: "Error Loading Tracks",
};

const DATABASE_TEXT = /sql|syntax error|database|sqlite|libsql/i;

/**
 * The Manage Tracks error block (spec 2 "Moderator tracks", §8): a title by kind (a database query
 * problem, a server error, an access error, anything else), the status code and text, and the
 * server's own error as details.
 */
export function describeLoadError(err: unknown): LoadErrorView {
  if (!(err instanceof ApiError) || err.status === 0) {
    return { kind: "generic", title: TITLES.generic, message: NO_RESPONSE_TEXT };
  }
  const serverText = err.serverText;
  const statusLine = `Error ${err.status}: ${STATUS_TEXT[err.status] ?? "Unexpected response"}`;
  if (DATABASE_TEXT.test(serverText)) {
    return {
      kind: "database",
      title: TITLES.database,
      message: "There was a problem with the database query. Please try again later.",
      details: `${statusLine}. ${serverText}`,
    };
  }
  const kind: LoadErrorKind = err.status === 403 ? "access" : err.status >= 500 ? "server" : "generic";
  const title = kind === "server" ? `Server Error (${err.status})` : TITLES[kind];
  return { kind, title, message: statusLine, details: serverText || undefined };
}

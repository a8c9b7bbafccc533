/** Local storage keys (spec 1 §3). */
export const STORAGE_KEYS = {
  accessToken: "accessToken",
  refreshToken: "refreshToken",
  cookieConsent: "cookieConsent",
  failedFiles: "failedFiles",
  oauthSessionId: "oauth_session_id",
  /** Provider windows this browser opened in the last minutes (client/lib/oauth.ts). */
  oauthStarts: "oauth_starts",
  /** The outcome of a Telegram link finished in a provider window, for the window that opened it. */
  oauthLinkResult: "oauth_link_result",
  /** The review desk's «С дропа» switch (issue 23): a track the player moves on to starts at its drop. */
  reviewFromDrop: "reviewFromDrop",
  /** Unfinished resumable uploads by file (name, size, modification time), issue 26. */
  resumableUploads: "resumableUploads",
} as const;

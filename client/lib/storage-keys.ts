/** Local storage keys (spec 1 §3). */
export const STORAGE_KEYS = {
  accessToken: "accessToken",
  refreshToken: "refreshToken",
  cookieConsent: "cookieConsent",
  failedFiles: "failedFiles",
  oauthSessionId: "oauth_session_id",
} as const;

import { callOptions, client, rawBody, read } from "../../lib/api.ts";
import type { AuthResponse } from "../../lib/auth.ts";

/**
 * POST /api/auth/oauth/telegram/complete with the raw `tgAuthResult` (base64url) string and the
 * session id of the sign-in this browser started (the server checks both, docs/decisions/0017).
 * A sign-in writes the session, not cached data, so it is a plain call rather than a mutation hook.
 */
export function completeTelegram(tgAuthResult: string, sessionId: string): Promise<AuthResponse> {
  // The server reads a loose body (JSON, form or a bare string), so its route declares no input type.
  return read(client.auth.oauth.telegram.complete.$post(
    undefined,
    rawBody({ tgAuthResult, session_id: sessionId }, { noRetry: true }),
  ));
}

/**
 * POST /api/auth/oauth/login-code: the one-time code the VK callback put in the address, for the
 * session (decision 0202). Only this browser, once, within a minute.
 */
export function exchangeLoginCode(code: string): Promise<AuthResponse> {
  return read(client.auth.oauth["login-code"].$post({ json: { login_code: code } }, callOptions({ noRetry: true })));
}

/**
 * The backend VK callback the browser is sent to with what VK returned (spec 1 §7); the backend
 * comes back to `frontend_redirect` with a one-time login code, a ban message or an error.
 */
export function vkCallbackAddress(
  p: { code: string; state: string; device_id?: string | null },
  purpose: "sign-in" | "link" = "sign-in",
): string {
  const path = client.auth.oauth.vk.callback.$path({
    query: {
      code: p.code,
      state: p.state,
      device_id: p.device_id ?? "",
      // A link (started from the profile, decision 0204) comes back to the profile.
      frontend_redirect: `${location.origin}${purpose === "link" ? "/profile" : "/auth/vk/callback"}`,
    },
  });
  return `/api${path}`;
}

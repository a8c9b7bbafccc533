import { api } from "../../lib/api.ts";
import type { AuthResponse } from "../../lib/auth.ts";

/** GET /api/auth/oauth/urls (spec 1 §3 "OAuth addresses response"). Null: provider not configured. */
export interface OauthUrls {
  vk: string | null;
  telegram: string | null;
  session_id: string;
}

export type Provider = "vk" | "telegram";

/** Fresh every time: the VK address carries a single-use state, so it is never cached. */
export function fetchOauthUrls(): Promise<OauthUrls> {
  return api<OauthUrls>("/auth/oauth/urls", { noRetry: true });
}

/** POST /api/auth/oauth/telegram/complete with the raw `tgAuthResult` (base64url) string. */
export function completeTelegram(tgAuthResult: string): Promise<AuthResponse> {
  return api<AuthResponse>("/auth/oauth/telegram/complete", {
    method: "POST",
    body: { tgAuthResult },
    noRetry: true,
  });
}

/**
 * The backend VK callback the browser is sent to with what VK returned (spec 1 §7); the backend
 * comes back to `frontend_redirect` with tokens, a ban message or an error.
 */
export function vkCallbackAddress(p: { code: string; state: string; device_id?: string | null }): string {
  const q = new URLSearchParams({
    code: p.code,
    state: p.state,
    device_id: p.device_id ?? "",
    frontend_redirect: `${location.origin}/auth/vk/callback`,
  });
  return `/api/auth/oauth/vk/callback?${q}`;
}

/**
 * What an address brings to /login or the callback page (spec 1 §2 "/login", "/auth/{provider}/callback").
 * `tgAuthResult` may come in the query or in the fragment (Telegram puts it after `#`).
 */
export type Arrival =
  | { kind: "ban"; message: string | null }
  | { kind: "telegram"; result: string }
  | { kind: "tokens"; access: string; refresh: string }
  /** The VK callback's one-time code, exchanged for the session (decision 0202). */
  | { kind: "login-code"; code: string }
  | { kind: "vk-code"; code: string; state: string; deviceId: string | null }
  | { kind: "vk-error"; error: string }
  | { kind: "none" };

export function readArrival(search: string, hash: string): Arrival {
  const q = new URLSearchParams(search);
  const h = new URLSearchParams(hash.replace(/^#/, ""));
  if (q.has("ban_message")) return { kind: "ban", message: q.get("ban_message") || null };
  const tg = q.get("tgAuthResult") ?? h.get("tgAuthResult");
  if (tg !== null) return { kind: "telegram", result: tg };
  const access = q.get("access_token");
  const refresh = q.get("refresh_token");
  if (access && refresh) return { kind: "tokens", access, refresh };
  const loginCode = q.get("login_code");
  if (loginCode) return { kind: "login-code", code: loginCode };
  const code = q.get("code");
  const state = q.get("state");
  if (code && state) return { kind: "vk-code", code, state, deviceId: q.get("device_id") };
  const error = q.get("error");
  if (error) return { kind: "vk-error", error: q.get("error_description") || error };
  return { kind: "none" };
}

/** True when the address carries anything the sign-in pages act on (so it must be cleaned). */
export function hasAuthParams(search: string, hash: string): boolean {
  return readArrival(search, hash).kind !== "none" || /(^|[?&#])(state|device_id|type|expires_in)=/.test(search + hash);
}

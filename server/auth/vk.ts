/**
 * VK ID, OAuth 2.1 authorization code with PKCE (see docs/protocols.md; VKCOM/vkid-web-sdk
 * src/auth/auth.ts). No client secret: the code verifier proves that we started the flow.
 */
export interface VkConfig {
  clientId: string;
  redirectUri: string;
  baseUrl: string;
}

export interface VkUser {
  user_id: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  avatar?: string;
  email?: string;
}

/** A failure reported by VK ID or while talking to it; `message` is safe to show. */
export class VkError extends Error {}

/** Scope: names for the profile, phone for the pending account link (spec: link_telegram_to_vk). */
export const VK_SCOPE = "vkid.personal_info phone";

export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Verifier of 64 chars from [A-Za-z0-9_-] and its S256 challenge. */
export async function createPkce() {
  const verifier = randomToken(48);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export function vkAuthorizeUrl(vk: VkConfig, p: { state: string; challenge: string }): string {
  const url = new URL(`${vk.baseUrl}/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: vk.clientId,
    redirect_uri: vk.redirectUri,
    state: p.state,
    code_challenge: p.challenge,
    code_challenge_method: "s256",
    scope: VK_SCOPE,
  }).toString();
  return url.toString();
}

async function postForm(
  fetchFn: typeof fetch,
  url: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new VkError("Сервер ВКонтакте не отвечает");
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new VkError(`Некорректный ответ ВКонтакте (HTTP ${res.status})`);
  }
  if (!body || typeof body !== "object") throw new VkError("Некорректный ответ ВКонтакте");
  const obj = body as Record<string, unknown>;
  // VK ID may report errors with HTTP 200: any `error` key is a failure.
  if (obj.error !== undefined) {
    const detail = typeof obj.error_description === "string" && obj.error_description
      ? obj.error_description
      : String(obj.error);
    throw new VkError(detail);
  }
  if (!res.ok) throw new VkError(`HTTP ${res.status}`);
  return obj;
}

/** POST /oauth2/auth (form-encoded) → VK access token; checks that the echoed state matches. */
export async function exchangeVkCode(
  fetchFn: typeof fetch,
  vk: VkConfig,
  p: { code: string; verifier: string; deviceId: string; state: string },
): Promise<string> {
  const body = await postForm(fetchFn, `${vk.baseUrl}/oauth2/auth`, {
    grant_type: "authorization_code",
    code: p.code,
    code_verifier: p.verifier,
    client_id: vk.clientId,
    device_id: p.deviceId,
    redirect_uri: vk.redirectUri,
    state: p.state,
  });
  if (body.state !== undefined && body.state !== p.state) throw new VkError("Несовпадение state в ответе ВКонтакте");
  if (typeof body.access_token !== "string" || !body.access_token) {
    throw new VkError("ВКонтакте не выдал токен доступа");
  }
  return body.access_token;
}

/** POST /oauth2/user_info → the VK user (user_id as a string). */
export async function fetchVkUser(fetchFn: typeof fetch, vk: VkConfig, accessToken: string): Promise<VkUser> {
  const url = `${vk.baseUrl}/oauth2/user_info?client_id=${encodeURIComponent(vk.clientId)}`;
  const body = await postForm(fetchFn, url, { access_token: accessToken, client_id: vk.clientId });
  const user = body.user as Record<string, unknown> | undefined;
  const id = user?.user_id;
  if (!user || (typeof id !== "string" && typeof id !== "number") || !/^\d{1,20}$/.test(String(id))) {
    throw new VkError("ВКонтакте не вернул данные пользователя");
  }
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  return {
    user_id: String(id),
    first_name: str(user.first_name),
    last_name: str(user.last_name),
    phone: str(user.phone),
    avatar: str(user.avatar),
    email: str(user.email),
  };
}

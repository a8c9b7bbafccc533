/**
 * One browser as the sign-in API sees it (test tooling): it keeps the cookies the app sets and sends
 * them back, as a browser does for same-origin calls and navigations. Sign-in is bound to the browser
 * that started it (docs/decisions/0016), so API tests start and finish a sign-in with the same one,
 * and an attack is a second browser finishing what the first started.
 */
export interface SignInApp {
  request(path: string, init?: RequestInit, env?: unknown): Response | Promise<Response>;
}

export interface OauthUrls {
  success: boolean;
  vk: string | null;
  telegram: string | null;
  session_id: string;
}

export interface SignInBrowser {
  request(path: string, init?: RequestInit, env?: unknown): Promise<Response>;
  /** GET /api/auth/oauth/urls: starts a sign-in in this browser. */
  oauthUrls(): Promise<OauthUrls>;
  /** Starts a sign-in here and completes it with a Telegram result, as the front end does. */
  completeTelegram(tgAuthResult: unknown): Promise<Response>;
  /** Cookies held, by name. */
  cookies: Map<string, string>;
}

export function createSignInBrowser(app: SignInApp): SignInBrowser {
  const cookies = new Map<string, string>();
  const request = async (path: string, init: RequestInit = {}, env?: unknown) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await app.request(path, { ...init, headers }, env);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) cookies.delete(name);
      else cookies.set(name, pair.slice(at + 1).trim());
    }
    return res;
  };
  const oauthUrls = async () => await (await request("/api/auth/oauth/urls")).json() as OauthUrls;
  return {
    request,
    oauthUrls,
    async completeTelegram(tgAuthResult) {
      const { session_id } = await oauthUrls();
      return await request("/api/auth/oauth/telegram/complete", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tgAuthResult, session_id }),
      });
    },
    cookies,
  };
}

import { useSyncExternalStore } from "react";
import { banMessage } from "../../domain/ban.ts";
import type { InferResponseType } from "hono/client";
import { ApiError, callOptions, client, read, setApiHooks, tokens } from "./api.ts";
import { flash } from "./flash.ts";
import { STORAGE_KEYS } from "./storage-keys.ts";

/**
 * The auth store (spec 1 §4): tokens in local storage, the current user, ban handling.
 * Router context carries it; components read it with `useAuth()`.
 */
type Listener = () => void;

export interface AuthSnapshot {
  user: User | null;
  isAuthenticated: boolean;
  /** Message of the ban modal, when open. */
  banMessage: string | null;
  /**
   * A sign-in address for another account arrived while this browser is signed in: the question
   * «Вы вошли как @current. Войти как @next?» is open (decision 0202).
   */
  switchOffer: { current: string; next: string } | null;
}

/** What became of a sign-in address (`?access_token=…&refresh_token=…`). */
export type TokenLinkOutcome = "signed-in" | "kept";

/**
 * Removes access_token and refresh_token from the address bar and this history entry at once, so a
 * session never stays on screen or in the history whatever happens next (decision 0202).
 */
export function stripTokenLink(): void {
  const loc = globalThis.location;
  if (!loc || !globalThis.history?.replaceState) return;
  const params = new URLSearchParams(loc.search);
  if (!params.has("access_token") && !params.has("refresh_token")) return;
  params.delete("access_token");
  params.delete("refresh_token");
  const query = params.toString();
  history.replaceState(history.state, "", `${loc.pathname}${query ? `?${query}` : ""}${loc.hash}`);
}

/**
 * The user a pair's access token belongs to, asked with that token alone: nothing is stored, and no
 * refresh, ban or sign-out of the current session follows from the answer.
 */
async function peekUser(access: string): Promise<User> {
  let res: Response;
  try {
    res = await fetch("/api/auth/me", {
      headers: { Accept: "application/json", Authorization: `Bearer ${access}` },
      credentials: "include",
    });
  } catch {
    throw new ApiError(0, "No response from server");
  }
  const body = await res.json().catch(() => null) as { success?: boolean; user?: User; error?: string } | null;
  if (!res.ok || !body?.user) throw new ApiError(res.status || 0, body?.error ?? `${res.status}`, body);
  return body.user;
}

/** The signed-in user as the server describes them (GET /api/auth/me, spec 1 §3). */
export type User = InferResponseType<typeof client.auth.me.$get>["user"];

/** The answer of sign-in calls (spec 1 §3 "Auth response"). */
export type AuthResponse = InferResponseType<typeof client.auth.oauth.telegram.complete.$post>;

const listeners = new Set<Listener>();
let snapshot: AuthSnapshot = { user: null, isAuthenticated: false, banMessage: null, switchOffer: null };
let answerSwitch: ((agreed: boolean) => void) | null = null;
let loading: Promise<User | null> | null = null;

function update(patch: Partial<AuthSnapshot>) {
  snapshot = { ...snapshot, ...patch };
  for (const l of listeners) l();
}

/** The server answered and the tokens were not accepted (a ban has its own handling). */
function refusedByServer(err: unknown): boolean {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429 && !err.isBan;
}

export const auth = {
  get user() {
    return snapshot.user;
  },
  get isAuthenticated() {
    return snapshot.isAuthenticated;
  },
  get isAdmin() {
    return Boolean(snapshot.user?.is_admin);
  },
  get isModerator() {
    return Boolean(snapshot.user && (snapshot.user.is_moderator || snapshot.user.is_admin));
  },
  subscribe(l: Listener) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  getSnapshot: () => snapshot,

  /**
   * Session restore: authenticated only when both tokens are stored (spec 1 §4). At start a lone
   * token is removed; when following another tab it is left alone, because that tab may be
   * half-way through writing the pair.
   */
  restore(opts: { repair?: boolean } = { repair: true }) {
    const ok = Boolean(tokens.access && tokens.refresh);
    if (opts.repair && !ok && (tokens.access || tokens.refresh)) tokens.clear();
    if (ok !== snapshot.isAuthenticated || (!ok && snapshot.user)) {
      loading = null;
      update({ isAuthenticated: ok, user: ok ? snapshot.user : null });
    }
  },

  /** Stores both tokens; the session starts when both are present. */
  setTokens(access: string, refresh: string) {
    const changed = tokens.access !== access;
    tokens.set(access, refresh);
    if (changed) {
      // New tokens may belong to someone else: the loaded user is no longer known.
      loading = null;
      update({ isAuthenticated: true, user: null });
    } else update({ isAuthenticated: true });
  },

  /**
   * Sign-in by tokens handed over in an address or by a sign-in call: stores both, loads the user.
   * When the server refuses the pair it does not stay (a bad pair must not leave a half session);
   * when no answer came (the person left the page mid-request, the network dropped, the server
   * failed) the pair stays, to be checked on the next request. The error is passed on either way.
   */
  async signInWithTokens(access: string, refresh: string): Promise<User> {
    auth.setTokens(access, refresh);
    let user: User | null = null;
    try {
      user = await auth.loadUser();
    } catch (err) {
      if (tokens.access === access && refusedByServer(err)) auth.clear();
      throw err;
    }
    if (!user) throw new ApiError(401, "Ошибка при получении данных пользователя");
    localStorage.removeItem(STORAGE_KEYS.oauthSessionId);
    return user;
  },

  /**
   * A sign-in address (spec 1 §4 "Login entry via address", `login-link`): the tokens leave the
   * address at once. A browser with no session signs in with them, as the spec says; one signed in
   * as the same person takes them too. One signed in as someone else asks first and keeps its
   * session unless the person agrees (decision 0202). Errors as `signInWithTokens`; a pair the
   * server refuses changes nothing here.
   */
  async acceptTokenLink(access: string, refresh: string): Promise<TokenLinkOutcome> {
    stripTokenLink();
    if (!snapshot.isAuthenticated || tokens.access === access) {
      await auth.signInWithTokens(access, refresh);
      return "signed-in";
    }
    let current: User | null = null;
    try {
      current = await auth.ensureUser();
    } catch (err) {
      // The current session is still there but could not be checked: nothing is switched unasked.
      if (snapshot.isAuthenticated) throw err;
    }
    if (!current || !snapshot.isAuthenticated) {
      // The current session turned out to be over: this browser has none, so the spec's rule holds.
      await auth.signInWithTokens(access, refresh);
      return "signed-in";
    }
    const next = await peekUser(access);
    if (next.id !== current.id && !(await auth.askSwitch(current.username, next.username))) return "kept";
    await auth.signInWithTokens(access, refresh);
    return "signed-in";
  },

  /** Opens the question «Вы вошли как @current. Войти как @next?»; true when the person agrees. */
  askSwitch(current: string, next: string): Promise<boolean> {
    answerSwitch?.(false);
    return new Promise<boolean>((resolve) => {
      answerSwitch = resolve;
      update({ switchOffer: { current, next } });
    });
  },
  /** The person's answer to the open question. */
  answerSwitch(agreed: boolean) {
    const resolve = answerSwitch;
    answerSwitch = null;
    update({ switchOffer: null });
    resolve?.(agreed);
  },

  /** Stores the answer of a sign-in call (Telegram completion) as the session. */
  acceptAuthResponse(res: AuthResponse) {
    auth.setTokens(res.access_token, res.refresh_token);
    if (res.user) update({ user: res.user });
    localStorage.removeItem(STORAGE_KEYS.oauthSessionId);
  },

  clear() {
    tokens.clear();
    loading = null;
    update({ user: null, isAuthenticated: false });
  },

  /** Fetches the current user. 401/422 clear the session; 403 is a ban. */
  loadUser(): Promise<User | null> {
    if (!tokens.access || !tokens.refresh) {
      auth.clear();
      return Promise.resolve(null);
    }
    if (loading) return loading;
    // A sign-out or another sign-in while this is in flight wins over its answer.
    const isCurrent = () => loading === current;
    const run = async () => {
      try {
        const body = await read(client.auth.me.$get());
        if (isCurrent()) update({ user: body.user, isAuthenticated: true });
        return body.user;
      } catch (err) {
        if (isCurrent()) {
          if (err instanceof ApiError && (err.status === 401 || err.status === 422)) auth.clear();
          if (err instanceof ApiError && err.status === 403) {
            auth.banned(String(err.body?.ban_reason ?? err.message));
          }
        }
        throw err;
      } finally {
        if (isCurrent()) loading = null;
      }
    };
    const current: Promise<User | null> = run();
    loading = current;
    return current;
  },

  /** The user, fetched first when signed in but not loaded. */
  async ensureUser(): Promise<User | null> {
    if (!snapshot.isAuthenticated) return null;
    if (snapshot.user) return snapshot.user;
    return await auth.loadUser();
  },

  /** Ends the session because of a ban and opens the ban modal. */
  banned(message?: string) {
    tokens.clear();
    loading = null;
    update({ user: null, isAuthenticated: false, banMessage: banMessage(message) });
  },
  closeBanModal() {
    update({ banMessage: null });
  },

  async logout() {
    if (tokens.access || tokens.refresh) {
      try {
        await client.auth.logout.$post(
          undefined,
          callOptions({
            noRetry: true,
            // The refresh token also names the session when the access token has expired.
            headers: tokens.access ? {} : { Authorization: `Bearer ${tokens.refresh}` },
          }),
        );
      } catch (err) {
        // An expired access token: try once more with the refresh token; the local session ends anyway.
        if (err instanceof ApiError && err.status === 401 && tokens.refresh) {
          await client.auth.logout.$post(
            undefined,
            callOptions({
              noRetry: true,
              headers: { Authorization: `Bearer ${tokens.refresh}` },
            }),
          ).catch(() => {});
        }
      }
    }
    auth.clear();
  },
};

setApiHooks({
  onSessionExpired: () => auth.clear(),
  onBanned: (message) => auth.banned(message),
});

auth.restore();

// Another tab signed in or out: follow it, so every open tab shows the same session.
globalThis.addEventListener?.("storage", (e: StorageEvent) => {
  if (e.key !== null && e.key !== STORAGE_KEYS.accessToken && e.key !== STORAGE_KEYS.refreshToken) return;
  const had = snapshot.isAuthenticated;
  auth.restore({ repair: false });
  if (snapshot.isAuthenticated && !had) auth.loadUser().catch(() => {});
});

export type Auth = typeof auth;

export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(auth.subscribe, auth.getSnapshot, auth.getSnapshot);
}

/** Spec 1's logout flash, shown wherever a person signs out (site header, profile, staff sidebars). */
export const LOGOUT_SUCCESS = "Вы успешно вышли из системы.";

/** Signs out (the server's session too) and says so. */
export async function signOut(): Promise<void> {
  await auth.logout();
  flash("success", LOGOUT_SUCCESS);
}

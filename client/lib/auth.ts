import { useSyncExternalStore } from "react";
import { api, ApiError, setApiHooks, tokens } from "./api.ts";
import type { User } from "./types.ts";

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
}

const listeners = new Set<Listener>();
let snapshot: AuthSnapshot = {
  user: null,
  isAuthenticated: Boolean(tokens.access && tokens.refresh),
  banMessage: null,
};
let loading: Promise<User | null> | null = null;

function update(patch: Partial<AuthSnapshot>) {
  snapshot = { ...snapshot, ...patch };
  for (const l of listeners) l();
}

export const DEFAULT_BAN_TEXT = "Ваш аккаунт заблокирован за нарушение правил сервиса";

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

  /** Stores both tokens; the session starts when both are present. */
  setTokens(access: string, refresh: string) {
    tokens.set(access, refresh);
    update({ isAuthenticated: true });
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
    loading ??= (async () => {
      try {
        const body = await api<{ user: User }>("/auth/me");
        update({ user: body.user, isAuthenticated: true });
        return body.user;
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 422)) auth.clear();
        if (err instanceof ApiError && err.status === 403) auth.banned(String(err.body?.ban_reason ?? err.message));
        throw err;
      } finally {
        loading = null;
      }
    })();
    return loading;
  },

  /** The user, fetched first when signed in but not loaded. */
  async ensureUser(): Promise<User | null> {
    if (!snapshot.isAuthenticated) return null;
    if (snapshot.user) return snapshot.user;
    return await auth.loadUser();
  },

  banned(message?: string) {
    tokens.clear();
    update({ user: null, isAuthenticated: false, banMessage: message?.trim() || DEFAULT_BAN_TEXT });
  },
  closeBanModal() {
    update({ banMessage: null });
  },

  async logout() {
    try {
      await api("/auth/logout", { method: "POST", noRetry: true });
    } catch {
      // The local session ends whatever the server says.
    }
    auth.clear();
  },
};

setApiHooks({
  onSessionExpired: () => auth.clear(),
  onBanned: (message) => auth.banned(message),
});

export type Auth = typeof auth;

export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(auth.subscribe, auth.getSnapshot, auth.getSnapshot);
}

import { STORAGE_KEYS } from "./storage-keys.ts";

/**
 * The one HTTP client of the front end: base path /api, JSON, bearer token from local storage,
 * default time-out 120 s, and one refresh-and-retry on a 401 per request (spec 1 §4, §7).
 */
export const API_TIMEOUT_MS = 120_000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
  /** True when the server said the account is banned. */
  get isBan(): boolean {
    const text = `${this.message} ${this.body?.ban_reason ?? ""}`.toLowerCase();
    return this.status === 403 && (Boolean(this.body?.banned) || /заблокирован|banned|block/.test(text));
  }
}

export const NO_RESPONSE = "No response from server";

type Hooks = {
  /** Called when the refresh token could not renew the session. */
  onSessionExpired?: () => void;
  /** Called on any 403 that is a ban. */
  onBanned?: (message: string) => void;
  /** Called when the server answers that maintenance mode is on (503 with `maintenance: true`). */
  onMaintenance?: () => void;
};
const hooks: Hooks = {};
export function setApiHooks(h: Hooks) {
  Object.assign(hooks, h);
}

export const tokens = {
  get access() {
    return localStorage.getItem(STORAGE_KEYS.accessToken);
  },
  get refresh() {
    return localStorage.getItem(STORAGE_KEYS.refreshToken);
  },
  set(access: string, refresh?: string) {
    localStorage.setItem(STORAGE_KEYS.accessToken, access);
    if (refresh) localStorage.setItem(STORAGE_KEYS.refreshToken, refresh);
  },
  clear() {
    localStorage.removeItem(STORAGE_KEYS.accessToken);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
  },
};

/** How a refresh ended: a new pair, refused by the server, or no answer at all. */
export type RefreshResult = "renewed" | "refused" | "unreachable";

let refreshing: Promise<RefreshResult> | null = null;

/**
 * Uses the refresh token once; concurrent 401s share one refresh. Only a refusal by the server ends
 * the session: without an answer (offline, the page being left) the tokens stay for the next try.
 */
export function refreshSession(): Promise<RefreshResult> {
  if (refreshing) return refreshing;
  const refresh = tokens.refresh;
  if (!refresh) return Promise.resolve("refused");
  refreshing = (async (): Promise<RefreshResult> => {
    try {
      const res = await fetch("/api/auth/refresh", {
        method: "POST",
        headers: { Authorization: `Bearer ${refresh}` },
        credentials: "include",
      });
      if (res.status === 403) {
        // A banned account cannot renew its session: say so instead of a silent sign-out.
        const body = await res.json().catch(() => null);
        hooks.onBanned?.(String(body?.ban_reason ?? body?.error ?? ""));
        return "refused";
      }
      // Too many renewals from this address for now is no refusal: the session stays for the next try.
      if (res.status >= 500 || res.status === 429) return "unreachable";
      if (!res.ok) {
        // Another tab may have rotated the refresh token first: its new pair is then ours too.
        return Boolean(tokens.access) && tokens.refresh !== refresh ? "renewed" : "refused";
      }
      const body = await res.json();
      if (!body.access_token) return "refused";
      tokens.set(body.access_token, body.refresh_token);
      return "renewed";
    } catch {
      return "unreachable";
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  timeoutMs?: number;
  /** Skip the refresh-and-retry (the refresh call itself, sign-in calls). */
  noRetry?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: RequestOptions["query"]) {
  const url = new URL(`/api${path}`, location.origin);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  }
  return url.pathname + url.search;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  const access = tokens.access;
  if (access && !headers.Authorization) headers.Authorization = `Bearer ${access}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? API_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  return await fetch(buildUrl(path, opts.query), {
    method: opts.method ?? (body ? "POST" : "GET"),
    headers,
    body,
    credentials: "include",
    signal,
  });
}

async function parse(res: Response): Promise<Record<string, unknown> | null> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Calls the API and returns the parsed JSON; throws `ApiError` with the server's `error` text. */
export async function api<T = Record<string, unknown>>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    const sentWith = tokens.access;
    res = await send(path, opts);
    if (res.status === 401 && !opts.noRetry && tokens.refresh) {
      // Renewed meanwhile by a concurrent request: repeat with the new token instead of refreshing again.
      const renewed = Boolean(tokens.access) && tokens.access !== sentWith;
      const outcome = renewed ? "renewed" : await refreshSession();
      if (outcome === "renewed") res = await send(path, opts);
      else if (outcome === "refused") hooks.onSessionExpired?.();
      else throw new ApiError(0, NO_RESPONSE);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof DOMException && err.name === "TimeoutError") throw new ApiError(0, "timeout");
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, NO_RESPONSE);
  }
  const body = await parse(res);
  if (!res.ok || body?.success === false) {
    const message = typeof body?.error === "string"
      ? body.error
      : typeof body?.message === "string"
      ? body.message
      : `${res.status} ${res.statusText}`;
    const error = new ApiError(res.status, message, body);
    if (error.isBan) hooks.onBanned?.(String(body?.ban_reason ?? message));
    if (res.status === 503 && body?.maintenance === true) hooks.onMaintenance?.();
    throw error;
  }
  return body as T;
}

/** The server's error text, or the fallback the spec gives for the screen. */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.message && err.status !== 0) return err.message;
  if (err instanceof ApiError && err.message === NO_RESPONSE) return NO_RESPONSE;
  return fallback;
}

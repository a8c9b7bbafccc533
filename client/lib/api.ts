import type { ClientRequestOptions } from "hono/client";
import type { ApiRoutes } from "../../server/app.ts";
import { isBanMessage } from "../../domain/ban.ts";
import { STORAGE_KEYS } from "./storage-keys.ts";
import { typedClient } from "./typed-client.ts";

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
  /** The server's own `error` text, trimmed; "" when the answer carried none. */
  get serverText(): string {
    return typeof this.body?.error === "string" ? this.body.error.trim() : "";
  }
  /** True when the server said the account is banned. */
  get isBan(): boolean {
    const text = `${this.message} ${this.body?.ban_reason ?? ""}`;
    return this.status === 403 && (Boolean(this.body?.banned) || isBanMessage(text));
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
  /**
   * The panels' answers, written out for staff (decision 0305) by a staff module that client/router.tsx
   * names here, so the public pages do not carry it (decision 0432).
   */
  staffAnswer?: (body: Record<string, unknown>) => Promise<Record<string, unknown>>;
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
      // The renewal itself goes around `apiFetch`: it sends the refresh token, never retries, and
      // reads every status here. The typed client still types its answer.
      const res = await client.auth.refresh.$post(undefined, {
        fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, credentials: "include" }),
        headers: { Authorization: `Bearer ${refresh}` },
      });
      if (res.status === 403) {
        // A banned account cannot renew its session: say so instead of a silent sign-out.
        const body: Record<string, unknown> | null = await res.json().catch(() => null);
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

/** What a call may change about the defaults. */
export interface CallOptions {
  timeoutMs?: number;
  /** Skip the refresh-and-retry (sign-in calls, the logout, the public settings). */
  noRetry?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Drops empty query values, as every call has always done: "" means "no filter" to the server. */
function withoutEmptyQuery(input: string): string {
  const at = input.indexOf("?");
  if (at < 0) return input;
  const params = new URLSearchParams(input.slice(at + 1));
  for (const [k, v] of [...params]) if (v === "") params.delete(k);
  const query = params.toString();
  return input.slice(0, at) + (query ? `?${query}` : "");
}

async function send(input: string, init: RequestInit, opts: CallOptions): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
  if (!headers.has("Accept")) headers.set("Accept", "application/json");
  const access = tokens.access;
  if (access && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${access}`);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? API_TIMEOUT_MS);
  const given = init.signal ?? opts.signal;
  const signal = given ? AbortSignal.any([given, timeout]) : timeout;
  return await fetch(input, { ...init, headers, credentials: "include", signal });
}

function parse(text: string): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

/** Statuses whose response may not carry a body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The `fetch` the typed client sends through: bearer token, time-out, one refresh-and-retry per
 * 401, ban and maintenance hooks. Any failure (no answer, an error status, `success: false`)
 * throws `ApiError` with the server's `error` text, so a call that resolves is a success.
 */
export function apiFetch(opts: CallOptions = {}) {
  return async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = withoutEmptyQuery(input instanceof Request ? input.url : String(input));
    let res: Response;
    try {
      const sentWith = tokens.access;
      res = await send(url, init, opts);
      if (res.status === 401 && !opts.noRetry && tokens.refresh) {
        // Renewed meanwhile by a concurrent request: repeat with the new token instead of refreshing again.
        const renewed = Boolean(tokens.access) && tokens.access !== sentWith;
        const outcome = renewed ? "renewed" : await refreshSession();
        if (outcome === "renewed") res = await send(url, init, opts);
        else if (outcome === "refused") hooks.onSessionExpired?.();
        else throw new ApiError(0, NO_RESPONSE);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (err instanceof DOMException && err.name === "TimeoutError") throw new ApiError(0, "timeout");
      if (err instanceof DOMException && err.name === "AbortError") throw err;
      throw new ApiError(0, NO_RESPONSE);
    }
    const text = await res.text();
    const body = parse(text);
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
    // Staff never see a hidden character raw (decision 0305): the panels' answers have them written out.
    const shown = body && hooks.staffAnswer && isStaffAnswer(url) ? await hooks.staffAnswer(body) : body;
    return new Response(NULL_BODY.has(res.status) ? null : shown === body ? text : JSON.stringify(shown), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** A staff answer's path: the admin and moderator panels' calls. */
const STAFF_PATH = /^(?:[a-z]+:\/\/[^/]+)?\/api\/(?:admin|moderator)\//;

export function isStaffAnswer(url: string): boolean {
  return STAFF_PATH.test(url);
}

/**
 * The API, typed by the server's own routes (docs/decisions/0135-typed-api-client.md): a renamed
 * field or path breaks `deno task check` here instead of a page in the browser. Only types come
 * from the server; `import type` keeps its code out of the bundle. The calls are made as hono's `hc`
 * makes them, by a smaller copy of it (typed-client.ts, decision 0430).
 */
export const client = typedClient<ApiRoutes>("/api", { fetch: apiFetch() });

/** Per-call options for a typed call: `client.x.$get(args, callOptions({ signal }))`. */
export function callOptions(opts: CallOptions): ClientRequestOptions {
  return { fetch: apiFetch(opts), init: opts.signal ? { signal: opts.signal } : undefined };
}

/**
 * Options carrying a body for the routes that read it themselves (multipart streams, loose JSON or
 * form bodies): they declare no validator, so the typed client knows their answer but not their
 * input. FormData goes as it is (the browser writes the boundary), anything else as JSON.
 */
export function rawBody(body: FormData | Record<string, unknown>, opts: CallOptions = {}): ClientRequestOptions {
  const json = !(body instanceof FormData);
  const headers: Record<string, string> = json
    ? { ...opts.headers, "Content-Type": "application/json" }
    : { ...opts.headers };
  return {
    fetch: apiFetch({ ...opts, headers }),
    init: { body: json ? JSON.stringify(body) : body, ...(opts.signal ? { signal: opts.signal } : {}) },
  };
}

/** The JSON of a typed call that succeeded (failures have already thrown `ApiError`). */
export async function read<T>(call: Promise<{ json(): Promise<T> }>): Promise<T> {
  return await (await call).json();
}

/**
 * The one error text of the front end (spec 1 §8, spec 2 §8): the server's `error` text when it sent
 * one; otherwise `fallback` when the server answered, or `noAnswer` when no answer came at all.
 */
export function errorText(err: unknown, fallback: string, noAnswer = fallback): string {
  if (err instanceof ApiError && err.status > 0) return err.serverText || fallback;
  return noAnswer;
}

import type { InferResponseType } from "hono/client";
import { callOptions, client, read } from "./api.ts";
import { STORAGE_KEYS } from "./storage-keys.ts";

/**
 * Provider windows (VK ID, Telegram) and the record of which ones this browser opened
 * (docs/decisions/0016, 0017, 0019). A provider's answer that arrives in an address is acted on only
 * when this browser started that sign-in or link moments before: an address someone else sent
 * (their VK code and state, their Telegram result) signs nobody in. Shared by sign-in and by the
 * profile's account linking.
 */

/** GET /api/auth/oauth/urls (spec 1 §3 "OAuth addresses response"). Null: provider not configured. */
export type OauthUrls = InferResponseType<typeof client.auth.oauth.urls.$get>;

export type Provider = "vk" | "telegram";
/** What the provider's answer is for: signing in, or linking it to the signed-in account. */
export type Purpose = "sign-in" | "link";

/** Fresh every time: the VK address carries a single-use state, so it is never cached. */
export function fetchOauthUrls(): Promise<OauthUrls> {
  return read(client.auth.oauth.urls.$get(undefined, callOptions({ noRetry: true })));
}

/** A provider window this browser opened. */
export interface ProviderStart {
  provider: Provider;
  purpose: Purpose;
  session_id: string;
  /** VK: the state in the authorize address, which comes back with the code. */
  state: string | null;
  /** Opened in a pop-up (else in this window, when pop-ups are blocked). */
  popup: boolean;
  started_at: number;
}

/** As long as the server keeps a started sign-in (OAUTH_STATE_TTL_S). */
export const START_MAX_AGE_MS = 10 * 60_000;
const MAX_STARTS = 5;
const POPUP_FEATURES = "popup,width=640,height=760";
/** Per window (session storage): this window is finishing a start, and whether it is a pop-up. */
const FINISHING_KEY = "oauth_finishing";

function liveStarts(now = Date.now()): ProviderStart[] {
  try {
    const list = JSON.parse(localStorage.getItem(STORAGE_KEYS.oauthStarts) ?? "[]");
    if (!Array.isArray(list)) return [];
    return list.filter((s): s is ProviderStart =>
      s && typeof s === "object" && (s.provider === "vk" || s.provider === "telegram") &&
      typeof s.session_id === "string" && typeof s.started_at === "number" &&
      now - s.started_at >= 0 && now - s.started_at < START_MAX_AGE_MS
    );
  } catch {
    return [];
  }
}

function saveStarts(list: ProviderStart[]) {
  if (list.length) localStorage.setItem(STORAGE_KEYS.oauthStarts, JSON.stringify(list.slice(0, MAX_STARTS)));
  else localStorage.removeItem(STORAGE_KEYS.oauthStarts);
}

/** Takes (removes) the newest live start that `match` accepts; null when this browser has none. */
function takeStart(match: (s: ProviderStart) => boolean): ProviderStart | null {
  const list = liveStarts();
  const i = list.findIndex(match);
  if (i < 0) {
    saveStarts(list);
    return null;
  }
  const [start] = list.splice(i, 1);
  saveStarts(list);
  return start;
}

/**
 * Opens a provider address in a new window (in this one when pop-ups are blocked) and records the
 * start, so that the answer is accepted when it comes back to this browser.
 */
export function openProviderWindow(
  address: string,
  start: { provider: Provider; purpose: Purpose; session_id: string },
): ProviderStart {
  const state = start.provider === "vk" ? new URL(address).searchParams.get("state") : null;
  const win = globalThis.open(address, start.provider === "vk" ? "vk-auth" : "telegram-auth", POPUP_FEATURES);
  const record: ProviderStart = { ...start, state, popup: Boolean(win), started_at: Date.now() };
  saveStarts([record, ...liveStarts()]);
  localStorage.setItem(STORAGE_KEYS.oauthSessionId, start.session_id);
  if (!win) location.assign(address);
  return record;
}

/**
 * The VK sign-in, or the profile's VK link, this browser started with `state`; null when it did not
 * start one (or it expired).
 */
export function takeVkStart(state: string): ProviderStart | null {
  return takeStart((s) => s.provider === "vk" && s.state === state);
}

/** True when this browser started a VK link (from the profile) with `state`; nothing is taken. */
export function hasVkLinkStart(state: string): boolean {
  return liveStarts().some((s) => s.provider === "vk" && s.purpose === "link" && s.state === state);
}

/** The provider this window is finishing a start of (see `markFinishing`), or null; nothing is cleared. */
export function finishingProvider(): Provider | null {
  try {
    const provider = JSON.parse(sessionStorage.getItem(FINISHING_KEY) ?? "null")?.provider;
    return provider === "vk" || provider === "telegram" ? provider : null;
  } catch {
    return null;
  }
}

/** The Telegram sign-in or link this browser started moments before; null when there is none. */
export function takeTelegramStart(purpose: Purpose): ProviderStart | null {
  return takeStart((s) => s.provider === "telegram" && s.purpose === purpose);
}

/**
 * Remembers in this window that it finishes `start`: the VK answer passes through the server and
 * comes back to another page, which then knows whether it is in the pop-up.
 */
export function markFinishing(start: ProviderStart) {
  sessionStorage.setItem(FINISHING_KEY, JSON.stringify({ provider: start.provider, popup: start.popup }));
}

/** Closing this window; replaced in component tests. */
export const windowControl = {
  /** Closes this window; true when the browser let the script close it. */
  close(): boolean {
    globalThis.close();
    return globalThis.closed === true;
  },
};

/**
 * After a finished sign-in or link: a pop-up this browser opened closes itself (the window that
 * opened it follows through local storage). True when it closed; false in the site's own window,
 * or when the browser refused, and the page then carries on as a normal page.
 */
export function closeIfProviderWindow(start?: ProviderStart | null): boolean {
  let popup = start?.popup ?? false;
  const mark = sessionStorage.getItem(FINISHING_KEY);
  sessionStorage.removeItem(FINISHING_KEY);
  if (!start && mark) {
    try {
      popup = JSON.parse(mark).popup === true;
    } catch {
      popup = false;
    }
  }
  return popup && windowControl.close();
}

/** The Telegram address with the answer sent to the profile instead of the sign-in callback page. */
export function telegramLinkAddress(telegramUrl: string): string {
  const url = new URL(telegramUrl);
  url.searchParams.set("return_to", `${location.origin}/profile`);
  return url.toString();
}

/** `tgAuthResult` from an address: Telegram puts it in the fragment; the query is accepted too. */
export function tgAuthResultIn(search: string, hash: string): string | null {
  return new URLSearchParams(search).get("tgAuthResult") ??
    new URLSearchParams(hash.replace(/^#/, "")).get("tgAuthResult");
}

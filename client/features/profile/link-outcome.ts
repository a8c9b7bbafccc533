import { useEffect } from "react";
import { auth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";

/**
 * How a finished account link (VK or Telegram, from the profile) reaches the page that started it:
 * through storage to the window that opened the provider, and as an event in this one. Each outcome
 * names its provider, so the VK form never takes a Telegram result and the other way round.
 */
export type LinkProvider = "vk" | "telegram";

export interface LinkOutcome {
  ok: boolean;
  message: string;
}

const EVENTS: Record<LinkProvider, string> = { vk: "vk-link-outcome", telegram: "telegram-link-outcome" };

function readOutcome(raw: string | null, provider: LinkProvider): LinkOutcome | null {
  try {
    const value = JSON.parse(raw ?? "null");
    return value && value.provider === provider && typeof value.ok === "boolean" && typeof value.message === "string"
      ? value
      : null;
  } catch {
    return null;
  }
}

/** Shows a finished link where the person is: a flash, and the profile with its new account reloaded. */
export function showLinkOutcome(outcome: LinkOutcome) {
  flash(outcome.ok ? "success" : "error", outcome.message);
  if (outcome.ok) auth.loadUser().catch(() => null);
}

/** Hands the outcome to the opener (storage); a provider window then closes, else this page shows it. */
export function announceLinkOutcome(
  provider: LinkProvider,
  outcome: LinkOutcome,
  closeIfProviderWindow: () => boolean,
) {
  localStorage.setItem(STORAGE_KEYS.oauthLinkResult, JSON.stringify({ ...outcome, provider, at: Date.now() }));
  if (closeIfProviderWindow()) return;
  showLinkOutcome(outcome);
  globalThis.dispatchEvent(new CustomEvent(EVENTS[provider], { detail: outcome }));
}

/** Calls `settle` with each outcome of this provider: from another window (shown here too) or this one's. */
export function useLinkOutcome(provider: LinkProvider, settle: (outcome: LinkOutcome) => void) {
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== STORAGE_KEYS.oauthLinkResult || !e.newValue) return;
      const outcome = readOutcome(e.newValue, provider);
      if (!outcome) return;
      settle(outcome);
      showLinkOutcome(outcome);
    };
    const onLocal = (e: Event) => settle((e as CustomEvent<LinkOutcome>).detail);
    const listening = new AbortController();
    globalThis.addEventListener("storage", onStorage, { signal: listening.signal });
    globalThis.addEventListener(EVENTS[provider], onLocal, { signal: listening.signal });
    return () => listening.abort();
    // `settle` only sets the form's state; the listeners are made once per mount.
  }, [provider]);
}

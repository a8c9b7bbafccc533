import { useEffect, useState } from "react";
import { errorText } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import {
  closeIfProviderWindow,
  fetchOauthUrls,
  openProviderWindow,
  takeTelegramStart,
  telegramLinkAddress,
  tgAuthResultIn,
} from "../../lib/oauth.ts";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";
import { useLinkAccounts } from "./api.ts";
import { PROFILE_TEXTS } from "./profile-rules.ts";

/**
 * Linking Telegram to an account made with VK (spec 1 §1, §7 link_vk_to_telegram;
 * docs/decisions/0019): the person signs in to Telegram in a provider window, Telegram sends the
 * signed result back to /profile, and that page links it with the current account. The window
 * then closes itself and the profile that opened it shows the outcome.
 */
interface LinkOutcome {
  ok: boolean;
  message: string;
}

/** Delivered in this window as an event, and to the window that opened the provider through storage. */
const LINK_EVENT = "telegram-link-outcome";

const linkErrorText = (err: unknown) => errorText(err, PROFILE_TEXTS.linkFailed, PROFILE_TEXTS.linkError);

function readOutcome(raw: string | null): LinkOutcome | null {
  try {
    const value = JSON.parse(raw ?? "null");
    return value && typeof value.ok === "boolean" && typeof value.message === "string" ? value : null;
  } catch {
    return null;
  }
}

/** Shows a finished link where the person is: a flash, and the profile with its new Telegram ID. */
function showOutcome(outcome: LinkOutcome) {
  flash(outcome.ok ? "success" : "error", outcome.message);
  if (outcome.ok) auth.loadUser().catch(() => null);
}

/**
 * On /profile: a Telegram result in the address (the provider window came back here) is linked when
 * this browser started a Telegram link moments before, and only then: a link someone else sent with
 * their result in it links nothing. The address is cleaned either way.
 */
export function useTelegramLinkArrival() {
  const link = useLinkAccounts();
  useEffect(() => {
    const result = tgAuthResultIn(location.search, location.hash);
    if (result === null) return;
    history.replaceState(history.state, "", location.pathname);
    const start = takeTelegramStart("link");
    if (!start || !result) {
      showOutcome({ ok: false, message: PROFILE_TEXTS.linkFailed });
      return;
    }
    link.mutateAsync({ action: "link_vk_to_telegram", telegram_hash: result }).then(
      (body) => ({ ok: true, message: body.message || PROFILE_TEXTS.telegramLinked }),
      (err) => ({ ok: false, message: linkErrorText(err) }),
    ).then((outcome: LinkOutcome) => {
      localStorage.setItem(STORAGE_KEYS.oauthLinkResult, JSON.stringify({ ...outcome, at: Date.now() }));
      if (closeIfProviderWindow(start)) return;
      showOutcome(outcome);
      globalThis.dispatchEvent(new CustomEvent(LINK_EVENT, { detail: outcome }));
    });
  }, []);
}

/** The profile's "Привязать Telegram" section, for an account that has VK and no Telegram yet. */
export function LinkTelegramForm() {
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The outcome, from the provider window (through storage) or from this page's own arrival.
  useEffect(() => {
    const settle = (outcome: LinkOutcome | null, fromOtherWindow: boolean) => {
      if (!outcome) return;
      setConnecting(false);
      setError(outcome.ok ? null : outcome.message);
      if (fromOtherWindow) showOutcome(outcome);
    };
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEYS.oauthLinkResult && e.newValue) settle(readOutcome(e.newValue), true);
    };
    const onLocal = (e: Event) => settle((e as CustomEvent<LinkOutcome>).detail, false);
    globalThis.addEventListener("storage", onStorage);
    globalThis.addEventListener(LINK_EVENT, onLocal);
    return () => {
      globalThis.removeEventListener("storage", onStorage);
      globalThis.removeEventListener(LINK_EVENT, onLocal);
    };
  }, []);

  // The provider window is separate: once the person comes back to this one, the button is idle again.
  useEffect(() => {
    if (!connecting) return;
    const idle = () => setConnecting(false);
    const timer = setTimeout(() => globalThis.addEventListener("focus", idle, { once: true }), 500);
    return () => {
      clearTimeout(timer);
      globalThis.removeEventListener("focus", idle);
    };
  }, [connecting]);

  const start = async () => {
    if (connecting) return;
    setError(null);
    setConnecting(true);
    try {
      const urls = await fetchOauthUrls();
      if (!urls.telegram) {
        setError(PROFILE_TEXTS.telegramUnavailable);
        setConnecting(false);
        return;
      }
      openProviderWindow(telegramLinkAddress(urls.telegram), {
        provider: "telegram",
        purpose: "link",
        session_id: urls.session_id,
      });
    } catch (err) {
      setError(linkErrorText(err));
      setConnecting(false);
    }
  };

  return (
    <section className="section stack" aria-labelledby="link-telegram-title">
      <h2 id="link-telegram-title" className="label" style={{ fontSize: 16, margin: 0 }}>Привязать Telegram</h2>
      <p className="hint" style={{ margin: 0 }}>
        Войдите в Telegram в открывшемся окне: этот Telegram присоединится к вашему аккаунту, и входить можно будет
        через любой из них.
      </p>
      <div className="row" style={{ gap: 12 }}>
        <button type="button" className="btn" disabled={connecting} aria-busy={connecting} onClick={start}>
          {connecting ? "Подключение..." : "Привязать"}
        </button>
      </div>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
    </section>
  );
}

import { useEffect, useState } from "react";
import { errorText } from "../../lib/api.ts";
import {
  closeIfProviderWindow,
  fetchOauthUrls,
  openProviderWindow,
  takeTelegramStart,
  telegramLinkAddress,
  tgAuthResultIn,
} from "../../lib/oauth.ts";
import { useLinkAccounts } from "./api.ts";
import { PROFILE_TEXTS } from "./profile-rules.ts";
import { announceLinkOutcome, type LinkOutcome, showLinkOutcome, useLinkOutcome } from "./link-outcome.ts";

/**
 * Linking Telegram to an account made with VK (spec 1 §1, §7 link_vk_to_telegram;
 * docs/decisions/0019): the person signs in to Telegram in a provider window, Telegram sends the
 * signed result back to /profile, and that page links it with the current account. The window
 * then closes itself and the profile that opened it shows the outcome.
 */
const linkErrorText = (err: unknown) => errorText(err, PROFILE_TEXTS.linkFailed, PROFILE_TEXTS.linkError);

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
      showLinkOutcome({ ok: false, message: PROFILE_TEXTS.linkFailed });
      return;
    }
    link.mutateAsync({ action: "link_vk_to_telegram", telegram_hash: result }).then(
      (body) => ({ ok: true, message: body.message || PROFILE_TEXTS.telegramLinked }),
      (err) => ({ ok: false, message: linkErrorText(err) }),
    ).then((outcome: LinkOutcome) => {
      announceLinkOutcome("telegram", outcome, () => closeIfProviderWindow(start));
    });
  }, []);
}

/** The profile's "Привязать Telegram" section, for an account that has VK and no Telegram yet. */
export function LinkTelegramForm() {
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The outcome, from the provider window (through storage) or from this page's own arrival.
  useLinkOutcome("telegram", (outcome) => {
    setConnecting(false);
    setError(outcome.ok ? null : outcome.message);
  });

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

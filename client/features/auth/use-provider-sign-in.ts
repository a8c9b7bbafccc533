import { useCallback, useEffect, useRef, useState } from "react";
import { errorText, NO_RESPONSE } from "../../lib/api.ts";
import { flash } from "../../lib/flash.ts";
import { fetchOauthUrls, type OauthUrls, openProviderWindow, type Provider } from "../../lib/oauth.ts";
import { AUTH_TEXTS, withDetail } from "./texts.ts";

/**
 * Sign-in buttons' state (spec 1 §4 "Login button": idle → connecting → redirect). The VK address
 * carries a single-use state, so a fresh set of addresses is fetched after each use.
 */
export function useProviderSignIn(opts: { autoLoad: boolean; loadErrorText: "init" | "options" }) {
  const [urls, setUrls] = useState<OauthUrls | null>(null);
  const [loading, setLoading] = useState(false);
  const [connecting, setConnecting] = useState<Provider | null>(null);
  const [error, setError] = useState<string | null>(null);
  const alive = useRef(true);
  const inflight = useRef<Promise<OauthUrls | null> | null>(null);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const load = useCallback((report = true): Promise<OauthUrls | null> => {
    inflight.current ??= (async () => {
      setLoading(true);
      try {
        const next = await fetchOauthUrls();
        if (alive.current) setUrls(next);
        return next;
      } catch (err) {
        if (alive.current && report) {
          setError(
            opts.loadErrorText === "init"
              ? withDetail(AUTH_TEXTS.initError, errorText(err, "", NO_RESPONSE))
              : AUTH_TEXTS.optionsError,
          );
        }
        return null;
      } finally {
        inflight.current = null;
        if (alive.current) setLoading(false);
      }
    })();
    return inflight.current;
  }, [opts.loadErrorText]);

  useEffect(() => {
    if (opts.autoLoad && !urls) load();
  }, [opts.autoLoad]);

  // The provider window is separate: once the person comes back to this one, the button is idle again.
  useEffect(() => {
    if (!connecting) return;
    const idle = () => setConnecting(null);
    const timer = setTimeout(() => globalThis.addEventListener("focus", idle, { once: true }), 500);
    return () => {
      clearTimeout(timer);
      globalThis.removeEventListener("focus", idle);
    };
  }, [connecting]);

  const start = useCallback(async (provider: Provider) => {
    setError(null);
    setConnecting(provider);
    const current = urls ?? (await load(false));
    if (!current) {
      setError(AUTH_TEXTS.urlError);
      setConnecting(null);
      return;
    }
    const address = current[provider];
    if (!address) {
      setError(provider === "vk" ? AUTH_TEXTS.vkErrorShort : AUTH_TEXTS.telegramError);
      setConnecting(null);
      return;
    }
    try {
      // Recorded, so that the answer is accepted when it comes back to this browser.
      openProviderWindow(address, { provider, purpose: "sign-in", session_id: current.session_id });
    } catch {
      setError(AUTH_TEXTS.startError);
      flash("error", AUTH_TEXTS.startErrorFlash);
      setConnecting(null);
      return;
    }
    // The state in this address is now spent; have a fresh one ready for another attempt.
    setUrls(null);
    load(false);
  }, [urls, load]);

  return { urls, loading, connecting, error, setError, start, load };
}

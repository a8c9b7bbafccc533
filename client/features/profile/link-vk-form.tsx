import { useEffect, useState } from "react";
import { errorText } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import { closeIfProviderWindow, fetchOauthUrls, finishingProvider, openProviderWindow } from "../../lib/oauth.ts";
import { useLinkAccounts } from "./api.ts";
import { PROFILE_TEXTS } from "./profile-rules.ts";
import { announceLinkOutcome, type LinkOutcome, useLinkOutcome } from "./link-outcome.ts";

/**
 * Linking a VK account to an account made with Telegram (spec 1 §1, §7 link_telegram_to_vk): the
 * phone is recorded, then the person signs in to VK from here, in a provider window started by this
 * signed-in session. VK comes back through the server to /profile; the VK account joins this one
 * when VK verified the same phone and it has no account here yet. A claim alone links nothing: a
 * stranger's VK sign-in with that phone gets its own account (decision 0204).
 */

/**
 * On /profile: the server's answer to a VK link (`vk_linked=1` or `error`), acted on only in the
 * window that is finishing a VK start of this browser. The address is cleaned; a provider pop-up
 * closes itself and the profile that opened it shows the outcome.
 */
export function useVkLinkArrival() {
  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const linked = q.get("vk_linked");
    const error = q.get("error");
    if (linked === null && error === null) return;
    if (finishingProvider() !== "vk") return;
    history.replaceState(history.state, "", location.pathname);
    const outcome: LinkOutcome = linked === "1"
      ? { ok: true, message: PROFILE_TEXTS.vkLinked }
      : { ok: false, message: error || PROFILE_TEXTS.linkFailed };
    announceLinkOutcome("vk", outcome, () => closeIfProviderWindow());
  }, []);
}

export function LinkVkForm() {
  const [phone, setPhone] = useState("");
  const [busy, setBusy] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const link = useLinkAccounts();

  // The outcome of the VK window, through storage (a pop-up) or from this page's own arrival.
  useLinkOutcome("vk", (outcome) => {
    setConnecting(false);
    setError(outcome.ok ? null : outcome.message);
  });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy || !phone.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const body = await link.mutateAsync({ action: "link_telegram_to_vk", phone_number: phone.trim() });
      setDone(body.message || PROFILE_TEXTS.linkPending);
      flash("success", body.message || PROFILE_TEXTS.linkPending);
      await auth.loadUser().catch(() => null);
    } catch (err) {
      setError(errorText(err, PROFILE_TEXTS.linkFailed, PROFILE_TEXTS.linkError));
    } finally {
      setBusy(false);
    }
  };

  /** The VK sign-in, started from this signed-in session: the server then links instead of signing in. */
  const startVk = async () => {
    if (connecting) return;
    setError(null);
    setConnecting(true);
    try {
      const urls = await fetchOauthUrls();
      if (!urls.vk) {
        setError(PROFILE_TEXTS.vkUnavailable);
        setConnecting(false);
        return;
      }
      openProviderWindow(urls.vk, { provider: "vk", purpose: "link", session_id: urls.session_id });
    } catch (err) {
      setError(errorText(err, PROFILE_TEXTS.linkFailed, PROFILE_TEXTS.linkError));
      setConnecting(false);
    }
  };

  return (
    <form className="section stack" onSubmit={submit} noValidate aria-labelledby="link-vk-title">
      <h2 id="link-vk-title" className="label" style={{ fontSize: 16, margin: 0 }}>Привязать ВКонтакте</h2>
      <p className="hint" style={{ margin: 0 }}>
        Укажите номер телефона из ВКонтакте, затем войдите через ВКонтакте отсюда: аккаунт ВКонтакте с этим номером
        присоединится к этому аккаунту.
      </p>
      {done
        ? (
          <>
            <div className="alert alert-success" role="status">{done}</div>
            <div className="row" style={{ gap: 12 }}>
              <button type="button" className="btn" disabled={connecting} aria-busy={connecting} onClick={startVk}>
                {connecting ? "Подключение..." : "Войти через ВКонтакте"}
              </button>
            </div>
          </>
        )
        : (
          <div className="row" style={{ gap: 12, flexWrap: "wrap", alignItems: "flex-end" }}>
            <div className="field" style={{ flex: "1 1 200px" }}>
              <label className="label" htmlFor="link-phone">Телефон</label>
              <input
                id="link-phone"
                className="input"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
                placeholder="+7 999 123-45-67"
              />
            </div>
            <button type="submit" className="btn" disabled={busy || !phone.trim()}>
              {busy ? "Сохранение..." : "Привязать"}
            </button>
          </div>
        )}
      {error && <div className="alert alert-error" role="alert">{error}</div>}
    </form>
  );
}

import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { ApiError, errorText, NO_RESPONSE } from "../../lib/api.ts";
import { banMessage as banText, isBanMessage } from "../../../domain/ban.ts";
import { auth, useAuth } from "../../lib/auth.ts";
import { closeIfProviderWindow, markFinishing, takeTelegramStart, takeVkStart } from "../../lib/oauth.ts";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";
import { completeTelegram, exchangeLoginCode, vkCallbackAddress } from "./api.ts";
import { readArrival } from "./arrival.ts";
import { ProviderButtons } from "./provider-buttons.tsx";
import { AUTH_TEXTS, withDetail } from "./texts.ts";
import { useProviderSignIn } from "./use-provider-sign-in.ts";
import "./auth.css";

/**
 * Signs in with a Telegram result of the sign-in `sessionId` this browser started; a ban opens the
 * ban modal. Shared by /login and the callback page.
 */
export async function signInWithTelegram(result: string, sessionId: string) {
  try {
    auth.acceptAuthResponse(await completeTelegram(result, sessionId));
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) auth.banned(String(err.body?.ban_reason ?? err.message));
    else auth.clear();
    throw err;
  }
}

/**
 * Signs in with the VK callback's one-time login code (decision 0202); a ban opens the ban modal.
 * Shared by /login and the callback page.
 */
export async function signInWithLoginCode(code: string) {
  try {
    auth.acceptAuthResponse(await exchangeLoginCode(code));
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) auth.banned(String(err.body?.ban_reason ?? err.message));
    throw err;
  }
}

/** Вход в систему (spec 1 §2 "/login"): the arrival rules, then the two provider buttons. */
export function LoginPage() {
  const navigate = useNavigate();
  const { isAuthenticated } = useAuth();
  const [busy, setBusy] = useState(true);
  const [banMessage, setBanMessage] = useState<string | null>(null);
  const [arrivalError, setArrivalError] = useState<string | null>(null);
  const [needUrls, setNeedUrls] = useState(false);
  const handled = useRef(false);
  const signIn = useProviderSignIn({ autoLoad: needUrls, loadErrorText: "init" });

  const cleanAddress = () => navigate({ to: "/login", search: {}, hash: "", replace: true });

  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const arrival = readArrival(location.search, location.hash);
    const finish = () => {
      setBusy(false);
      setNeedUrls(true);
    };
    switch (arrival.kind) {
      case "ban":
        setBanMessage(banText(arrival.message));
        cleanAddress();
        finish();
        return;
      case "telegram": {
        cleanAddress();
        // Only a result for a Telegram sign-in this browser started moments before: a link with
        // someone else's result signs nobody in (login CSRF).
        const start = takeTelegramStart("sign-in");
        if (!start) {
          setArrivalError(withDetail(AUTH_TEXTS.telegramLoginError, AUTH_TEXTS.sessionInvalid));
          finish();
          return;
        }
        signInWithTelegram(arrival.result, start.session_id)
          .then(() => {
            if (!closeIfProviderWindow(start)) navigate({ to: "/", replace: true });
          })
          .catch((err) => {
            if (!(err instanceof ApiError && err.isBan)) {
              setArrivalError(withDetail(AUTH_TEXTS.telegramLoginError, errorText(err, "", NO_RESPONSE)));
            }
            finish();
          });
        return;
      }
      case "login-code":
        cleanAddress();
        signInWithLoginCode(arrival.code)
          .then(() => {
            if (!closeIfProviderWindow()) navigate({ to: "/", replace: true });
          })
          .catch((err) => {
            if (!(err instanceof ApiError && err.isBan)) {
              setArrivalError(withDetail(AUTH_TEXTS.loginCodeError, errorText(err, "", NO_RESPONSE)));
            }
            finish();
          });
        return;
      case "tokens":
        auth.acceptTokenLink(arrival.access, arrival.refresh)
          .then(() => navigate({ to: "/", replace: true }))
          .catch((err) => {
            if (!(err instanceof ApiError && err.isBan)) setArrivalError(AUTH_TEXTS.processError);
            cleanAddress();
            finish();
          });
        return;
      case "vk-code": {
        // Only a state this browser stored when it opened the VK window: a code and state someone
        // else sent sign nobody in (login CSRF). The server checks the same with its cookie.
        const start = takeVkStart(arrival.state);
        if (!start) {
          localStorage.removeItem(STORAGE_KEYS.oauthSessionId);
          setArrivalError(withDetail(AUTH_TEXTS.vkError, AUTH_TEXTS.sessionInvalid));
          cleanAddress();
          finish();
          return;
        }
        markFinishing(start);
        // The code goes on to the backend, which exchanges it and comes back with tokens.
        location.replace(
          vkCallbackAddress({ code: arrival.code, state: arrival.state, device_id: arrival.deviceId }, start.purpose),
        );
        return;
      }
      case "vk-error":
        localStorage.removeItem(STORAGE_KEYS.oauthSessionId);
        setArrivalError(withDetail(AUTH_TEXTS.vkError, arrival.error));
        cleanAddress();
        finish();
        return;
      default:
        finish();
    }
  }, []);

  // Signed in meanwhile (in the provider window or another tab): go home.
  useEffect(() => {
    if (isAuthenticated && !busy) navigate({ to: "/", replace: true });
  }, [isAuthenticated, busy]);

  const error = arrivalError ?? signIn.error;
  return (
    <section className="page auth-page">
      <div className="card auth-card">
        <h1>{AUTH_TEXTS.loginTitle}</h1>
        {banMessage && (
          <div className={isBanMessage(banMessage) ? "alert alert-error auth-ban" : "alert alert-warning"} role="alert">
            {banMessage}
          </div>
        )}
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        {busy
          ? (
            <p className="auth-progress" role="status">
              <span className="spinner" aria-hidden="true" /> {AUTH_TEXTS.processing}
            </p>
          )
          : (
            <>
              <ProviderButtons
                urls={signIn.urls}
                connecting={signIn.connecting}
                onStart={(p) => {
                  setArrivalError(null);
                  signIn.start(p);
                }}
              />
              {signIn.loading && !signIn.urls && (
                <p className="muted small auth-progress" role="status">
                  <span className="spinner" aria-hidden="true" /> Загрузка способов входа...
                </p>
              )}
            </>
          )}
        <p className="muted small auth-terms">
          {AUTH_TEXTS.termsPrefix} <Link to="/privacy">{AUTH_TEXTS.termsLink}</Link>.
        </p>
      </div>
    </section>
  );
}

import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { CheckIcon, CrossIcon } from "../../components/icons.tsx";
import { ApiError, errorText, NO_RESPONSE } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { setCompletingSignIn } from "../../lib/guards.ts";
import { closeIfProviderWindow, markFinishing, takeTelegramStart, takeVkStart } from "../../lib/oauth.ts";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";
import { vkCallbackAddress } from "./api.ts";
import { readArrival } from "./arrival.ts";
import { signInWithLoginCode, signInWithTelegram } from "./login-page.tsx";
import { AUTH_TEXTS, CALLBACK_REDIRECT_MS, withDetail } from "./texts.ts";
import "./auth.css";

type Phase = { kind: "processing" } | { kind: "success" } | { kind: "error"; message: string };

/** Completion of sign-in (spec 1 §2 "/auth/{provider}/callback"): progress, then success or error. */
export function AuthCallbackPage() {
  const { provider } = useParams({ strict: false }) as { provider?: string };
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ kind: "processing" });
  const handled = useRef(false);

  useEffect(() => {
    setCompletingSignIn(true);
    return () => setCompletingSignIn(false);
  }, []);

  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const arrival = readArrival(location.search, location.hash);
    // Tokens and results must not stay in the address bar or the history.
    if (arrival.kind !== "vk-code") {
      history.replaceState(history.state, "", location.pathname);
    }
    const fail = (message: string) => {
      localStorage.removeItem(STORAGE_KEYS.oauthSessionId);
      setPhase({ kind: "error", message });
    };
    const succeed = () => {
      setPhase({ kind: "success" });
      // A provider pop-up closes itself; the window that opened it follows (docs/decisions/0019).
      closeIfProviderWindow();
    };

    if (provider !== "vk" && provider !== "telegram") return fail(AUTH_TEXTS.unknownProvider);
    if (arrival.kind === "ban") {
      // The ban modal explains it and then takes the person to /login.
      auth.banned(arrival.message ?? undefined);
      return fail(arrival.message?.trim() || AUTH_TEXTS.banTitle);
    }
    if (arrival.kind === "tokens") {
      auth.acceptTokenLink(arrival.access, arrival.refresh).then(succeed, (err) => {
        if (!(err instanceof ApiError && err.isBan)) fail(AUTH_TEXTS.userDataError);
      });
      return;
    }
    if (arrival.kind === "login-code") {
      // The VK callback's one-time code (decision 0202).
      signInWithLoginCode(arrival.code).then(succeed, (err) => {
        if (err instanceof ApiError && err.isBan) return;
        fail(withDetail(AUTH_TEXTS.vkProviderError, errorText(err, "", NO_RESPONSE)));
      });
      return;
    }
    if (provider === "telegram") {
      if (arrival.kind !== "telegram" || !arrival.result) return fail(AUTH_TEXTS.telegramDataMissing);
      // Only a result for a Telegram sign-in this browser started moments before (login CSRF).
      const start = takeTelegramStart("sign-in");
      if (!start) return fail(withDetail(AUTH_TEXTS.telegramError, AUTH_TEXTS.sessionInvalid));
      markFinishing(start);
      signInWithTelegram(arrival.result, start.session_id).then(succeed, (err) => {
        if (err instanceof ApiError && err.isBan) return;
        fail(withDetail(AUTH_TEXTS.telegramError, errorText(err, "", NO_RESPONSE)));
      });
      return;
    }
    if (arrival.kind === "vk-code") {
      const start = takeVkStart(arrival.state);
      if (!start) return fail(withDetail(AUTH_TEXTS.vkProviderError, AUTH_TEXTS.sessionInvalid));
      markFinishing(start);
      location.replace(
        vkCallbackAddress({ code: arrival.code, state: arrival.state, device_id: arrival.deviceId }, start.purpose),
      );
      return;
    }
    if (arrival.kind === "vk-error") return fail(withDetail(AUTH_TEXTS.vkProviderError, arrival.error));
    fail(AUTH_TEXTS.missingData);
  }, []);

  useEffect(() => {
    if (phase.kind !== "success") return;
    const timer = setTimeout(() => navigate({ to: "/", replace: true }), CALLBACK_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [phase.kind]);

  return (
    <section className="page message-page auth-callback" aria-live="polite">
      {phase.kind === "processing" && (
        <>
          <div className="message-icon message-icon-success" aria-hidden="true">
            <span className="spinner auth-spinner-lg" />
          </div>
          <h1>Авторизация</h1>
          <p role="status">{AUTH_TEXTS.processing}</p>
        </>
      )}
      {phase.kind === "success" && (
        <>
          <div className="message-icon message-icon-success" aria-hidden="true">
            <CheckIcon size={36} />
          </div>
          <h1>Вход выполнен</h1>
          <p role="status">{AUTH_TEXTS.success}</p>
        </>
      )}
      {phase.kind === "error" && (
        <>
          <div className="message-icon message-icon-error" aria-hidden="true">
            <CrossIcon size={36} />
          </div>
          <h1>Ошибка авторизации</h1>
          <p role="alert">{phase.message}</p>
        </>
      )}
      {phase.kind !== "processing" && (
        <div className="cta-row">
          <Link to="/" className="btn btn-primary">{AUTH_TEXTS.home}</Link>
        </div>
      )}
    </section>
  );
}

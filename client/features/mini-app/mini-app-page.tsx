import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { ApiError, errorText } from "../../lib/api.ts";
import { auth, useAuth } from "../../lib/auth.ts";
import { signInWithLaunch, useStoreWriteAccess } from "./api.ts";
import { applyTheme, type Bridge, launchParams, telegramBridge } from "./telegram-bridge.ts";
import { MINI_APP_TEXTS as T } from "./texts.ts";
import "./mini-app.css";

type Tab = "tracks" | "upload";
type SignIn = { state: "pending" } | { state: "none" } | { state: "failed"; message: string } | { state: "done" };

interface Props {
  /** The artist's tracks with each direction's state, place in the queue and the label's comments. */
  tracks: ReactNode;
  /** The upload form; `onSent` is called once the files are sent (they are then processing). */
  upload: (onSent: () => void) => ReactNode;
}

/**
 * The artist's site inside Telegram (issue 36, docs/decisions/0382): signs in with the launch data,
 * then two views, «Мои треки» and «Отправить трек», switched by the page's tabs and by Telegram's
 * main and back buttons; the Telegram theme's colours; the offer to let the bot write when it may not.
 */
export function MiniAppPage({ tracks, upload }: Props) {
  const { isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  const [signIn, setSignIn] = useState<SignIn>({ state: "pending" });
  const [tab, setTab] = useState<Tab>("tracks");
  const [mayWrite, setMayWrite] = useState<boolean | null>(null);
  const bridge = useRef<Bridge | null>(null);
  const launch = useRef(launchParams());

  const start = () => {
    const initData = launch.current.initData;
    if (!initData) {
      setSignIn({ state: "none" });
      return;
    }
    setSignIn({ state: "pending" });
    signInWithLaunch(initData).then(
      (res) => {
        auth.acceptAuthResponse(res);
        setMayWrite(res.allows_write_to_pm);
        setSignIn({ state: "done" });
      },
      (err) => {
        // A ban opens the site's ban dialog (the API's hook); its message is shown here too.
        const message = err instanceof ApiError && err.isBan ? err.message : errorText(err, T.signInFailed);
        setSignIn({ state: "failed", message });
      },
    );
  };

  useEffect(() => {
    bridge.current = telegramBridge();
    bridge.current?.ready();
    const untheme = applyTheme(launch.current.theme);
    start();
    return untheme;
  }, []);

  // Telegram's buttons: the main one opens the upload from the list, the back one returns to it.
  const ready = signIn.state === "done" || (signIn.state === "none" && isAuthenticated);
  useEffect(() => {
    const b = bridge.current;
    if (!b || !ready) return;
    if (tab === "tracks") return b.mainButton(T.send, () => setTab("upload"));
    return b.backButton(() => setTab("tracks"));
  }, [tab, ready]);

  const sent = () => {
    setTab("tracks");
    void queryClient.invalidateQueries({ queryKey: ["my-tracks"] });
  };

  if (!ready) {
    return (
      <section className="mini-app" aria-labelledby="mini-app-title">
        <h1 id="mini-app-title" className="mini-app-title">{T.title}</h1>
        {signIn.state === "pending" && <p className="muted" role="status">{T.signingIn}</p>}
        {signIn.state === "none" && <p className="alert alert-info" role="status">{T.notInTelegram}</p>}
        {signIn.state === "failed" && (
          <div className="alert alert-error" role="alert">
            <p>{signIn.message}</p>
            <button type="button" className="btn btn-ghost" onClick={start}>{T.retry}</button>
          </div>
        )}
      </section>
    );
  }

  return (
    <section className="mini-app" aria-labelledby="mini-app-title">
      <h1 id="mini-app-title" className="mini-app-title">{T.title}</h1>
      {mayWrite === false && <WriteAccess bridge={bridge.current} onAllowed={() => setMayWrite(true)} />}
      <div className="mini-app-tabs" role="tablist" aria-label={T.tabs}>
        {(["tracks", "upload"] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tab === t ? "mini-app-tab active" : "mini-app-tab"}
            onClick={() => setTab(t)}
          >
            {t === "tracks" ? T.myTracks : T.send}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab === "tracks" ? T.myTracks : T.send}>
        {tab === "tracks" ? tracks : upload(sent)}
      </div>
    </section>
  );
}

/** «Разрешить сообщения»: Telegram's `requestWriteAccess`, its answer stored on the account. */
function WriteAccess({ bridge, onAllowed }: { bridge: Bridge | null; onAllowed: () => void }) {
  const store = useStoreWriteAccess();
  const [refused, setRefused] = useState(false);
  const ask = bridge?.requestWriteAccess;
  if (!ask) return null;
  const request = () =>
    ask((granted) => {
      store.mutate(granted, { onSuccess: () => granted && onAllowed() });
      setRefused(!granted);
    });
  return (
    <div className="mini-app-card" data-testid="mini-app-write-access">
      <strong>{T.writeAccessTitle}</strong>
      <p className="muted">{refused ? T.writeAccessRefused : T.writeAccessText}</p>
      <button type="button" className="btn btn-primary" onClick={request} disabled={store.isPending}>
        {T.writeAccessButton}
      </button>
    </div>
  );
}

import { Link } from "@tanstack/react-router";
import { CrossIcon } from "../../components/icons.tsx";
import { Dialog } from "./dialog.tsx";
import { ProviderButtons } from "./provider-buttons.tsx";
import { AUTH_TEXTS } from "./texts.ts";
import { useProviderSignIn } from "./use-provider-sign-in.ts";

/** The login dialog (spec 1 §2), opened by the need-authentication event. */
export function LoginDialog({ onClose }: { onClose(): void }) {
  const signIn = useProviderSignIn({ autoLoad: true, loadErrorText: "options" });
  return (
    <Dialog titleId="login-dialog-title" onClose={onClose}>
      <button type="button" className="icon-btn auth-dialog-close" aria-label="Закрыть" onClick={onClose}>
        <CrossIcon />
      </button>
      <h2 id="login-dialog-title">{AUTH_TEXTS.dialogTitle}</h2>
      <p className="muted">{AUTH_TEXTS.dialogText}</p>
      {signIn.error && <div className="alert alert-error" role="alert">{signIn.error}</div>}
      <ProviderButtons urls={signIn.urls} connecting={signIn.connecting} onStart={signIn.start} />
      <p className="muted small auth-terms">
        {AUTH_TEXTS.termsPrefix} <Link to="/privacy" onClick={onClose}>{AUTH_TEXTS.termsLink}</Link>.
      </p>
    </Dialog>
  );
}

import { Dialog } from "./dialog.tsx";
import { AUTH_TEXTS } from "./texts.ts";

/**
 * «Вы вошли как @a. Войти как @b?»: a sign-in address for another account opened in a signed-in
 * browser (decision 0202). Escape, the backdrop and «Остаться» keep the current session.
 */
export function SwitchAccountDialog(
  { current, next, onAnswer }: { current: string; next: string; onAnswer(agreed: boolean): void },
) {
  return (
    <Dialog titleId="switch-account-title" onClose={() => onAnswer(false)}>
      <h2 id="switch-account-title">{AUTH_TEXTS.switchQuestion(current, next)}</h2>
      <p className="muted">{AUTH_TEXTS.switchText}</p>
      <div className="stack" style={{ gap: 8 }}>
        <button type="button" className="btn btn-primary btn-block" onClick={() => onAnswer(true)}>
          {AUTH_TEXTS.switchYes(next)}
        </button>
        <button type="button" className="btn btn-block" data-autofocus onClick={() => onAnswer(false)}>
          {AUTH_TEXTS.switchStay}
        </button>
      </div>
    </Dialog>
  );
}

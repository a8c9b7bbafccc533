import { useEffect, useRef } from "react";
import { Dialog } from "./dialog.tsx";
import { AUTH_TEXTS, BAN_MODAL_MS } from "./texts.ts";

/** "Аккаунт заблокирован" with Понятно; closes by itself after 5 s (spec 1 §2, §8). */
export function BanModal({ message, onClose }: { message: string; onClose(): void }) {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const timer = setTimeout(() => close.current(), BAN_MODAL_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return (
    <Dialog titleId="ban-modal-title" onClose={onClose} className="auth-ban-dialog">
      <h2 id="ban-modal-title">{AUTH_TEXTS.banTitle}</h2>
      <p className="auth-ban" role="alert">{message}</p>
      <button type="button" className="btn btn-primary btn-block" data-autofocus onClick={onClose}>
        {AUTH_TEXTS.banOk}
      </button>
    </Dialog>
  );
}

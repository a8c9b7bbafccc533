import { useCallback, useEffect, useRef, useState } from "react";
import "./staff.css";

export interface ToastState {
  kind: "success" | "error";
  text: string;
}

/** A single notification that closes itself after `ms` (users: 5 s, cache page: 3 s). */
export function useToast(ms: number) {
  const [toast, setToast] = useState<ToastState | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hide = useCallback(() => {
    clearTimeout(timer.current);
    setToast(null);
  }, []);
  const show = useCallback((kind: ToastState["kind"], text: string) => {
    clearTimeout(timer.current);
    setToast({ kind, text });
    timer.current = setTimeout(() => setToast(null), ms);
  }, [ms]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { toast, show, hide };
}

export function Toast(
  { toast, onClose, closeLabel = "Закрыть" }: { toast: ToastState | null; onClose: () => void; closeLabel?: string },
) {
  if (!toast) return null;
  return (
    <div
      className={toast.kind === "error" ? "st-toast st-toast-error" : "st-toast"}
      role={toast.kind === "error" ? "alert" : "status"}
      aria-live="polite"
    >
      <span>{toast.text}</span>
      <button type="button" className="st-close" aria-label={closeLabel} onClick={onClose}>×</button>
    </div>
  );
}

import { type ReactNode, useEffect, useId, useRef } from "react";
import "./staff.css";

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Blocks closing (Escape, backdrop, ×) while a save is running. */
  closeDisabled?: boolean;
  size?: "md" | "lg";
  closeLabel?: string;
}

const FOCUSABLE =
  "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/**
 * A dialog over the page: Escape and the backdrop close it, focus moves in and comes back, and Tab
 * stays inside (aria-modal hides the page behind from screen readers, so focus must not wander there).
 */
export function Modal(
  { open, title, onClose, children, footer, closeDisabled, size = "md", closeLabel = "Закрыть" }: ModalProps,
) {
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = closeDisabled ? () => {} : onClose;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const box = boxRef.current;
    const first = box?.querySelector<HTMLElement>(
      "input:not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled]):not(.st-close)",
    );
    (first ?? box)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") closeRef.current();
      if (e.key !== "Tab" || !box) return;
      const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (e.shiftKey && (active === first || active === box)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !box.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    // Focus goes back to what opened the dialog. A list read again meanwhile may have drawn that
    // control anew: then its namesake (same accessible label) takes the focus, now and after the next
    // frame if the page left it on the body.
    const label = previous?.getAttribute("aria-label");
    const restore = () => {
      const target = previous?.isConnected
        ? previous
        : label
        ? document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`)
        : null;
      target?.focus?.();
    };
    return () => {
      document.removeEventListener("keydown", onKey);
      restore();
      requestAnimationFrame(() => {
        if (document.activeElement === null || document.activeElement === document.body) restore();
      });
    };
  }, [open]);

  if (!open) return null;
  return (
    <div
      className="st-modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) closeRef.current();
      }}
    >
      <div
        ref={boxRef}
        className={size === "lg" ? "st-modal st-modal-lg" : "st-modal"}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="st-modal-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="st-close" aria-label={closeLabel} onClick={onClose} disabled={closeDisabled}>
            ×
          </button>
        </div>
        <div className="st-modal-body">{children}</div>
        {footer && <div className="st-modal-foot">{footer}</div>}
      </div>
    </div>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  /** A second, highlighted line ("Это действие нельзя отменить."). */
  warning?: ReactNode;
  confirmLabel: string;
  /** Label while the action runs. */
  busyLabel?: string;
  cancelLabel?: string;
  /** Accessible name of the × button (English screens pass "Close"). */
  closeLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(
  {
    open,
    title,
    message,
    warning,
    confirmLabel,
    busyLabel,
    cancelLabel = "Отмена",
    closeLabel,
    danger = true,
    busy,
    error,
    onConfirm,
    onCancel,
  }: ConfirmDialogProps,
) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      closeDisabled={busy}
      closeLabel={closeLabel}
      footer={
        <>
          <button type="button" className="st-btn" onClick={onCancel} disabled={busy}>{cancelLabel}</button>
          <button
            type="button"
            className={danger ? "st-btn st-btn-danger" : "st-btn st-btn-primary"}
            onClick={onConfirm}
            disabled={busy}
          >
            {busy && busyLabel ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      {error && <div className="st-alert st-alert-error" role="alert">{error}</div>}
      <p style={{ margin: 0 }}>{message}</p>
      {warning && <p className="st-warning-text" style={{ marginBottom: 0 }}>{warning}</p>}
    </Modal>
  );
}

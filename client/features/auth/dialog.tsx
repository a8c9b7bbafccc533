import { useEffect, useRef } from "react";

interface Props {
  titleId: string;
  onClose(): void;
  className?: string;
  children: React.ReactNode;
}

/**
 * A modal dialog: focus moves in and comes back, Escape and the backdrop close it, Tab stays inside.
 * (The staff modal is loaded only with the staff area, so public pages carry their own.)
 */
export function Dialog({ titleId, onClose, className, children }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const box = ref.current;
    (box?.querySelector<HTMLElement>("[data-autofocus]") ?? box)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        close.current();
      }
      if (e.key === "Tab" && box) {
        const items = [...box.querySelectorAll<HTMLElement>("a[href], button:not([disabled])")];
        if (items.length === 0) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, []);

  return (
    <div className="auth-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close.current()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`auth-dialog ${className ?? ""}`}
      >
        {children}
      </div>
    </div>
  );
}

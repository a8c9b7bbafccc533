import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { STORAGE_KEYS } from "../lib/storage-keys.ts";

export const COOKIE_BAR_DELAY_MS = 1000;

function accepted(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.cookieConsent) === "true";
  } catch {
    return false;
  }
}

/** Cookie notice at the bottom (spec 1 §2): appears 1 s after start unless already accepted. */
export function CookieBar() {
  const [visible, setVisible] = useState(false);
  const [barHeight, setBarHeight] = useState<number | null>(null);
  const barRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (accepted()) return;
    const timer = setTimeout(() => setVisible(true), COOKIE_BAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  // The bar floats over the page's end; a spacer as tall as the bar lets the page scroll past it,
  // so the last controls (the upload button at 390 px) can still be reached before accepting.
  useEffect(() => {
    const bar = barRef.current;
    if (!visible || !bar || typeof ResizeObserver === "undefined") return;
    const measure = () => setBarHeight(bar.offsetHeight || null);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    return () => observer.disconnect();
  }, [visible]);

  if (!visible) return null;

  const accept = () => {
    try {
      localStorage.setItem(STORAGE_KEYS.cookieConsent, "true");
    } catch {
      // Private mode without storage: the bar closes for this visit only.
    }
    setVisible(false);
  };

  return (
    <>
      <div
        className="cookie-bar-spacer"
        data-testid="cookie-bar-spacer"
        aria-hidden="true"
        style={barHeight ? { height: barHeight + 32 } : undefined}
      />
      <div ref={barRef} className="cookie-bar" role="region" aria-label="Уведомление о cookie">
        <p>
          Мы используем cookie и локальное хранилище браузера, чтобы вы оставались в системе и сайт работал правильно.
          Подробнее — в <Link to="/privacy">политике конфиденциальности</Link>.
        </p>
        <button type="button" className="btn btn-primary" onClick={accept}>Понятно</button>
      </div>
    </>
  );
}

import { useQuery } from "@tanstack/react-query";
import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { signOut, useAuth } from "../lib/auth.ts";
import { configQuery } from "../lib/config-query.ts";
import { CookieBar } from "./cookie-bar.tsx";
import { FlashArea } from "./flash-area.tsx";
import { LogoMark } from "./icons.tsx";

/**
 * Header, footer, flash area; staff pages get the full width, the rest a narrow column. What a
 * feature lays over every page (the sign-in dialogs) comes in from the router as `overlays`:
 * shared components import no feature (decision 0211).
 */
export function RootLayout({ overlays }: { overlays?: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const { user, isAuthenticated } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const wide = pathname.startsWith("/admin") || pathname.startsWith("/moderator");
  // Every other page sends a visitor straight back to the maintenance screen: it shows no links,
  // nor the cookie notice with its privacy link (docs/decisions/0090). An administrator's links
  // work, so they keep them.
  const { data: config } = useQuery({ ...configQuery, enabled: pathname === "/maintenance" });
  const bare = pathname === "/maintenance" && !user?.is_admin && config?.maintenance !== false;

  useEffect(() => {
    setMenuOpen(false);
    globalThis.scrollTo?.(0, 0);
  }, [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      // Focus inside the menu would fall to <body> when it unmounts: give it back to the toggle.
      if (document.getElementById("mobile-menu")?.contains(document.activeElement)) toggleRef.current?.focus();
      setMenuOpen(false);
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const logout = async () => {
    await signOut();
  };

  // The Telegram Mini App (issue 36) is its own whole screen inside Telegram: no site header or footer.
  if (pathname === "/tg") {
    return (
      <div className="app mini-app-root">
        <FlashArea />
        <main id="main" tabIndex={-1} className="container main">
          <Outlet />
        </main>
        {overlays}
      </div>
    );
  }

  const links = (
    <>
      {pathname !== "/" && <Link to="/" className="nav-link nav-link-cta">Загрузить</Link>}
      <Link to="/about" className="nav-link">О нас</Link>
      <Link to="/faq" className="nav-link">FAQ</Link>
      {isAuthenticated && (
        <>
          <Link to="/profile" className="nav-link">Профиль</Link>
          {user?.is_admin && <Link to="/admin" className="nav-link">Админка</Link>}
          {user && !user.is_admin && user.is_moderator && <Link to="/moderator" className="nav-link">Модерация</Link>}
          <button type="button" className="nav-link nav-button" onClick={logout}>Выход</button>
        </>
      )}
    </>
  );

  return (
    <div className="app">
      <a href="#main" className="skip-link">К содержимому</a>
      <header className="site-header">
        <div className={wide ? "container container-wide header-row" : "container header-row"}>
          {bare
            ? (
              <span className="logo">
                <span className="logo-mark" aria-hidden="true">
                  <LogoMark />
                </span>
                <span className="logo-text">Нейропанк</span>
              </span>
            )
            : (
              <Link to="/" className="logo" aria-label="Нейропанк — на главную">
                <span className="logo-mark" aria-hidden="true">
                  <LogoMark />
                </span>
                <span className="logo-text">Нейропанк</span>
              </Link>
            )}
          {!bare && <nav className="nav-desktop" aria-label="Основное меню">{links}</nav>}
          {!bare && (
            <button
              ref={toggleRef}
              type="button"
              className="menu-toggle"
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              aria-label="Меню"
              onClick={() => setMenuOpen((v) => !v)}
            >
              <span />
              <span />
              <span />
            </button>
          )}
        </div>
        {menuOpen && !bare && (
          <nav
            id="mobile-menu"
            className="nav-mobile"
            aria-label="Мобильное меню"
            // A tap on the current page's link changes no path, so close the menu on any item.
            onClick={(e) => (e.target as HTMLElement).closest("a, button") && setMenuOpen(false)}
          >
            {links}
          </nav>
        )}
      </header>
      <FlashArea />
      <main id="main" tabIndex={-1} className={wide ? "container container-wide main" : "container main"}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className={wide ? "container container-wide footer-row" : "container footer-row"}>
          <span>© 2024–{new Date().getFullYear()} Нейропанк</span>
          {!bare && <Link to="/privacy">Политика конфиденциальности</Link>}
        </div>
      </footer>
      {!bare && <CookieBar />}
      {overlays}
    </div>
  );
}

import { useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";
import { auth } from "../../lib/auth.ts";
import { ACCOUNT_CHECK_MS } from "./texts.ts";

/** Paths where the account is not re-checked: sign-in and sign-out are in progress there. */
export function skipsAccountCheck(pathname: string): boolean {
  return pathname === "/login" || pathname === "/logout" || pathname.startsWith("/auth/");
}

/**
 * The account check (spec 1 §4): at start when a token exists, on each route change except the
 * login, logout and auth paths, and every 5 minutes. A ban found here opens the ban modal (the
 * auth store does that); a dead session is cleared.
 */
export function useAccountCheck() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  useEffect(() => {
    if (skipsAccountCheck(pathname) || !auth.isAuthenticated) return;
    auth.loadUser().catch(() => {});
  }, [pathname]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (!auth.isAuthenticated || skipsAccountCheck(location.pathname)) return;
      auth.loadUser().catch(() => {});
    }, ACCOUNT_CHECK_MS);
    return () => clearInterval(timer);
  }, []);
}

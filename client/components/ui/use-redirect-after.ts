import { useNavigate } from "@tanstack/react-router";
import { useCallback, useEffect, useRef } from "react";

/** Spec 2 §9: after a save the view goes back to its list 1.5 s later, so the success message is read. */
export const REDIRECT_DELAY_MS = 1500;

export function useRedirectAfter() {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  /** `search`: the list's place to return to (the track lists keep it, track-list-search.ts). */
  return useCallback((to: string, ms = REDIRECT_DELAY_MS, search?: Record<string, unknown>) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void navigate({ to: to as "/", ...(search ? { search: search as never } : {}) }),
      ms,
    );
  }, [navigate]);
}

import { useSyncExternalStore } from "react";

/**
 * The staff panels' phone layout (issue 23, decision 0227): at this width and below the track list is
 * a list of cards, the filters sit behind one button and the player is a compact bar at the bottom.
 */
export const PHONE_QUERY = "(max-width: 480px)";

/**
 * Whether a media query matches now, following changes (a rotated phone). Where the browser has no
 * `matchMedia` (the component tests' DOM), nothing matches: the desktop layout.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof globalThis.matchMedia !== "function") return () => {};
      const list = globalThis.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => typeof globalThis.matchMedia === "function" && globalThis.matchMedia(query).matches,
    () => false,
  );
}

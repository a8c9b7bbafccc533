import { type RefObject, useEffect } from "react";
import { PLAY_BUTTON_ATTR } from "./playable.ts";

/**
 * The played row stays in view (`currentId`, undefined when nothing plays); `moveFocus` set, the
 * focus goes to its play button once (J/K from a row's play button). `onShown` runs first each time
 * another row is played.
 */
export function useRowInView(currentId: number | undefined, moveFocus: RefObject<boolean>, onShown: () => void) {
  // The played row stays in view, and the focus follows J/K when it was on a row's play button.
  useEffect(() => {
    if (currentId === undefined) return;
    onShown();
    const rowOf = () => document.querySelector(`[data-track-id="${currentId}"]`);
    const row = rowOf();
    if (row) keepInView(row);
    if (moveFocus.current) {
      moveFocus.current = false;
      row?.querySelector<HTMLElement>(`[${PLAY_BUTTON_ATTR}]`)?.focus({ preventScroll: true });
    }
    // The dock grows as its parts load (votes, assignment, report): the row is kept in view again.
    const dock = document.querySelector(".st-player");
    if (!dock || typeof ResizeObserver === "undefined") return;
    let height = dock.getBoundingClientRect().height;
    const watch = new ResizeObserver(() => {
      const now = dock.getBoundingClientRect().height;
      if (Math.abs(now - height) < 2) return;
      height = now;
      const r = rowOf();
      if (r) keepInView(r);
    });
    watch.observe(dock);
    return () => watch.disconnect();
  }, [currentId]);
}

/**
 * The played row in view with the queue around it (issue 31, docs/decisions/0270): between the site
 * header and the player's dock, the row and the next five stay visible (on a phone, as much of
 * the next card as fits); when they do not, the list scrolls so that two rows above it (the one
 * just decided among them) stay in view under the header.
 */
function keepInView(row: Element) {
  const r = row.getBoundingClientRect();
  if (r.height === 0) return;
  const top = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
  const dock = document.querySelector(".st-player")?.getBoundingClientRect();
  const bottom = dock && dock.top > top ? Math.min(dock.top, innerHeight) : innerHeight;
  const room = bottom - top;
  const below = Math.min(5 * r.height, Math.max(0, (room - r.height) / 2));
  const above = Math.min(2 * r.height, Math.max(0, (room - r.height) / 4));
  if (r.top >= top + above - 1 && r.bottom + below <= bottom + 1) return;
  globalThis.scrollBy?.({ top: r.top - (top + above), behavior: "instant" as ScrollBehavior });
}

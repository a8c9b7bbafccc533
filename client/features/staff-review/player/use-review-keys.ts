import { useEffect, useRef } from "react";

/**
 * Keyboard review (issue 12 §2; decision 0140): Space plays or pauses, J/K go to the next/previous
 * track and start it, ←/→ seek 5 s, D jumps to the drop. Letters are read by their physical key
 * (`code`), so they work on a Russian layout too (J is «О» there). Nothing is taken while focus is
 * in a text field, a select or a dialog, or with Ctrl/Alt/Meta held (browser shortcuts). Space on a
 * focused button, link or checkbox keeps its own meaning: it presses that control.
 */
export type ReviewKeyAction = "toggle" | "next" | "previous" | "back" | "forward" | "drop";

const TEXT_ENTRY = "input, select, textarea, [contenteditable]:not([contenteditable='false'])";
const PRESSED_BY_SPACE =
  "button, a[href], summary, [role='button'], [role='checkbox'], [role='switch'], [role='radio'], [role='tab'], [role='menuitem'], [role='option']";
const IN_DIALOG = "[role='dialog'], [role='alertdialog'], dialog";

const LETTERS: Record<string, ReviewKeyAction> = { KeyJ: "next", KeyK: "previous", KeyD: "drop" };
const LETTER_KEYS: Record<string, ReviewKeyAction> = { j: "next", k: "previous", d: "drop" };

/** What a key press asks of the player, or null when it is not the player's to take. */
export function reviewKeyAction(e: KeyboardEvent): ReviewKeyAction | null {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return null;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest(TEXT_ENTRY) || target?.closest(IN_DIALOG)) return null;
  // A modal open elsewhere on the page (focus may have been left on the body).
  if (document.querySelector("[aria-modal='true']")) return null;
  if (e.key === " " || e.code === "Space") return target?.closest(PRESSED_BY_SPACE) ? null : "toggle";
  if (e.key === "ArrowLeft" && !e.shiftKey) return "back";
  if (e.key === "ArrowRight" && !e.shiftKey) return "forward";
  return LETTERS[e.code] ?? LETTER_KEYS[e.key?.toLowerCase()] ?? null;
}

/** Listens on the document while `enabled`; each action calls the handler of the same name. */
export function useReviewKeys(handlers: Record<ReviewKeyAction, () => void>, enabled: boolean) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const action = reviewKeyAction(e);
      if (!action) return;
      e.preventDefault();
      latest.current[action]();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled]);
}

import { useEffect, useRef } from "react";

/**
 * Keyboard review (issue 12 §2; decision 0140) and the review desk (issue 23; decision 0226):
 * Space plays or pauses, J/K go to the next/previous track and start it, ←/→ seek 5 s, D jumps to
 * the drop; A accepts, S shortlists, X declines, and after A or X the template chooser takes 1–9
 * (that template, sent at once) and Enter (sent without a ready-made message); M and N focus the
 * message and the note, Z undoes the last decision while its hold lasts, ? shows the legend, Esc
 * closes the chooser or the legend; C comments on the current moment (issue 24, decision 0231). Letters are read by their physical key (`code`), so they work
 * on a Russian layout too (J is «О» there, A is «Ф»). Nothing is taken while focus is in a text
 * field, a select or a dialog, or with Ctrl/Alt/Meta held (browser shortcuts). Space and Enter on a
 * focused button, link or checkbox keep their own meaning: they press that control.
 */
export type ReviewKeyAction =
  | "toggle"
  | "next"
  | "previous"
  | "back"
  | "forward"
  | "drop"
  | "accept"
  | "shortlist"
  | "decline"
  | "send"
  | "message"
  | "note"
  | "undo"
  | "legend"
  | "close"
  | "comment"
  | `pick${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}`
  // Issue 37: Shift+1–9 in the chooser toggles a decline reason; B switches versions.
  | `reason${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}`
  | "versions";

const TEXT_ENTRY = "input, select, textarea, [contenteditable]:not([contenteditable='false'])";
const PRESSED_BY_KEY =
  "button, a[href], summary, [role='button'], [role='checkbox'], [role='switch'], [role='radio'], [role='tab'], [role='menuitem'], [role='option']";
const IN_DIALOG = "[role='dialog'], [role='alertdialog'], dialog";

const LETTERS: Record<string, ReviewKeyAction> = {
  KeyJ: "next",
  KeyK: "previous",
  KeyD: "drop",
  KeyA: "accept",
  KeyS: "shortlist",
  KeyX: "decline",
  KeyM: "message",
  KeyN: "note",
  KeyZ: "undo",
  // A comment at the current moment (issue 24, decision 0231).
  KeyC: "comment",
  // The other version at the same moment, loudness-matched (issue 37).
  KeyB: "versions",
};
/** Where a browser reports no `code` (some virtual keyboards): the Latin letter itself. */
const LETTER_KEYS: Record<string, ReviewKeyAction> = {
  j: "next",
  k: "previous",
  d: "drop",
  a: "accept",
  s: "shortlist",
  x: "decline",
  m: "message",
  n: "note",
  z: "undo",
  c: "comment",
  b: "versions",
};

export interface ReviewKeyState {
  /** The template chooser is open: 1–9, Enter and Esc are the desk's. */
  choosing?: boolean;
  /** The legend is open: Esc closes it. */
  legend?: boolean;
}

/** What a key press asks of the player, or null when it is not the player's to take. */
export function reviewKeyAction(e: KeyboardEvent, state: ReviewKeyState = {}): ReviewKeyAction | null {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return null;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest(TEXT_ENTRY) || target?.closest(IN_DIALOG)) return null;
  // A modal open elsewhere on the page (focus may have been left on the body).
  if (document.querySelector("[aria-modal='true']")) return null;
  if (e.key === " " || e.code === "Space") return target?.closest(PRESSED_BY_KEY) ? null : "toggle";
  if (e.code === "Slash" && e.shiftKey || e.key === "?") return "legend";
  if (e.key === "Escape") return state.choosing || state.legend ? "close" : null;
  if (state.choosing) {
    if (e.key === "Enter" || e.code === "Enter" || e.code === "NumpadEnter") {
      // Enter on a focused control outside the chooser presses that control.
      return target?.closest(PRESSED_BY_KEY) && !target.closest("[data-desk-chooser]") ? null : "send";
    }
    const digit = /^(?:Digit|Numpad)([1-9])$/.exec(e.code ?? "")?.[1] ?? (/^[1-9]$/.test(e.key) ? e.key : null);
    if (digit && !e.shiftKey) return `pick${Number(digit) as 1}`;
    // Shift+digit: the physical key, since Shift turns the digit into a sign on every layout.
    const shifted = /^(?:Digit|Numpad)([1-9])$/.exec(e.code ?? "")?.[1];
    if (shifted && e.shiftKey) return `reason${Number(shifted) as 1}`;
  }
  if (e.key === "ArrowLeft" && !e.shiftKey) return "back";
  if (e.key === "ArrowRight" && !e.shiftKey) return "forward";
  return LETTERS[e.code] ?? LETTER_KEYS[e.key?.toLowerCase()] ?? null;
}

/**
 * Takes keys while `enabled`; each action calls the handler of the same name (an action without a
 * handler is left to the browser). One listener for the component's life reads `enabled` as last
 * rendered: a key pressed as soon as the rows show is taken, not lost before an effect that would
 * attach the listener after that render has run (decision 0465).
 */
export function useReviewKeys(
  handlers: Partial<Record<ReviewKeyAction, () => void>>,
  enabled: boolean,
  state: ReviewKeyState = {},
) {
  const latest = useRef({ handlers, enabled, state });
  latest.current = { handlers, enabled, state };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!latest.current.enabled) return;
      const action = reviewKeyAction(e, latest.current.state);
      const handler = action ? latest.current.handlers[action] : undefined;
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

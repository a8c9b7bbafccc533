import { revealHiddenChars } from "../../../domain/hidden-chars.ts";

/**
 * Staff read what people typed (names, comments, votes, notes, messages, file names) and what the
 * site stored from outside. Text stored before the hidden-characters rule (issue 32, decision 0305)
 * may still hold such characters: staff are shown each written out (`<U+202E>`), never raw, so an
 * override cannot turn a name around and tag characters cannot carry a sentence nobody sees. Line
 * breaks and tabs stay as they are. client/router.tsx hands this module to client/lib/api.ts for the
 * panels' answers (`isStaffAnswer`), loaded with the first of them: the public pages do not carry it
 * (decision 0432).
 */

/**
 * `value` (a parsed JSON answer) with every string's hidden characters written out; the same
 * object when there were none, so an answer without any is not copied.
 */
export function withHiddenCharsShown<T>(value: T): T {
  if (typeof value === "string") return revealHiddenChars(value, { multiline: true }) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((v, i) => {
      const shown = withHiddenCharsShown(v);
      if (shown !== v) (copy ??= [...value])[i] = shown;
    });
    return (copy ?? value) as T;
  }
  if (value !== null && typeof value === "object") {
    let copy: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(value)) {
      const shown = withHiddenCharsShown(v);
      if (shown !== v) (copy ??= { ...value } as Record<string, unknown>)[k] = shown;
    }
    return (copy ?? value) as T;
  }
  return value;
}

import { ApiError } from "../../lib/api.ts";

/**
 * Spec 2 §8: show the server's `error` text when there is one; otherwise the screen's fallback when
 * the server answered without one, or the secondary text when no answer came at all.
 */
export function staffError(err: unknown, fallback: string, secondary = fallback): string {
  if (err instanceof ApiError) {
    const serverText = err.body && typeof err.body.error === "string" ? err.body.error.trim() : "";
    if (serverText) return serverText;
    return err.status > 0 ? fallback : secondary;
  }
  return secondary;
}

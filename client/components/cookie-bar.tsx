/** Cookie notice bar (filled in by the user-side work). */
export function CookieBar() {
  return null;
}

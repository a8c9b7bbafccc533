/** Login dialog and ban modal, mounted once in the root layout (filled in by the sign-in work). */
export function AuthOverlays() {
  return null;
}

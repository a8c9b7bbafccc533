/**
 * Where a slider link tile may lead (spec 2 §3 `redirect_url`): an absolute http(s) address, or a
 * path on this site such as `/about` (what the seeded tiles use). One rule for the server's
 * validator, the admin form and the home page, which follows a site path inside the app
 * (decision 0096). The refusals' texts are in slider.ts, out of the public pages (decision 0432).
 */

/**
 * A path on this site: a single leading "/". "//host" and "/\host" are addresses of another site
 * to a browser, and browsers drop tabs and line breaks from addresses ("/\t/host" is "//host"), so
 * backslashes, whitespace and control characters are refused anywhere in the path.
 */
export function isSitePath(value: string): boolean {
  if (!value.startsWith("/") || value[1] === "/" || value[1] === "\\") return false;
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || ch === "\\" || /\s/.test(ch)) return false;
  }
  return true;
}

/** An absolute http:// or https:// address with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/** A link tile's address, surrounding spaces ignored (the server stores it trimmed). */
export function isTileLink(value: string): boolean {
  const s = value.trim();
  return isSitePath(s) || isHttpUrl(s);
}

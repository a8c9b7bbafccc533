/**
 * One CSV cell (RFC 4180), the one rule of every export (the release desk's label copy, the episode
 * desk's tracklists): quoted when it holds a quote, a comma or a line break; a value a spreadsheet
 * would run as a formula (a leading `=`, `+`, `-` or `@`: OWASP's CSV injection) gets a `'` in
 * front and is quoted.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV text with a UTF-8 byte order mark (spreadsheets then read Cyrillic right) and CRLF ends. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return "\uFEFF" + rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

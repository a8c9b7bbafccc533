/**
 * The one date formatter of the front end (docs/CONVENTIONS.md rule 13): Russian locale, day.month.year
 * hour:minute (spec 2 §9). Values come from the API as ISO strings or epoch milliseconds.
 */
const dateTime = new Intl.DateTimeFormat("ru-RU", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const dateOnly = new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit", year: "numeric" });

export type DateInput = string | number | Date | null | undefined;

export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date
    ? value
    : typeof value === "number" || /^\d+$/.test(value)
    ? new Date(Number(value))
    : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "05.03.2024, 14:07"; "—" when there is no valid date. */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? dateTime.format(d) : "—";
}

/** "05.03.2024"; "—" when there is no valid date. */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  return d ? dateOnly.format(d) : "—";
}

/** Local wall-clock value for `<input type="datetime-local">` ("2024-03-05T14:07"). */
export function toDateTimeLocal(value: DateInput): string {
  const d = toDate(value);
  if (!d) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A length in seconds as "3:07" (or "1:02:03" from an hour up); "—" when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return "—";
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

const dayMonth = new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit" });

/** "05.03" (issue 36: the queue line's dates); "—" when there is no valid date. */
export function formatDayMonth(value: DateInput): string {
  const d = toDate(value);
  return d ? dayMonth.format(d) : "—";
}

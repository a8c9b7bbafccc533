/**
 * Readers for a list's place in the address (TanStack Router `validateSearch`, decision 0141): each
 * takes what the router's default parser handed over and answers the value, or undefined when it is
 * absent or does not parse, so a stale or hand-edited link falls back to the default field by field
 * instead of failing the page. Plain functions, not zod: the router, and so every list's schema, is in
 * the public entry chunk.
 */

// The router's default search parser reads JSON where it can: `?search=123` arrives as a number and
// `?downloaded=true` as a boolean, so scalars are accepted in either form.
type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

export const oneOf = <T extends string>(values: readonly T[]) => (v: unknown): T | undefined =>
  typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T) : undefined;

/** A text filter of at most `max` characters. */
export const text = (max: number) => (v: unknown): string | undefined => {
  if (!isScalar(v)) return undefined;
  const s = String(v);
  return s.length > max ? undefined : s;
};

export const wholeNumber = (ok: (n: number) => boolean) => (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && ok(n) ? n : undefined;
};

export const MAX_PAGE = 1_000_000;

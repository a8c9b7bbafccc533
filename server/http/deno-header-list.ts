/**
 * Deno keeps a `Headers` object's entries as an array of `[name, value]` pairs under an
 * internal symbol; `set` validates both strings and searches the list on every call, and for the
 * headers every answer gets (13 constant security headers on a page, file or image, 7 on an `/api`
 * answer that is data, plus the request id and maybe `no-store`) that was a third of a small
 * answer's cost (issue 15). When the running Deno keeps its headers that way (checked once here,
 * with a probe), the constant pairs, validated once, are appended to a fresh response's list
 * directly; otherwise, or when the response already has one of them, `set` is used as before.
 */
const fastHeaders = (() => {
  try {
    const probe = new Response("x", { headers: { "content-type": "text/plain" } });
    const symbols = Object.getOwnPropertySymbols(probe.headers);
    const list = symbols.find((s) => s.description === "header list");
    const guard = symbols.find((s) => s.description === "guard");
    if (!list || !guard) return null;
    const raw = (probe.headers as unknown as Record<symbol, unknown>)[list];
    if ((probe.headers as unknown as Record<symbol, unknown>)[guard] !== "response") return null;
    if (!Array.isArray(raw) || raw.length !== 1 || raw[0]?.[0] !== "content-type") return null;
    raw.push(["x-probe", "1"]);
    if (probe.headers.get("X-Probe") !== "1" || [...probe.headers].length !== 2) return null;
    return { list, guard };
  } catch {
    return null;
  }
})();

/** Whether `fastHeaders` is in use (reported by the hot-paths bench). */
export const FAST_HEADERS = fastHeaders !== null;

/**
 * A response with a ready-made header list: `pairs` (validated once by the caller: see
 * `validPairs`) are appended to its list directly when the fast path is on, else set one by one.
 */
export function responseWith(
  body: BodyInit | null,
  status: number,
  pairs: readonly (readonly [string, string])[],
): Response {
  const res = new Response(body, { status });
  const list = fastHeaders ? (res.headers as unknown as Record<symbol, unknown>)[fastHeaders.list] : null;
  if (Array.isArray(list) && list.length === 0) {
    for (const [name, value] of pairs) list.push([name, value]);
  } else {
    for (const [name, value] of pairs) res.headers.set(name, value);
  }
  return res;
}

/** `pairs` checked as `Headers` would check them; throws on an invalid one. */
export function validPairs(pairs: [string, string][]): [string, string][] {
  new Headers(pairs);
  return pairs;
}

/** One list of constant headers, validated once, in the two forms `setAll` uses. */
export interface HeaderList {
  readonly pairs: readonly (readonly [string, string])[];
  /** Lower-case names, as the fast path appends them. */
  readonly lower: readonly (readonly [string, string])[];
}

export function headerList(pairs: readonly (readonly [string, string])[]): HeaderList {
  // Throws if a value were not a valid header: checked once, here.
  validPairs(pairs as [string, string][]);
  return { pairs, lower: pairs.map(([k, v]) => [k.toLowerCase(), v] as const) };
}

/**
 * The header list of `headers` itself, to append to, when the fast path is on and `headers` are a
 * response's; else null (then `set` must be used).
 */
export function responseHeaderList(headers: Headers): [string, string][] | null {
  if (!fastHeaders) return null;
  const h = headers as unknown as Record<symbol, unknown>;
  const list = h[fastHeaders.list] as [string, string][];
  return h[fastHeaders.guard] === "response" && Array.isArray(list) ? list : null;
}

import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * Case-insensitive "contains" for user-typed search terms.
 *
 * SQLite folds case for ASCII only (LIKE, lower()), and most names here are Cyrillic. So the term
 * becomes a GLOB pattern in which every letter is a class of its cases (`алиса` → `*[аА][лЛ]...*`):
 * plain SQL, no extension, any alphabet, and the user's `%`, `_`, `*` or `?` match themselves.
 */
export function globPattern(term: string): string {
  let out = "*";
  for (const ch of term) {
    if (ch === "*" || ch === "?" || ch === "[") out += `[${ch}]`;
    else if (ch === "]") out += "[]]";
    else {
      const variants = new Set([ch, ch.toLowerCase(), ch.toUpperCase()].filter((v) => [...v].length === 1));
      out += variants.size > 1 ? `[${[...variants].join("")}]` : ch;
    }
  }
  return out + "*";
}

/** `expr` contains `term`, ignoring letter case. */
export function containsSql(expr: SQL | AnyColumn, term: string): SQL {
  return sql`(${expr} GLOB ${globPattern(term)})`;
}

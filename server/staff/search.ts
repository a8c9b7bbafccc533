import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * Case-insensitive "contains" for user-typed search terms.
 *
 * SQLite folds case for ASCII only (LIKE, lower()), and the names here are mostly Cyrillic, so the
 * column is folded with nested replace() for А–Я and Ё before lower(). That is plain SQL, needs no
 * extension, and costs a few microseconds per row (fine for tens of thousands of rows).
 */
const UPPER_CYRILLIC = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ";

export function foldSql(expr: SQL | AnyColumn): SQL {
  let out: SQL = sql`${expr}`;
  for (const ch of UPPER_CYRILLIC) out = sql`replace(${out}, ${ch}, ${ch.toLowerCase()})`;
  return sql`lower(${out})`;
}

/** The same folding in JS, for the search term. */
export function foldText(text: string): string {
  return text.toLowerCase();
}

/** Escapes LIKE wildcards so a user's `%` or `_` matches itself (used with ESCAPE '\'). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (m) => "\\" + m)}%`;
}

/** `expr` contains `term`, ignoring case for Latin and Cyrillic letters. */
export function containsSql(expr: SQL | AnyColumn, term: string): SQL {
  return sql`(${foldSql(expr)} LIKE ${likePattern(foldText(term))} ESCAPE '\\' OR ${expr} LIKE ${
    likePattern(term)
  } ESCAPE '\\')`;
}

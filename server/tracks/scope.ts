import { type SQL, sql } from "drizzle-orm";
import type { Direction } from "../../domain/directions.ts";
import type { Scope } from "../../domain/scope.ts";
import { tracks } from "../../db/schema.ts";

/**
 * The scope rule itself (who sees which track, decision 0092) lives in domain/scope.ts, shared with
 * the moderator panel; here it becomes SQL for the list and lookup queries.
 */
export type { Scope };

/** SQL that is true when the comma list in `column` contains `code` exactly. */
export function hasDirectionSql(code: Direction, column: SQL | typeof tracks.directions = tracks.directions): SQL {
  return sql`instr(',' || ${column} || ',', ${"," + code + ","}) > 0`;
}

/** SQL condition for "track visible to the scope"; undefined means no restriction. */
export function scopeSql(scope: Scope): SQL | undefined {
  if (scope === "*") return undefined;
  if (scope.length === 0) return sql`0`;
  return sql`(${sql.join(scope.map((d) => hasDirectionSql(d)), sql` OR `)})`;
}

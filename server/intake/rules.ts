import { eq } from "drizzle-orm";
import { type Direction, DIRECTIONS } from "../../domain/directions.ts";
import { INTAKE_DEFAULTS, type IntakeSettings, type IntakeUpdate, mergedProblem } from "../../domain/intake-rules.ts";
import { directionIntake, users } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { badRequest } from "../lib/http-error.ts";

/**
 * The rules of every direction (issue 25), read in one query of a few rows and kept for a moment per
 * database: an upload, a list or a view asks for them without a round trip each time. A change on
 * this instance drops the copy at once; another instance sees it within RULES_TTL_MS.
 */
export interface IntakeRule extends IntakeSettings {
  direction: Direction;
  /** ISO 8601; null for a direction never saved. */
  updated_at: string | null;
  /** The admin's username; null for a direction never saved (or whose saver is gone). */
  updated_by: string | null;
}

export type IntakeRules = Record<Direction, IntakeRule>;

/** How long a read of the rules is reused (real time, not the app's clock). */
export const RULES_TTL_MS = 2_000;

const cache = new WeakMap<Db, { at: number; rules: Promise<IntakeRules> }>();

async function load(db: Db): Promise<IntakeRules> {
  const rows = await db
    .select({ r: directionIntake, by: users.username })
    .from(directionIntake)
    .leftJoin(users, eq(users.id, directionIntake.updated_by));
  const byDirection = new Map(rows.map((row) => [row.r.direction, row]));
  return Object.fromEntries(DIRECTIONS.map((direction) => {
    const row = byDirection.get(direction);
    if (!row) return [direction, { direction, ...INTAKE_DEFAULTS, updated_at: null, updated_by: null }];
    const { direction: _d, updated_at, updated_by: _u, ...settings } = row.r;
    return [direction, {
      direction,
      ...settings,
      tempo_mode: settings.tempo_mode === "refuse" ? "refuse" : "flag",
      updated_at: updated_at.toISOString(),
      updated_by: row.by ?? null,
    }];
  })) as IntakeRules;
}

/** Every direction's rules (defaults for a direction never saved). */
export function readRules(db: Db): Promise<IntakeRules> {
  const now = performance.now();
  const kept = cache.get(db);
  if (kept && now - kept.at < RULES_TTL_MS) return kept.rules;
  const rules = load(db);
  cache.set(db, { at: now, rules });
  // A failed read is not kept.
  rules.catch(() => cache.get(db)?.rules === rules && cache.delete(db));
  return rules;
}

/** Drops the kept copy (after a change, and in tests that write the table directly). */
export function forgetRules(db: Db): void {
  cache.delete(db);
}

/** The rules in DIRECTIONS order, those of `only` when given. */
export async function ruleList(db: Db, only?: readonly Direction[]): Promise<IntakeRule[]> {
  const rules = await readRules(db);
  return DIRECTIONS.filter((d) => !only || only.includes(d)).map((d) => rules[d]);
}

/** Saves a change of one direction's rules, checked as a whole (400 with the reason). */
export async function saveRule(
  db: Db,
  direction: Direction,
  change: IntakeUpdate,
  by: number,
  at: Date,
): Promise<IntakeRule> {
  forgetRules(db);
  const current = (await readRules(db))[direction];
  const { direction: _d, updated_at: _a, updated_by: _b, ...settings } = current;
  const merged: IntakeSettings = { ...settings, ...change } as IntakeSettings;
  const problem = mergedProblem(merged);
  if (problem) throw badRequest(problem);
  const values = { ...merged, updated_by: by, updated_at: at };
  await db.insert(directionIntake).values({ direction, ...values })
    .onConflictDoUpdate({ target: directionIntake.direction, set: values });
  forgetRules(db);
  return (await readRules(db))[direction];
}

/** The promise (days) of each direction: what the views need. */
export async function promiseDays(db: Db): Promise<Record<Direction, number>> {
  const rules = await readRules(db);
  return Object.fromEntries(DIRECTIONS.map((d) => [d, rules[d].promise_days])) as Record<Direction, number>;
}

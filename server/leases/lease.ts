import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { jobLeases } from "../../db/schema.ts";

/**
 * One holder at a time (issue 33): the one lease every sweep and poller runs under, a row of
 * `job_leases` named for the job. Each step is one statement, so two instances can never both
 * believe they hold it (docs/decisions/0070: no interactive transactions): taking it succeeds only
 * when nobody holds it, its holder is the caller, or it has run out; moving its cursor and giving
 * it up succeed only for the holder whose lease still runs.
 *
 * The cursor is where the job's work has got to (the Telegram poller's next `getUpdates` offset),
 * kept with the lease so the next holder starts there; a job without one leaves it at 0.
 */
export interface JobLease {
  /** Takes or renews the lease until `now + leaseMs`: the stored cursor, or null when another holds it. */
  acquire(holder: string, now: Date, leaseMs: number): Promise<{ cursor: number } | null>;
  /**
   * Moves the cursor forward (never back) to `cursor`; false when the lease was lost meanwhile
   * (then the caller stops: the next holder starts from the cursor stored last).
   */
  advance(holder: string, now: Date, cursor: number): Promise<boolean>;
  /** Gives the lease up at once (a stop), so another instance takes it without waiting. */
  release(holder: string, now: Date): Promise<void>;
  /** The row as stored (tests and the log). */
  read(): Promise<typeof jobLeases.$inferSelect | null>;
}

export function createJobLease(db: Db, name: string): JobLease {
  const t = jobLeases;
  const mine = (holder: string, now: Date) => and(eq(t.name, name), eq(t.owner, holder), gt(t.until, now));
  return {
    async acquire(holder, now, leaseMs) {
      const until = new Date(now.getTime() + leaseMs);
      const rows = await db
        .insert(t)
        .values({ name, owner: holder, until })
        .onConflictDoUpdate({
          target: t.name,
          set: { owner: holder, until },
          setWhere: sql`${t.until} <= ${now.getTime()} OR ${t.owner} = ${holder}`,
        })
        .returning({ cursor: t.cursor });
      return rows[0] ?? null;
    },

    async advance(holder, now, cursor) {
      const rows = await db
        .update(t)
        .set({ cursor: sql`max(${t.cursor}, ${cursor})` })
        .where(mine(holder, now))
        .returning({ name: t.name });
      return rows.length > 0;
    },

    async release(holder, now) {
      await db.update(t).set({ until: now }).where(mine(holder, now));
    },

    async read() {
      return (await db.select().from(t).where(eq(t.name, name)).limit(1))[0] ?? null;
    },
  };
}

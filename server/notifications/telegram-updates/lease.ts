import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { telegramUpdatesLease } from "../../../db/schema.ts";

/**
 * The hold on `getUpdates` polling (issue 27, docs/decisions/0262): one row per bot in
 * `telegram_updates_lease`. Each step is one statement, so two instances can never both believe
 * they hold it (docs/decisions/0070: no interactive transactions): taking it succeeds only when
 * nobody holds it, its holder is the caller, or its lease has run out; renewing and moving the
 * offset succeed only for the holder whose lease still runs.
 */
export function createUpdatesLease(db: Db, botId: string) {
  const t = telegramUpdatesLease;
  const mine = (holder: string, now: Date) => and(eq(t.bot_id, botId), eq(t.holder, holder), gt(t.lease_until, now));

  return {
    /** Takes or renews the hold until `now + leaseMs`; the offset to poll from, or null when another holds it. */
    async acquire(holder: string, now: Date, leaseMs: number): Promise<{ offset: number } | null> {
      const until = new Date(now.getTime() + leaseMs);
      const rows = await db
        .insert(t)
        .values({ bot_id: botId, holder, lease_until: until, next_offset: 0, updated_at: now })
        .onConflictDoUpdate({
          target: t.bot_id,
          set: { holder, lease_until: until, updated_at: now },
          setWhere: sql`${t.holder} = ${holder} OR ${t.lease_until} <= ${now.getTime()}`,
        })
        .returning({ offset: t.next_offset });
      return rows[0] ?? null;
    },

    /**
     * Records that every update below `offset` was handled; false when the hold was lost meanwhile
     * (then the caller stops: the next holder polls from the offset stored last).
     */
    async advance(holder: string, now: Date, offset: number): Promise<boolean> {
      const rows = await db
        .update(t)
        .set({ next_offset: sql`max(${t.next_offset}, ${offset})`, updated_at: now })
        .where(mine(holder, now))
        .returning({ bot_id: t.bot_id });
      return rows.length > 0;
    },

    /** Gives the hold up at once (a stop), so another instance takes it without waiting. */
    async release(holder: string, now: Date): Promise<void> {
      await db.update(t).set({ lease_until: now, updated_at: now }).where(mine(holder, now));
    },

    /** The row as stored (tests and the log). */
    async read() {
      return (await db.select().from(t).where(eq(t.bot_id, botId)).limit(1))[0] ?? null;
    },
  };
}

export type UpdatesLease = ReturnType<typeof createUpdatesLease>;

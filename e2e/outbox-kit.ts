/**
 * The artist's messages as the test's own server holds them, read (and, for the hold, moved) by SQL
 * in its database (DATA_DIR/app.db), like queue-kit.ts's copies: a test proves that no further
 * message is on its way by the outbox's state, not by waiting a while to see none arrive
 * (docs/decisions/0445), and ends a decision's hold itself instead of waiting it out (0446).
 */
import { openDb } from "../db/client.ts";

async function withDb<T>(dataDir: string, use: (db: Awaited<ReturnType<typeof openDb>>) => Promise<T>): Promise<T> {
  const db = await openDb({ url: `file:${dataDir}/app.db` });
  try {
    return await use(db);
  } finally {
    db.$client.close();
  }
}

/**
 * What is still on its way to artist `userId`: the texts of the outbox rows waiting or being sent
 * that the Bot API double has not received (`delivered`: its texts; a row is marked sent only after
 * the double's answer), and a «request» for each of the artist's releases whose request for
 * materials the release sweep has not written yet. Empty: nothing more will be sent.
 */
export function stillOnTheWay(dataDir: string, userId: number, delivered: readonly string[]): Promise<string[]> {
  return withDb(dataDir, async (db) => {
    const rows = (await db.$client.execute({
      sql: "SELECT text FROM telegram_outbox WHERE user_id = ? AND status IN ('pending', 'sending')",
      args: [userId],
    })).rows.map((r) => String(r.text));
    const requests = (await db.$client.execute({
      sql: `SELECT r.id FROM releases r JOIN tracks t ON t.id = r.track_id
            WHERE t.user_id = ? AND r.stage = 'materials_requested' AND r.request_told_at IS NULL`,
      args: [userId],
    })).rows.map((r) => `release ${r.id}: its request`);
    const got = new Set(delivered);
    return [...rows.filter((text) => !got.has(text)), ...requests];
  });
}

/**
 * Ends every decision's hold now, as if `holdMs` had passed: the waiting messages become due and
 * the accepted releases' requests may be written (the release sweep's next pass). The server's own
 * clock is untouched; its sender looks again within its poll interval or on the next kick.
 */
export function endHolds(dataDir: string, holdMs: number): Promise<void> {
  return withDb(dataDir, async (db) => {
    await db.$client.batch([
      {
        sql: "UPDATE telegram_outbox SET next_attempt_at = next_attempt_at - ? WHERE status = 'pending'",
        args: [holdMs],
      },
      { sql: "UPDATE releases SET accepted_at = accepted_at - ? WHERE request_told_at IS NULL", args: [holdMs] },
    ], "write");
  });
}

/**
 * The artist's outbox rows for one channel (`telegram`, `vk`), in their order: what was written for
 * them, sent or not. A decision writes its rows when it is saved, so "nothing for this channel" is
 * read here, not from a double that may simply not have been reached yet (decision 0465).
 */
export function outboxOf(
  dataDir: string,
  userId: number,
  channel: string,
): Promise<{ text: string; status: string }[]> {
  return withDb(dataDir, async (db) =>
    (await db.$client.execute({
      sql: "SELECT text, status FROM telegram_outbox WHERE user_id = ? AND channel = ? ORDER BY id",
      args: [userId, channel],
    })).rows.map((r) => ({ text: String(r.text), status: String(r.status) })));
}

import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client.ts";
import { telegramCards, telegramOutbox } from "../../../db/schema.ts";

/** The outbox key of a card's first send; its edits are `card:<id>:edit:<unique>` (a subject of their own). */
export const cardSendKey = (cardId: number) => `card:${cardId}:send:1`;
export const CARD_EDIT_SUPERSEDED = "superseded: a newer edit of the card replaced it";

/**
 * For a decision's (or an undo's, or a vote's) batch: the cards of these pairs get an edit queued,
 * and any edit of them still waiting is dropped (the new one renders the latest state). Nothing for
 * pairs without a card. Pure SQL on the desk's tables, so any write path can add it.
 */
export function cardRefreshStatements(
  db: Db,
  trackId: number,
  directions: readonly string[],
  at: Date,
): BatchItem<"sqlite">[] {
  if (directions.length === 0) return [];
  const t = telegramOutbox;
  const c = telegramCards;
  const cards = db.select({ id: c.id }).from(c).where(
    and(eq(c.track_id, trackId), inArray(c.direction, [...directions])),
  );
  const ms = at.getTime();
  const supersede = db.update(t)
    .set({ status: "superseded", claim_id: null, lease_until: null, last_error: CARD_EDIT_SUPERSEDED, updated_at: at })
    .where(and(
      inArray(t.card_id, cards),
      sql`(${t.status} = 'pending' OR (${t.status} = 'sending' AND ${t.lease_until} <= ${ms}))`,
      sql`${t.key} LIKE 'card:%:edit:%'`,
    ));
  const unique = crypto.randomUUID();
  const insert = db.run(sql`
    insert into ${t} (${sql.identifier(t.key.name)}, ${sql.identifier(t.chat_id.name)}, ${sql.identifier(t.text.name)},
      ${sql.identifier(t.method.name)}, ${sql.identifier(t.card_id.name)}, ${sql.identifier(t.status.name)},
      ${sql.identifier(t.next_attempt_at.name)}, ${sql.identifier(t.created_at.name)}, ${
    sql.identifier(t.updated_at.name)
  })
    select 'card:' || ${c.id} || ':edit:' || ${unique}, ${c.chat_id}, '', 'editMessageText', ${c.id}, 'pending',
      ${ms}, ${ms}, ${ms}
    from ${c}
    where ${c.track_id} = ${trackId} and ${inArray(c.direction, [...directions])}
      and ${c.state} in ('queued', 'sent')
    on conflict (${sql.identifier(t.key.name)}, ${sql.identifier(t.channel.name)}) do nothing`);
  return [supersede, insert];
}

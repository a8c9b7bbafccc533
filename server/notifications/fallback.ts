import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { artistChannels, type OutboxChannel, telegramOutbox, users } from "../../db/schema.ts";
import { channelChat } from "./outbox.ts";

/**
 * Issue 36: a message that could not reach the artist on one channel because they shut it (Telegram
 * 403: the bot blocked; VK 901: messages no longer allowed) goes once to the other channel when that
 * one reaches them, whatever they chose (decision 0392). "Once": a message already written for the
 * other channel (both chosen, or an earlier fallback) gets no second row there (`on conflict`), so a
 * fallback's own failure never comes back. It keeps the original's send time (an undo's hold holds).
 */
export async function fallBack(
  db: Db,
  now: Date,
  rowIds: readonly number[],
  to: OutboxChannel,
  on: { telegram: boolean; vk: boolean },
): Promise<number> {
  if (rowIds.length === 0 || !on[to]) return 0;
  const t = telegramOutbox;
  const at = now.getTime();
  const reaches = to === "telegram"
    ? sql`"u"."telegram_id" is not null`
    : sql`"ac"."vk_user_id" is not null and "ac"."vk_allowed" = 1`;
  const col = (c: { name: string }) => sql.identifier(c.name);
  const result = await db.run(sql`
    insert into ${t} (${col(t.key)}, ${col(t.channel)}, ${col(t.user_id)}, ${col(t.chat_id)}, ${col(t.text)},
      ${col(t.status)}, ${col(t.next_attempt_at)}, ${col(t.created_at)}, ${col(t.updated_at)})
    select "o"."key", ${to}, "u"."id", ${channelChat(to)}, "o"."text", 'pending', max("o"."next_attempt_at", ${at}),
      ${at}, ${at}
    from ${t} as "o" join ${users} as "u" on "u"."id" = "o"."user_id"
      left join ${artistChannels} as "ac" on "ac"."user_id" = "u"."id"
    where ${inArray(sql`"o"."id"`, [...rowIds])} and "o"."card_id" is null and "o"."channel" <> ${to}
      and ${reaches}
    on conflict (${col(t.key)}, ${col(t.channel)}) do nothing`);
  return result.rowsAffected;
}

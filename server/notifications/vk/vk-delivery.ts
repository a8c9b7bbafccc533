import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { telegramOutbox } from "../../../db/schema.ts";
import type { Config } from "../../config.ts";
import type { Clock } from "../../deps.ts";
import type { Logger } from "../../lib/logger.ts";
import { fallBack } from "../fallback.ts";
import type { VkConsent } from "./consent.ts";
import { telegramHtmlToPlain } from "./plain-text.ts";
import type { VkCaller } from "./vk-api.ts";

/**
 * The outbox's VK channel (issue 36, decision 0390): a VK row (`channel = 'vk'`, `chat_id`
 * `vk:<user id>`) is sent by `messages.send` with `peer_id`, the Telegram text read as plain text,
 * and a `random_id` derived from the outbox rows, so a retry after a lost answer is the same message
 * to VK, which drops the repeat (at most once to the artist). Error 901 marks the consent lost and
 * stops the channel (the artist's other VK rows waiting are not sent, and go to Telegram once when
 * it reaches them); 6, 9 and 29 are tried again after a pause (decision 0394).
 */

/** The same shape as sender.ts's `Outcome` (not imported: sender.ts imports this file). */
export type VkOutcome =
  | { kind: "sent" }
  | { kind: "final"; status: "blocked" | "failed"; error: string }
  | { kind: "retry"; error: string; retryAfterMs?: number };

type OutboxRow = typeof telegramOutbox.$inferSelect;

/** Pauses before VK's rate errors are tried again (they do not count as failed tries). */
export const VK_PAUSE_MS: Record<number, number> = {
  6: 1_000, // too many requests per second
  9: 30_000, // flood control
  29: 10 * 60_000, // the method's rate limit
};
/** VK's codes for a user the community may not write to. */
export const VK_NO_PERMISSION = 901;
const VK_UNREACHABLE = new Set([900, 901, 902]);
/** VK's own trouble or a token being replaced: backed off and tried again. */
const VK_TRANSIENT = new Set([1, 5, 10]);

export const VK_CONSENT_LOST = "vk 901: the artist no longer allows the community's messages";

/**
 * `random_id` (int32) for a message made of these outbox rows: the row's id for one row (ids are
 * unique in the table); for a track's joined message, an FNV-1a hash of its ids folded into
 * [2^30, 2^31), away from the single rows' ids. The same rows always give the same number.
 */
export function vkRandomId(ids: readonly number[]): number {
  const sorted = [...ids].sort((a, b) => a - b);
  if (sorted.length === 1 && sorted[0] < 2 ** 30) return sorted[0];
  let h = 0x811c9dc5;
  for (const ch of sorted.join(",")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 2 ** 30 + (h % 2 ** 30);
}

export interface VkDeliveryDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, "telegram">;
  call: VkCaller;
  consent: VkConsent;
}

export interface VkDelivery {
  /** Sends one message made of `rows` (one row, or a track's joined rows) with `text` (Telegram HTML). */
  deliver(rows: readonly OutboxRow[], text: string): Promise<VkOutcome>;
}

export function createVkDelivery(deps: VkDeliveryDeps): VkDelivery {
  const { db, clock, logger } = deps;

  /** 901: consent lost; the artist's other VK rows waiting are stopped and fall back to Telegram once. */
  async function stopChannel(chatId: string, error: string) {
    await deps.consent.lost(chatId.slice("vk:".length));
    const t = telegramOutbox;
    const stopped = await db.update(t)
      .set({ status: "blocked", last_error: error, updated_at: clock.now() })
      .where(and(eq(t.channel, "vk"), eq(t.chat_id, chatId), eq(t.status, "pending")))
      .returning({ id: t.id });
    const ids = stopped.map((r) => r.id);
    await fallBack(db, clock.now(), ids, "telegram", { telegram: Boolean(deps.config.telegram), vk: true });
  }

  return {
    async deliver(rows, text) {
      const chatId = rows[0].chat_id;
      const reply = await deps.call("messages.send", {
        peer_id: chatId.slice("vk:".length),
        random_id: vkRandomId(rows.map((r) => r.id)),
        message: telegramHtmlToPlain(text),
      });
      if (reply.kind === "response") return { kind: "sent" };
      if (reply.kind === "network") return { kind: "retry", error: reply.message };
      const error = `vk ${reply.code}: ${reply.message}`;
      if (reply.code === VK_NO_PERMISSION) {
        await stopChannel(chatId, VK_CONSENT_LOST);
        logger.info("vk: consent lost, channel stopped", { chat: chatId });
        return { kind: "final", status: "blocked", error: VK_CONSENT_LOST };
      }
      if (VK_UNREACHABLE.has(reply.code)) return { kind: "final", status: "blocked", error };
      const pause = VK_PAUSE_MS[reply.code];
      if (pause !== undefined) return { kind: "retry", error, retryAfterMs: pause };
      if (VK_TRANSIENT.has(reply.code)) return { kind: "retry", error };
      return { kind: "final", status: "failed", error };
    },
  };
}

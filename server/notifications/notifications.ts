import type { AppDeps } from "../deps.ts";
import { createTelegramOutbox, type TelegramOutbox } from "./outbox.ts";
import { createTelegramSender, type SenderOptions, type TelegramSender } from "./sender.ts";
import { createTelegramDesk, type TelegramDesk } from "./telegram-desk/desk.ts";
import { createVkConsent, type VkConsent } from "./vk/consent.ts";
import { createVkCaller } from "./vk/vk-api.ts";
import { createVkDelivery } from "./vk/vk-delivery.ts";

/**
 * Messages to artists about decisions (issue 13; docs/decisions/0157). A decision write puts
 * `...outbox.enqueueStatements(notice)` in its `db.batch([...])`, then calls `sender.kick()` once the
 * batch has committed. The server starts the sender (server/main.ts); in tests it stays idle unless
 * a test starts it or calls `runOnce()`. The staff cards in Telegram (issue 27, `desk`) go through
 * the same outbox and sender. With the VK community's settings the artist's messages also go to VK
 * (issue 36, vk/): `vk` holds the consent and the artist's channels.
 */
export interface Notifications {
  outbox: TelegramOutbox;
  sender: TelegramSender;
  desk: TelegramDesk;
  vk: VkConsent;
}

export function createNotifications(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "fetch" | "config"> & Partial<Pick<AppDeps, "storage">>,
  senderOptions?: SenderOptions,
): Notifications {
  const desk = createTelegramDesk(deps);
  const community = deps.config.vkMessages;
  // One caller per app: its pace (20 calls a second) covers the sender's and the consent's calls.
  const call = community ? createVkCaller(deps.fetch, community) : undefined;
  const vk = createVkConsent({ ...deps, call });
  const delivery = call ? createVkDelivery({ ...deps, call, consent: vk }) : undefined;
  return {
    outbox: createTelegramOutbox(deps),
    sender: createTelegramSender({ ...deps, cards: desk, vk: delivery }, senderOptions),
    desk,
    vk,
  };
}

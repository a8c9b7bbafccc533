import type { AppDeps } from "../deps.ts";
import { createTelegramOutbox, type TelegramOutbox } from "./outbox.ts";
import { createTelegramSender, type SenderOptions, type TelegramSender } from "./sender.ts";

/**
 * Messages to artists about decisions (issue 13; docs/decisions/0157). A decision write puts
 * `...outbox.enqueueStatements(notice)` in its `db.batch([...])`, then calls `sender.kick()` once the
 * batch has committed. The server starts the sender (server/main.ts); in tests it stays idle unless
 * a test starts it or calls `runOnce()`.
 */
export interface Notifications {
  outbox: TelegramOutbox;
  sender: TelegramSender;
}

export function createNotifications(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "fetch" | "config">,
  senderOptions?: SenderOptions,
): Notifications {
  return {
    outbox: createTelegramOutbox(deps),
    sender: createTelegramSender(deps, senderOptions),
  };
}

import type { AppDeps } from "../deps.ts";
import { createTelegramOutbox, type TelegramOutbox } from "./outbox.ts";
import { createTelegramSender, type SenderOptions, type TelegramSender } from "./sender.ts";
import { createTelegramDesk, type TelegramDesk } from "./telegram-desk/desk.ts";

/**
 * Messages to artists about decisions (issue 13; docs/decisions/0157). A decision write puts
 * `...outbox.enqueueStatements(notice)` in its `db.batch([...])`, then calls `sender.kick()` once the
 * batch has committed. The server starts the sender (server/main.ts); in tests it stays idle unless
 * a test starts it or calls `runOnce()`. The staff cards in Telegram (issue 27, `desk`) go through
 * the same outbox and sender.
 */
export interface Notifications {
  outbox: TelegramOutbox;
  sender: TelegramSender;
  desk: TelegramDesk;
}

export function createNotifications(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "fetch" | "config"> & Partial<Pick<AppDeps, "storage">>,
  senderOptions?: SenderOptions,
): Notifications {
  const desk = createTelegramDesk(deps);
  return {
    outbox: createTelegramOutbox(deps),
    sender: createTelegramSender({ ...deps, cards: desk }, senderOptions),
    desk,
  };
}

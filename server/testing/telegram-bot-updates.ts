/**
 * The receiving side of the Bot API double (issue 27; docs/protocols.md, "Telegram Bot API"):
 * `getUpdates` (long polling: queued updates, `offset` confirming the earlier ones, `timeout` held
 * open, a second poll while one is open ends the first with 409 Conflict as Telegram does),
 * `setWebhook` / `getWebhookInfo` / `deleteWebhook` (while a webhook is set `getUpdates` is refused
 * with 409), and
 * `answerCallbackQuery`. `deliverWebhook` POSTs an update to the webhook set, with the
 * `X-Telegram-Bot-Api-Secret-Token` header, as Telegram does. Test tooling only.
 */

/** A Bot API update as Telegram sends it (only the parts the server reads). */
export interface BotUpdate {
  update_id: number;
  callback_query?: {
    id: string;
    from: { id: number; is_bot: boolean; first_name: string; username?: string };
    message?: { message_id: number; chat: { id: number; type: string }; date: number };
    chat_instance?: string;
    data?: string;
  };
  [key: string]: unknown;
}

export interface WebhookSettings {
  url: string;
  secret_token?: string;
  allowed_updates?: string[];
}

export interface BotUpdates {
  /** Queues an update for `getUpdates` (its `update_id` is given here); answers the update. */
  push(update: Omit<BotUpdate, "update_id">): BotUpdate;
  /** A press of an inline button, as Telegram reports it: queued for `getUpdates`. */
  press(p: PressInput): BotUpdate;
  /** The webhook set by `setWebhook` (null after `deleteWebhook` or before any). */
  readonly webhook: WebhookSettings | null;
  /**
   * POSTs an update to the webhook set, with its secret header, as Telegram does; `fetch` and
   * `origin` let a test send it to an app in the same process (the webhook's public origin is
   * replaced by `origin`). `secret` overrides the header (null: none).
   */
  deliverWebhook(
    update: Omit<BotUpdate, "update_id">,
    opts?: { fetch?: typeof fetch; origin?: string; secret?: string | null; url?: string },
  ): Promise<Response>;
  /** Updates queued and not yet confirmed by an `offset`. */
  readonly queued: readonly BotUpdate[];
  /** `getUpdates` calls answered 409 because another poll came while they were open. */
  readonly conflicts: number;
  /** The most `getUpdates` calls that were open at the same moment. */
  readonly maxOpenPolls: number;
  /** `getUpdates` calls open now. */
  readonly openPolls: number;
}

export interface PressInput {
  /** The presser's Telegram user id. */
  fromId: number;
  chatId: number;
  messageId: number;
  data: string;
  /** The callback query's id (a fresh one by default). */
  id?: string;
}

/** The update a press of an inline button makes (Bot API `CallbackQuery`). */
export function pressUpdate(p: PressInput): Omit<BotUpdate, "update_id"> {
  return {
    callback_query: {
      id: p.id ?? String(BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000))),
      from: { id: p.fromId, is_bot: false, first_name: "Тест" },
      message: {
        message_id: p.messageId,
        chat: { id: p.chatId, type: "supergroup" },
        date: Math.floor(Date.now() / 1000),
      },
      chat_instance: "1",
      data: p.data,
    },
  };
}

type Answer = { status: number; body: unknown; kind: "ok" | "conflict" | "bad-request" };

const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result }, kind: "ok" });
const refused = (status: number, description: string, kind: Answer["kind"]): Answer => ({
  status,
  body: { ok: false, error_code: status, description },
  kind,
});

/** The methods of the receiving side; `handle` answers them, or null for any other method. */
export function createBotUpdates() {
  const queue: BotUpdate[] = [];
  let nextId = 1000;
  let webhook: WebhookSettings | null = null;
  let conflicts = 0;
  let maxOpenPolls = 0;
  /** Open long polls: each ends when updates arrive, its timeout passes or a newer poll comes. */
  const open = new Set<{ finish: (a: Answer) => void }>();

  const wake = () => {
    for (const poll of [...open]) poll.finish(ok(queue.slice()));
  };

  const api: BotUpdates = {
    push(update) {
      const full = { ...update, update_id: ++nextId } as BotUpdate;
      queue.push(full);
      wake();
      return full;
    },
    press: (p) => api.push(pressUpdate(p)),
    get webhook() {
      return webhook;
    },
    async deliverWebhook(update, opts = {}) {
      if (!webhook && !opts.url) throw new Error("no webhook set");
      let url = opts.url ?? webhook!.url;
      if (opts.origin) {
        const u = new URL(url);
        url = opts.origin.replace(/\/+$/, "") + u.pathname + u.search;
      }
      const secret = opts.secret === undefined ? webhook?.secret_token : opts.secret;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (secret !== null && secret !== undefined) headers["X-Telegram-Bot-Api-Secret-Token"] = secret;
      const body = JSON.stringify({ ...update, update_id: ++nextId });
      return await (opts.fetch ?? fetch)(url, { method: "POST", headers, body });
    },
    get queued() {
      return queue.slice();
    },
    get conflicts() {
      return conflicts;
    },
    get maxOpenPolls() {
      return maxOpenPolls;
    },
    get openPolls() {
      return open.size;
    },
  };

  async function getUpdates(body: Record<string, unknown>, signal: AbortSignal): Promise<Answer> {
    if (webhook) {
      return refused(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        "conflict",
      );
    }
    const offset = Number(body.offset ?? 0);
    // An offset confirms every update below it: Telegram forgets them.
    if (Number.isFinite(offset) && offset > 0) {
      while (queue.length > 0 && queue[0].update_id < offset) queue.shift();
    }
    // Another poll open now is ended with 409, as Telegram ends the older of two pollers.
    for (const poll of [...open]) {
      conflicts++;
      poll.finish(
        refused(
          409,
          "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
          "conflict",
        ),
      );
    }
    const limit = Math.min(100, Math.max(1, Number(body.limit ?? 100) || 100));
    if (queue.length > 0) return ok(queue.slice(0, limit));
    const timeoutS = Math.min(50, Math.max(0, Number(body.timeout ?? 0) || 0));
    if (timeoutS === 0) return ok([]);
    return await new Promise<Answer>((resolve) => {
      const poll = {
        finish: (a: Answer) => {
          if (!open.delete(poll)) return;
          clearTimeout(timer);
          resolve(a.kind === "ok" ? ok(queue.slice(0, limit)) : a);
        },
      };
      const timer = setTimeout(() => poll.finish(ok([])), timeoutS * 1000);
      open.add(poll);
      maxOpenPolls = Math.max(maxOpenPolls, open.size);
      // The poller went away (its process killed, its request aborted): nothing is open any more.
      signal.addEventListener("abort", () => poll.finish(ok([])));
    });
  }

  /** Answers a receiving-side method, or null when `method` is not one of them. */
  async function handle(
    method: string,
    body: Record<string, unknown>,
    /** The request's signal, read only by a long poll (it ends when the poller goes away). */
    signal: () => AbortSignal,
  ): Promise<Answer | null> {
    switch (method) {
      case "getUpdates":
        return await getUpdates(body, signal());
      case "setWebhook": {
        const url = typeof body.url === "string" ? body.url : "";
        if (!url) {
          webhook = null;
          return ok(true);
        }
        if (!url.startsWith("https://")) {
          return refused(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook", "bad-request");
        }
        const secret = body.secret_token;
        if (secret !== undefined && (typeof secret !== "string" || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))) {
          return refused(400, "Bad Request: secret token contains unallowed characters", "bad-request");
        }
        webhook = {
          url,
          secret_token: secret as string | undefined,
          allowed_updates: Array.isArray(body.allowed_updates) ? body.allowed_updates as string[] : undefined,
        };
        // Open polls end: the webhook takes the updates from now on.
        for (const poll of [...open]) {
          poll.finish(refused(409, "Conflict: terminated by setWebhook request", "conflict"));
        }
        return ok(true);
      }
      case "getWebhookInfo":
        return ok({
          url: webhook?.url ?? "",
          has_custom_certificate: false,
          pending_update_count: webhook ? queue.length : 0,
          ...(webhook?.allowed_updates ? { allowed_updates: webhook.allowed_updates } : {}),
        });
      case "deleteWebhook":
        webhook = null;
        if (body.drop_pending_updates === true) queue.length = 0;
        return ok(true);
      case "answerCallbackQuery": {
        if (typeof body.callback_query_id !== "string" || !body.callback_query_id) {
          return refused(
            400,
            "Bad Request: query is too old and response timeout expired or query ID is invalid",
            "bad-request",
          );
        }
        if (typeof body.text === "string" && body.text.length > 200) {
          return refused(400, "Bad Request: MESSAGE_TOO_LONG", "bad-request");
        }
        return ok(true);
      }
      default:
        return null;
    }
  }

  /** Ends every open poll (the double is stopping). */
  const close = () => {
    for (const poll of [...open]) poll.finish(ok([]));
  };

  return { api, handle, close };
}

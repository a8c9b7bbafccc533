/**
 * A local stand-in for the Telegram Bot API's `sendMessage` (docs/protocols.md, "Telegram Bot
 * API"): `POST /bot<token>/sendMessage` with a JSON body answers `{"ok":true,"result":Message}`;
 * failures answer `{"ok":false,"error_code":N,"description":"…","parameters"?:{"retry_after":S}}`
 * with the same HTTP status, as Telegram does. Every call is recorded, failed ones included.
 * Test tooling only.
 */

import { type BotUpdates, createBotUpdates } from "./telegram-bot-updates.ts";

export type BotFailure =
  /** A server error (500 unless `status` says otherwise). */
  | { kind: "server"; status?: number }
  /** Too many requests: `retry_after` seconds. */
  | { kind: "flood"; retryAfterS: number }
  /** The person blocked the bot (403). */
  | { kind: "blocked"; description?: string }
  /** A 400 such as "chat not found". */
  | { kind: "bad-request"; description?: string }
  /**
   * The connection ends while the answer is under way: the status line arrives, the body never
   * does, so the client sees a network error. Telegram may or may not have delivered the message.
   */
  | { kind: "drop" };

export interface BotCall {
  token: string;
  method: string;
  body: Record<string, unknown>;
  /** How the double answered this call. */
  answer: "ok" | BotFailure["kind"] | "unauthorized" | "unknown-method" | "conflict";
  /** When the call arrived (ms), by the double's clock: a test's own clock when it gives one. */
  at: number;
}

export interface TelegramBotDouble {
  /** Base address, to be given as TELEGRAM_BOT_API_URL. */
  url: string;
  token: string;
  /** Every request to a bot method, in order. */
  calls: BotCall[];
  /** Messages answered with ok (what a person would have received). */
  readonly delivered: BotCall[];
  /** Makes the next calls fail, one failure per call, in the order given. */
  failNext(...failures: BotFailure[]): void;
  /** The receiving side (issue 27): queued updates, presses, the webhook (telegram-bot-updates.ts). */
  updates: BotUpdates;
  stop(): Promise<void>;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const failed = (code: number, description: string, parameters?: Record<string, unknown>) =>
  json(code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

export function startTelegramBotDouble(
  opts: { token?: string; /** The clock calls are stamped with (default: the wall clock). */ now?: () => number } = {},
): Promise<TelegramBotDouble> {
  const token = opts.token ?? "123456:TEST-bot-token_for-tests";
  const now = opts.now ?? Date.now;
  const calls: BotCall[] = [];
  const failures: BotFailure[] = [];
  let messageId = 0;
  const updates = createBotUpdates();

  const handler = async (req: Request): Promise<Response> => {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url).pathname);
    if (!match) return failed(404, "Not Found");
    const [, callToken, method] = match;
    let body: Record<string, unknown> = {};
    try {
      const text = await req.text();
      body = text ? JSON.parse(text) : {};
    } catch {
      return failed(400, "Bad Request: can't parse JSON");
    }
    const call: BotCall = { token: callToken, method, body, answer: "ok", at: now() };
    calls.push(call);
    if (callToken !== token) {
      call.answer = "unauthorized";
      return failed(401, "Unauthorized");
    }
    // getUpdates, setWebhook, deleteWebhook, answerCallbackQuery: never failed by `failNext`.
    const received = await updates.handle(method, body, req.signal);
    if (received) {
      call.answer = received.kind;
      return json(received.status, received.body);
    }
    if (method !== "sendMessage") {
      call.answer = "unknown-method";
      return failed(404, "Not Found: method not found");
    }
    const failure = failures.shift();
    if (failure) {
      call.answer = failure.kind;
      switch (failure.kind) {
        case "server":
          return failed(failure.status ?? 500, "Internal Server Error");
        case "flood":
          return failed(429, `Too Many Requests: retry after ${failure.retryAfterS}`, {
            retry_after: failure.retryAfterS,
          });
        case "blocked":
          return failed(403, failure.description ?? "Forbidden: bot was blocked by the user");
        case "bad-request":
          return failed(400, failure.description ?? "Bad Request: chat not found");
        case "drop": {
          // A promised length the body never reaches: the server closes the connection mid-answer.
          const cut = new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(new TextEncoder().encode('{"ok":'));
              c.close();
            },
          });
          return new Response(cut, {
            status: 200,
            headers: { "content-type": "application/json", "content-length": "512" },
          });
        }
      }
    }
    const chatId = body.chat_id;
    const text = typeof body.text === "string" ? body.text : "";
    const refusal = chatId === undefined || chatId === ""
      ? "Bad Request: chat_id is empty"
      : !text
      ? "Bad Request: message text is empty"
      : text.length > 4096
      ? "Bad Request: message is too long"
      : null;
    if (refusal) {
      call.answer = "bad-request";
      return failed(400, refusal);
    }
    return json(200, {
      ok: true,
      result: {
        message_id: ++messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId), type: "private" },
        text,
      },
    });
  };

  return new Promise((resolve) => {
    const server = Deno.serve({
      port: 0,
      hostname: "127.0.0.1",
      onListen: ({ port }) => {
        resolve({
          url: `http://127.0.0.1:${port}`,
          token,
          calls,
          get delivered() {
            return calls.filter((c) => c.answer === "ok" && c.method === "sendMessage");
          },
          failNext: (...f) => void failures.push(...f),
          updates: updates.api,
          stop: () => {
            updates.close();
            return server.shutdown();
          },
        });
      },
    }, handler);
  });
}

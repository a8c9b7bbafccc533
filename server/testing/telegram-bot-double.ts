/**
 * A local stand-in for the Telegram Bot API's `sendMessage` (docs/protocols.md, "Telegram Bot
 * API"), and for the staff cards (issue 27) `sendAudio` (multipart/form-data; the file's bytes are
 * recorded), `editMessageText`, `editMessageCaption` and `editMessageReplyMarkup` over the messages
 * it has sent (`messages`): `POST /bot<token>/sendMessage` with a JSON body answers `{"ok":true,"result":Message}`;
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

/** A file sent in a multipart call (`sendAudio`'s `audio`). */
export interface BotFile {
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** A message as the chat shows it now (after any edits). */
export interface BotMessage {
  chat_id: string;
  message_id: number;
  /** The text of a text message, the caption of an audio one. */
  text: string;
  /** The inline keyboard, or null when it has none. */
  reply_markup: { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] } | null;
  audio: BotFile | null;
  /** How many times it was edited. */
  edits: number;
}

export interface BotCall {
  token: string;
  method: string;
  /** The JSON body, or a multipart call's fields as strings. */
  body: Record<string, unknown>;
  /** A multipart call's files by field name. */
  files?: Record<string, BotFile>;
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
  /** Every message sent with ok (`sendMessage`, `sendAudio`), as edited since, in order. */
  readonly messages: BotMessage[];
  /**
   * Resolves with the delivered messages `match` accepts once there are `count` of them (at once when
   * there already are): an e2e test waits on the double's answers instead of polling it.
   */
  whenDelivered(match: (call: BotCall) => boolean, count: number): Promise<BotCall[]>;
  /**
   * Resolves with `read()`'s value once it is truthy, read now and again after each call the double
   * has answered (its messages, edits, presses' answers): waiting on the double's events, not polling.
   */
  whenAnswered<T>(read: () => T | null | undefined | false): Promise<T>;
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
  const messages: BotMessage[] = [];
  const updates = createBotUpdates();

  const waiters: { match: (call: BotCall) => boolean; count: number; resolve: (calls: BotCall[]) => void }[] = [];
  const isDelivered = (c: BotCall) => c.answer === "ok" && c.method === "sendMessage";
  let watchers: (() => boolean)[] = [];
  const wake = () => {
    watchers = watchers.filter((settled) => !settled());
    for (const w of [...waiters]) {
      const found = calls.filter((c) => isDelivered(c) && w.match(c));
      if (found.length < w.count) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(found);
    }
  };
  const handler = async (req: Request): Promise<Response> => {
    const res = await answer(req);
    wake();
    return res;
  };
  const answer = async (req: Request): Promise<Response> => {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url).pathname);
    if (!match) return failed(404, "Not Found");
    const [, callToken, method] = match;
    let body: Record<string, unknown> = {};
    let files: Record<string, BotFile> | undefined;
    try {
      if ((req.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
        ({ body, files } = await readMultipart(req));
      } else {
        const text = await req.text();
        body = text ? JSON.parse(text) : {};
      }
    } catch {
      return failed(400, "Bad Request: can't parse JSON");
    }
    const call: BotCall = { token: callToken, method, body, ...(files ? { files } : {}), answer: "ok", at: now() };
    calls.push(call);
    if (callToken !== token) {
      call.answer = "unauthorized";
      return failed(401, "Unauthorized");
    }
    // getUpdates, setWebhook, getWebhookInfo, deleteWebhook, answerCallbackQuery: never failed by `failNext`.
    const received = await updates.handle(method, body, () => req.signal);
    if (received) {
      call.answer = received.kind;
      return json(received.status, received.body);
    }
    // The Mini App's menu button (issue 36): a `web_app` button needs a text and an https address.
    if (method === "setChatMenuButton") {
      const refusal = menuButtonRefusal(body.menu_button);
      if (refusal) call.answer = "bad-request";
      return refusal ? failed(400, refusal) : json(200, { ok: true, result: true });
    }
    if (method !== "sendMessage" && !(method in CARD_METHODS)) {
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
    if (method in CARD_METHODS) {
      const answer = cardMethod(method as keyof typeof CARD_METHODS, body, files, messages, () => ++messageId);
      if (!answer.ok) call.answer = "bad-request";
      return answer;
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
    messages.push({
      chat_id: String(chatId),
      message_id: messageId + 1,
      text,
      reply_markup: markupOf(body.reply_markup),
      audio: null,
      edits: 0,
    });
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
            return calls.filter(isDelivered);
          },
          whenDelivered: (match, count) =>
            new Promise((resolve) => {
              waiters.push({ match, count, resolve });
              wake();
            }),
          whenAnswered: <T>(read: () => T | null | undefined | false) =>
            new Promise<T>((resolve) => {
              const settled = () => {
                const value = read();
                if (value) resolve(value);
                return Boolean(value);
              };
              if (!settled()) watchers.push(settled);
            }),
          get messages() {
            return messages;
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

// The staff cards' methods (issue 27).

const CARD_METHODS = {
  sendAudio: true,
  editMessageText: true,
  editMessageCaption: true,
  editMessageReplyMarkup: true,
} as const;

/** Telegram's limits: a caption is at most 1024 characters, a text 4096. */
const CAPTION_MAX = 1024;
const TEXT_MAX = 4096;

async function readMultipart(req: Request): Promise<{ body: Record<string, unknown>; files: Record<string, BotFile> }> {
  const form = await req.formData();
  const body: Record<string, unknown> = {};
  const files: Record<string, BotFile> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") body[name] = value;
    else files[name] = { filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return { body, files };
}

function markupOf(value: unknown): BotMessage["reply_markup"] {
  const parsed = typeof value === "string" ? JSON.parse(value) : value;
  return parsed && typeof parsed === "object" && "inline_keyboard" in parsed
    ? parsed as BotMessage["reply_markup"]
    : null;
}

function cardMethod(
  method: keyof typeof CARD_METHODS,
  body: Record<string, unknown>,
  files: Record<string, BotFile> | undefined,
  messages: BotMessage[],
  nextId: () => number,
): Response {
  const chatId = body.chat_id;
  if (chatId === undefined || chatId === "") return failed(400, "Bad Request: chat_id is empty");
  let markup: BotMessage["reply_markup"];
  try {
    markup = markupOf(body.reply_markup);
  } catch {
    return failed(400, "Bad Request: can't parse reply keyboard markup JSON object");
  }
  const caption = typeof body.caption === "string" ? body.caption : "";
  if (method === "sendAudio") {
    const audio = files?.audio;
    if (!audio || audio.bytes.length === 0) return failed(400, "Bad Request: there is no audio in the request");
    if (caption.length > CAPTION_MAX) return failed(400, "Bad Request: message caption is too long");
    const message: BotMessage = {
      chat_id: String(chatId),
      message_id: nextId(),
      text: caption,
      reply_markup: markup,
      audio,
      edits: 0,
    };
    messages.push(message);
    return json(200, {
      ok: true,
      result: {
        message_id: message.message_id,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId), type: "supergroup" },
        audio: { file_id: `audio-${message.message_id}`, file_size: audio.bytes.length, mime_type: audio.type },
        caption,
      },
    });
  }
  const message = messages.find((m) => m.chat_id === String(chatId) && m.message_id === Number(body.message_id));
  if (!message) return failed(400, "Bad Request: message to edit not found");
  const text = method === "editMessageText"
    ? (typeof body.text === "string" ? body.text : "")
    : method === "editMessageCaption"
    ? caption
    : message.text;
  if (method === "editMessageText") {
    if (message.audio) return failed(400, "Bad Request: there is no text in the message to edit");
    if (!text) return failed(400, "Bad Request: message text is empty");
    if (text.length > TEXT_MAX) return failed(400, "Bad Request: message is too long");
  }
  if (method === "editMessageCaption") {
    if (!message.audio) return failed(400, "Bad Request: there is no caption in the message to edit");
    if (text.length > CAPTION_MAX) return failed(400, "Bad Request: message caption is too long");
  }
  if (text === message.text && JSON.stringify(markup) === JSON.stringify(message.reply_markup)) {
    return failed(
      400,
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  message.text = text;
  message.reply_markup = markup;
  message.edits++;
  return json(200, {
    ok: true,
    result: { message_id: message.message_id, chat: { id: Number(chatId) }, text, caption: text },
  });
}

/** Why Telegram would refuse a `setChatMenuButton` body's `menu_button`; null when it takes it. */
function menuButtonRefusal(button: unknown): string | null {
  if (button === undefined) return null;
  const b = button as { type?: unknown; text?: unknown; web_app?: { url?: unknown } };
  if (!b || typeof b !== "object") return "Bad Request: can't parse menu button";
  if (b.type === "default" || b.type === "commands") return null;
  if (b.type !== "web_app") return "Bad Request: unsupported menu button type";
  if (typeof b.text !== "string" || b.text.length === 0 || b.text.length > 64) {
    return "Bad Request: menu button text is invalid";
  }
  const url = b.web_app?.url;
  if (typeof url !== "string" || !url.startsWith("https://")) return "Bad Request: BUTTON_URL_INVALID";
  return null;
}

import type { Config } from "../../config.ts";

/**
 * One Bot API call (docs/protocols.md, "Telegram Bot API"): `POST {base}/bot{TOKEN}/{method}` with a
 * JSON body; the answer `{ok, result}` or `{ok: false, error_code, description}`. Never throws: a
 * network error or an unreadable answer comes back as `{ok: false}` with the token left out of the
 * description (fetch's errors quote the address, which holds the token).
 */

export interface BotAnswer<T = unknown> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
}

export type BotCaller = <T = unknown>(
  method: string,
  body: Record<string, unknown>,
  opts?: { timeoutMs?: number; signal?: AbortSignal },
) => Promise<BotAnswer<T>>;

export function botCaller(
  bot: NonNullable<Config["telegram"]>,
  fetchFn: typeof fetch,
  defaultTimeoutMs = 15_000,
): BotCaller {
  const redact = (text: string) => text.replaceAll(bot.botToken, "<token>");
  return async <T>(
    method: string,
    body: Record<string, unknown>,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ) => {
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? defaultTimeoutMs);
    try {
      const res = await fetchFn(`${bot.botApiUrl}/bot${bot.botToken}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
      });
      const text = await res.text();
      let answer: BotAnswer<T> | null = null;
      try {
        answer = JSON.parse(text);
      } catch {
        answer = null;
      }
      if (answer && typeof answer === "object" && typeof answer.ok === "boolean") return answer;
      return { ok: false, error_code: res.status, description: `unreadable answer (${res.status})` };
    } catch (err) {
      return { ok: false, description: redact(`network: ${(err as Error)?.message ?? String(err)}`) };
    }
  };
}

/** Telegram's ids are numbers (up to 52 bits); a chat given as text is sent as the number it is. */
export function chatIdValue(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) && Number.isSafeInteger(Number(chatId)) ? Number(chatId) : chatId;
}

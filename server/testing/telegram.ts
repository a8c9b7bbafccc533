import { telegramHash } from "../auth/telegram.ts";

/** A test bot token; its bot id is 123456. */
export const TEST_BOT_TOKEN = "123456:TEST-bot-token_for-tests";

export interface TelegramUserData {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date?: number;
}

/** A Telegram login result signed the way Telegram signs it (id and auth_date as numbers). */
export async function signTelegramAuth(
  data: TelegramUserData,
  opts: { botToken?: string; nowS?: number } = {},
): Promise<Record<string, string | number>> {
  const fields: Record<string, string | number> = {
    ...Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)),
    auth_date: data.auth_date ?? opts.nowS ?? Math.floor(Date.now() / 1000),
  };
  const text = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  return { ...fields, hash: await telegramHash(opts.botToken ?? TEST_BOT_TOKEN, text) };
}

/** What `#tgAuthResult=` carries: base64url of the UTF-8 JSON, no padding. */
export function encodeTgAuthResult(result: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(result));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

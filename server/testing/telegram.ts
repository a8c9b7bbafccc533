import { telegramHash } from "../auth/telegram.ts";
import { webAppHash } from "../auth/telegram-webapp.ts";

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

/** A Telegram Mini App user as the launch data's `user` field carries it (issue 36). */
export interface WebAppUserData {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  allows_write_to_pm?: boolean;
}

/**
 * Mini App launch data (`tgWebAppData`, `Telegram.WebApp.initData`) signed the way Telegram signs it:
 * secret = HMAC-SHA-256(key "WebAppData", bot token), hash over the sorted `key=value` lines.
 */
export async function signWebAppInitData(
  user: WebAppUserData,
  opts: { botToken?: string; authDate: number; extra?: Record<string, string> },
): Promise<string> {
  const fields: Record<string, string> = {
    query_id: "AAHdF6IQAAAAAN0XohDhrOrc",
    user: JSON.stringify(user),
    auth_date: String(opts.authDate),
    ...opts.extra,
  };
  const hash = await webAppHash(opts.botToken ?? TEST_BOT_TOKEN, fields);
  return new URLSearchParams({ ...fields, hash }).toString();
}

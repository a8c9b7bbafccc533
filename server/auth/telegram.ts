import { ApiError, badRequest } from "../lib/http-error.ts";

/**
 * Telegram Login verification (core.telegram.org/widgets/login#checking-authorization; see
 * docs/protocols.md): data-check-string of every received field but `hash`, sorted, joined by
 * `\n`; secret = SHA-256(bot token); valid when hex(HMAC-SHA-256(secret, string)) equals `hash`.
 */
export const EMPTY_AUTH_DATA = "Empty authentication data";

export interface TelegramAuth {
  id: string;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number;
  hash: string;
}

const MALFORMED = "Некорректные данные авторизации Telegram";
/** How far in the future an `auth_date` may lie (clock skew between us and Telegram). */
const FUTURE_SKEW_S = 300;

/** Base64url (padding optional) → bytes → UTF-8 → JSON; plain `atob` would garble Cyrillic names. */
export function decodeTgAuthResult(raw: string): Record<string, unknown> {
  const text = raw.trim();
  if (!/^[A-Za-z0-9_\-+/]+={0,2}$/.test(text) || text.length > 8192) throw badRequest(MALFORMED);
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (b64.length % 4 === 1) throw badRequest(MALFORMED);
  let json: unknown;
  try {
    const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw badRequest(MALFORMED);
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw badRequest(MALFORMED);
  return json as Record<string, unknown>;
}

/**
 * Accepts what the front end may send: the base64url string from `#tgAuthResult=`, that string's
 * JSON text, or the decoded object. Empty input is the spec's "Empty authentication data".
 */
export function parseTgAuthInput(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null || input === "") throw badRequest(EMPTY_AUTH_DATA);
  if (typeof input === "string") {
    const s = input.trim();
    if (!s) throw badRequest(EMPTY_AUTH_DATA);
    if (s.startsWith("{")) {
      try {
        const obj = JSON.parse(s);
        if (obj && typeof obj === "object" && !Array.isArray(obj)) return obj;
      } catch { /* reported below */ }
      throw badRequest(MALFORMED);
    }
    return decodeTgAuthResult(s);
  }
  if (typeof input === "object" && !Array.isArray(input)) {
    if (Object.keys(input).length === 0) throw badRequest(EMPTY_AUTH_DATA);
    return input as Record<string, unknown>;
  }
  throw badRequest(MALFORMED);
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function dataCheckString(fields: Record<string, string>): string {
  return Object.keys(fields)
    .filter((k) => k !== "hash")
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n");
}

async function hmacKey(botToken: string, usage: KeyUsage) {
  const secret = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(botToken));
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** hex(HMAC-SHA-256(SHA-256(botToken), data-check-string)); used by tests to sign results. */
export async function telegramHash(botToken: string, fields: Record<string, string>): Promise<string> {
  const key = await hmacKey(botToken, "sign");
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(dataCheckString(fields)));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Verifies a decoded Telegram result; throws 400 for malformed data and 401 for a bad signature or
 * a stale `auth_date`. Every received field takes part in the check (no fixed list).
 */
export async function verifyTelegramAuth(
  data: Record<string, unknown>,
  opts: { botToken: string; maxAgeS: number; nowS: number },
): Promise<TelegramAuth> {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) {
    // Telegram sends `id` and `auth_date` as JSON numbers; the check uses their decimal text.
    if (typeof v === "string") fields[k] = v;
    else if (typeof v === "number" && Number.isFinite(v)) fields[k] = String(v);
    else if (v === null || v === undefined) continue;
    else throw badRequest(MALFORMED);
  }
  if (Object.keys(fields).length === 0) throw badRequest(EMPTY_AUTH_DATA);
  if (!fields.hash) throw badRequest("Отсутствует подпись данных Telegram");
  if (!fields.id || !/^\d{1,20}$/.test(fields.id)) throw badRequest(MALFORMED);
  if (!fields.auth_date || !/^\d{1,12}$/.test(fields.auth_date)) throw badRequest(MALFORMED);

  const sig = hexToBytes(fields.hash);
  const key = await hmacKey(opts.botToken, "verify");
  // subtle.verify compares in constant time.
  const valid = sig !== null &&
    await crypto.subtle.verify("HMAC", key, sig, new TextEncoder().encode(dataCheckString(fields)));
  if (!valid) throw new ApiError(401, "Неверная подпись данных Telegram");

  const authDate = Number(fields.auth_date);
  if (opts.nowS - authDate > opts.maxAgeS || authDate - opts.nowS > FUTURE_SKEW_S) {
    throw new ApiError(401, "Данные авторизации Telegram устарели. Войдите снова.");
  }
  return {
    id: fields.id,
    first_name: fields.first_name,
    last_name: fields.last_name,
    username: fields.username,
    photo_url: fields.photo_url,
    auth_date: authDate,
    hash: fields.hash.toLowerCase(),
  };
}

import { ApiError, badRequest } from "../lib/http-error.ts";
import { dataCheckString } from "./telegram.ts";

/**
 * Telegram Mini App launch data (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 * `init_data` is the query string Telegram hands the web view (`#tgWebAppData=…`, or
 * `Telegram.WebApp.initData`). Its data-check-string is every field but `hash`, sorted by key,
 * `key=value` joined by `\n` (the values URL-decoded); secret = HMAC-SHA-256(key "WebAppData",
 * bot token); valid when hex(HMAC-SHA-256(secret, data-check-string)) equals `hash`.
 * A launch's data is not spent on use: Telegram hands the same data to every reload of the web view
 * within a launch, so it is good until `auth_date` is `maxAgeS` old (docs/decisions/0381).
 */

export const WEBAPP_MALFORMED = "Некорректные данные запуска Telegram";
export const WEBAPP_BAD_SIGNATURE = "Неверная подпись данных запуска Telegram";
export const WEBAPP_EXPIRED = "Данные запуска Telegram устарели. Откройте приложение заново.";
const FUTURE_SKEW_S = 300;
const MAX_INIT_DATA = 8192;

export interface WebAppUser {
  id: string;
  first_name?: string;
  last_name?: string;
  username?: string;
  allows_write_to_pm: boolean;
  auth_date: number;
}

const enc = new TextEncoder();

async function hmac(key: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(data)));
}

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

/** hex(HMAC-SHA-256(HMAC-SHA-256("WebAppData", botToken), data-check-string)); tests sign with it. */
export async function webAppHash(botToken: string, fields: Record<string, string>): Promise<string> {
  const secret = await hmac(enc.encode("WebAppData"), botToken);
  return hex(await hmac(secret, dataCheckString(fields)));
}

/** Constant-time comparison of two equal-length hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The fields of an init data string; 400 when it is not one. */
export function parseInitData(raw: string): Record<string, string> {
  if (raw.length === 0 || raw.length > MAX_INIT_DATA) throw badRequest(WEBAPP_MALFORMED);
  const fields: Record<string, string> = {};
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw.startsWith("?") || raw.startsWith("#") ? raw.slice(1) : raw);
  } catch {
    throw badRequest(WEBAPP_MALFORMED);
  }
  for (const [k, v] of params) {
    if (k in fields) throw badRequest(WEBAPP_MALFORMED);
    fields[k] = v;
  }
  return fields;
}

function userOf(json: string | undefined): Omit<WebAppUser, "auth_date"> {
  let u: unknown;
  try {
    u = JSON.parse(json ?? "");
  } catch {
    throw badRequest(WEBAPP_MALFORMED);
  }
  if (!u || typeof u !== "object" || Array.isArray(u)) throw badRequest(WEBAPP_MALFORMED);
  const o = u as Record<string, unknown>;
  const id = typeof o.id === "number" && Number.isSafeInteger(o.id) && o.id > 0 ? String(o.id) : null;
  if (!id) throw badRequest(WEBAPP_MALFORMED);
  const text = (v: unknown) => (typeof v === "string" && v.length <= 256 ? v : undefined);
  return {
    id,
    first_name: text(o.first_name),
    last_name: text(o.last_name),
    username: text(o.username),
    allows_write_to_pm: o.allows_write_to_pm === true,
  };
}

/** Launch data whose form is right (its signature not checked yet): the fields and the user they name. */
export interface WebAppLaunch {
  fields: Record<string, string>;
  user: Omit<WebAppUser, "auth_date">;
}

/**
 * The launch data's form, checked before anything else (400 for malformed data, whatever the
 * configuration: the person's mistake, as at the Telegram login).
 */
export function parseWebAppLaunch(raw: string): WebAppLaunch {
  const fields = parseInitData(raw);
  if (!fields.hash || !/^[0-9a-fA-F]{64}$/.test(fields.hash)) throw badRequest(WEBAPP_MALFORMED);
  if (!fields.auth_date || !/^\d{1,12}$/.test(fields.auth_date)) throw badRequest(WEBAPP_MALFORMED);
  return { fields, user: userOf(fields.user) };
}

/**
 * The user a Mini App launch proves: 400 for malformed data, 401 for a bad signature (another bot's
 * data, a changed field) or an `auth_date` older than `maxAgeS` (or too far ahead).
 */
export async function verifyWebAppInitData(
  launch: string | WebAppLaunch,
  opts: { botToken: string; maxAgeS: number; nowS: number },
): Promise<WebAppUser> {
  const { fields, user } = typeof launch === "string" ? parseWebAppLaunch(launch) : launch;
  if (!sameHex(await webAppHash(opts.botToken, fields), fields.hash.toLowerCase())) {
    throw new ApiError(401, WEBAPP_BAD_SIGNATURE);
  }
  const authDate = Number(fields.auth_date);
  if (opts.nowS - authDate > opts.maxAgeS || authDate - opts.nowS > FUTURE_SKEW_S) {
    throw new ApiError(401, WEBAPP_EXPIRED);
  }
  return { ...user, auth_date: authDate };
}

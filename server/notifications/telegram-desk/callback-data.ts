import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The `callback_data` of a staff card's inline buttons (issue 27): `<cardId>.<action>.<signature>`,
 * at most 64 bytes as Telegram allows. The signature is an HMAC-SHA-256 of `<cardId>.<action>` with
 * a secret only the server knows (`callbackSecret`), cut to 96 bits (16 base64url characters): a
 * forged or altered press decodes to null and decides nothing. The card id names the track, the
 * direction and the chat server-side (`telegram_cards`), so the data never carries them.
 *
 * Actions: `a` accept, `s` shortlist, `x` decline (opens the direction's decline templates as a
 * second row), `t<templateId>` decline with that template, `v1` / `v0` / `v-1` votes (👍 🤔 👎).
 */

export type CallbackAction = "a" | "s" | "x" | `t${number}` | "v1" | "v0" | "v-1";

export interface DecodedCallback {
  cardId: number;
  action: CallbackAction;
}

/** Telegram's limit on `callback_data`, in bytes. */
export const CALLBACK_DATA_MAX_BYTES = 64;

const SIGNATURE_CHARS = 16;
const ACTION = /^(a|s|x|t[1-9]\d{0,11}|v1|v0|v-1)$/;
const DATA = /^([1-9]\d{0,15})\.([a-z0-9-]{1,13})\.([A-Za-z0-9_-]{16})$/;

/**
 * The signing secret for callbacks, derived from the JWT secret (or the bot token when that is all
 * there is): a label keeps it distinct from every other use of the same secret.
 */
export function callbackSecret(baseSecret: string): string {
  return createHmac("sha256", baseSecret).update("telegram-desk callback v1").digest("base64url");
}

function sign(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url").slice(0, SIGNATURE_CHARS);
}

export function isCallbackAction(action: string): action is CallbackAction {
  if (!ACTION.test(action)) return false;
  return action[0] !== "t" || Number.isSafeInteger(Number(action.slice(1)));
}

/** The signed data of one button; throws on an id or action that could never be decoded. */
export function encodeCallback(secret: string, cardId: number, action: CallbackAction): string {
  if (!Number.isSafeInteger(cardId) || cardId <= 0) throw new RangeError(`bad card id: ${cardId}`);
  if (!isCallbackAction(action)) throw new RangeError(`bad callback action: ${action}`);
  const body = `${cardId}.${action}`;
  const data = `${body}.${sign(secret, body)}`;
  if (new TextEncoder().encode(data).length > CALLBACK_DATA_MAX_BYTES) throw new RangeError("callback data too long");
  return data;
}

/** The card and action of a press, or null when the data is malformed or its signature is not ours. */
export function decodeCallback(secret: string, data: unknown): DecodedCallback | null {
  if (typeof data !== "string" || data.length > CALLBACK_DATA_MAX_BYTES) return null;
  const m = DATA.exec(data);
  if (!m) return null;
  const [, id, action, signature] = m;
  const expected = sign(secret, `${id}.${action}`);
  const a = new TextEncoder().encode(signature);
  const b = new TextEncoder().encode(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  const cardId = Number(id);
  if (!Number.isSafeInteger(cardId) || !isCallbackAction(action)) return null;
  return { cardId, action };
}

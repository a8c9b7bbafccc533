import { withoutHiddenChars } from "../../domain/hidden-chars.ts";
import type { User } from "../../db/schema.ts";
import type { AppContext } from "../wiring.ts";
import { ApiError } from "../lib/http-error.ts";
import { SIGN_IN_SESSION_INVALID, spendTelegramResult } from "./sign-in-store.ts";
import { parseTgAuthInput, verifyTelegramAuth } from "./telegram.ts";

/**
 * Finding or creating the account behind a provider identity, and the account-link rules shared by
 * sign-in and POST /api/profile/link-accounts (docs/decisions/0011, 0018).
 */
export type Identity =
  | { provider: "vk"; id: string; first_name?: string; last_name?: string; phone?: string }
  | {
    provider: "telegram";
    id: string;
    first_name?: string;
    last_name?: string;
    username?: string;
    hash?: string;
  };

/** A link the rules refuse; `message` is shown to the person. */
export class LinkRefused extends Error {}

export const LINK_REFUSED_HAS_DATA =
  "Этот аккаунт уже используется другим профилем с загруженными треками или особыми правами. Связать аккаунты автоматически нельзя — обратитесь к администратору.";

/** Digits only, 10–15 of them; a Russian 8XXXXXXXXXX becomes 7XXXXXXXXXX. Null when not a phone. */
export function normalizePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (!/^[\d\s()+\-.]+$/.test(raw.trim())) return null;
  let digits = raw.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("8")) digits = "7" + digits.slice(1);
  if (digits.length === 10 && digits.startsWith("9")) digits = "7" + digits;
  return digits.length >= 10 && digits.length <= 15 ? digits : null;
}

const TRANSLIT: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "h",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "sch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  і: "i",
  ї: "yi",
  є: "ye",
};

/** A Latin handle from a name: `Иван Петров` → `ivan_petrov`; empty when nothing usable is left. */
export function slugifyUsername(...parts: (string | undefined | null)[]): string {
  const text = parts.filter(Boolean).join(" ").toLowerCase();
  const latin = [...text].map((ch) => TRANSLIT[ch] ?? ch).join("");
  return latin.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "").slice(0, 24).replace(/_+$/, "");
}

/**
 * A name as VK or Telegram gives it, without the characters that hide or turn text around (issue 20,
 * decision 0205): staff read it, and the person never typed it here to be told to fix it.
 */
function providerName(name: string | undefined): string | null {
  return name ? withoutHiddenChars(name).trim() || null : null;
}

/** A free username starting from the best candidate; numbered when taken. */
export async function uniqueUsername(ctx: AppContext, candidates: string[], fallback: string): Promise<string> {
  const base = candidates.find((c) => c.length >= 3) ?? fallback;
  const taken = await ctx.users.usernamesLike(base);
  if (!taken.has(base)) return base;
  for (let n = 2; n < 5000; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
  return `${base}_${crypto.randomUUID().slice(0, 8)}`;
}

function isUniqueViolation(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ""} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  return /UNIQUE constraint failed/i.test(text);
}

async function createUserFor(ctx: AppContext, identity: Identity): Promise<User> {
  const candidates = identity.provider === "telegram"
    ? [slugifyUsername(identity.username), slugifyUsername(identity.first_name, identity.last_name)]
    : [slugifyUsername(identity.first_name, identity.last_name)];
  const fallback = `${identity.provider === "vk" ? "vk" : "tg"}${identity.id}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const username = attempt === 0
      ? await uniqueUsername(ctx, candidates, fallback)
      : `${fallback}_${crypto.randomUUID().slice(0, 6)}`;
    try {
      return await ctx.users.create({
        username,
        first_name: providerName(identity.first_name),
        last_name: providerName(identity.last_name),
        ...(identity.provider === "vk"
          ? { vk_id: identity.id, phone_number: normalizePhone(identity.phone) }
          : { telegram_id: identity.id, telegram_hash: identity.hash ?? null }),
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Someone signed in with the same identity at the same moment: use their row.
      const existing = await findByIdentity(ctx, identity);
      if (existing) return existing;
    }
  }
  throw new Error("could not create a user");
}

function findByIdentity(ctx: AppContext, identity: Identity): Promise<User | undefined> {
  return ctx.users.byIdentity(identity.provider, identity.id);
}

/**
 * An account that holds nothing but one sign-in identity may be folded into another account:
 * no tracks, no other identity, no staff role, no ban (folding a banned account would lift the ban).
 */
export async function isDisposable(ctx: AppContext, user: User, keep: "vk" | "telegram"): Promise<boolean> {
  if (user.is_admin || user.is_moderator || user.is_banned) return false;
  if (keep === "vk" ? user.telegram_id : user.vk_id) return false;
  return (await ctx.artist.countOwnedBy(user.id)) === 0;
}

/** Fills only empty profile fields: the person may have edited their names since. */
function fillPatch(user: User, identity: Identity): Partial<User> {
  const patch: Partial<User> = {};
  if (!user.first_name && providerName(identity.first_name)) patch.first_name = providerName(identity.first_name);
  if (!user.last_name && providerName(identity.last_name)) patch.last_name = providerName(identity.last_name);
  if (identity.provider === "vk" && !user.phone_number) {
    const phone = normalizePhone(identity.phone);
    if (phone) patch.phone_number = phone;
  }
  if (identity.provider === "telegram" && identity.hash) patch.telegram_hash = identity.hash;
  return patch;
}

export const VK_LINK_TAKEN =
  "Этот аккаунт ВКонтакте уже используется другим профилем. Связать аккаунты автоматически нельзя — обратитесь к администратору.";
export const VK_LINK_PHONE_MISMATCH =
  "Номер телефона в ВКонтакте не совпадает с номером, указанным в профиле. Укажите номер из ВКонтакте и попробуйте снова.";
export const VK_ALREADY_LINKED = "К вашему аккаунту уже привязан ВКонтакте.";

/**
 * `link_telegram_to_vk` completed: a VK sign-in started from the signed-in session of `ownerId`
 * (the profile's link path) attaches that VK identity to the account, when the identity has no
 * account here yet and VK verified the phone the account recorded. A claim alone never links: a
 * stranger's first VK sign-in with a claimed phone gets its own account (decision 0204). Never
 * moves, merges or deletes an account (docs/decisions/0018). Throws `LinkRefused` with the reason.
 */
export async function linkVk(
  ctx: AppContext,
  ownerId: number,
  identity: Extract<Identity, { provider: "vk" }>,
): Promise<User> {
  const owner = await ctx.users.byId(ownerId);
  // Removed or banned since the link started: nobody to link to.
  if (!owner || owner.is_banned) throw new LinkRefused(SIGN_IN_SESSION_INVALID);
  const existing = await findByIdentity(ctx, identity);
  if (existing?.id === owner.id) return owner;
  if (existing) throw new LinkRefused(VK_LINK_TAKEN);
  if (owner.vk_id) throw new LinkRefused(VK_ALREADY_LINKED);
  const phone = normalizePhone(identity.phone);
  if (!phone || phone !== owner.pending_vk_link_phone) throw new LinkRefused(VK_LINK_PHONE_MISMATCH);
  let linked: User | null;
  try {
    linked = await ctx.users.meetPhoneClaim(owner.id, phone, identity.id, fillPatch(owner, identity));
  } catch (err) {
    // The same VK identity got an account at the same moment.
    if (isUniqueViolation(err)) throw new LinkRefused(VK_LINK_TAKEN);
    throw err;
  }
  // The claim changed meanwhile (withdrawn, or VK linked in another window).
  if (!linked) throw new LinkRefused(VK_LINK_PHONE_MISMATCH);
  return linked;
}

/**
 * An existing VK user signed in with a verified phone that other accounts claim: those claims can
 * never be met (the phone's VK account already has its own account here), so they are dropped.
 */
async function dropPhoneClaims(ctx: AppContext, identity: Extract<Identity, { provider: "vk" }>, user: User) {
  const phone = normalizePhone(identity.phone);
  if (!phone) return;
  const claimedBy = await ctx.users.dropPhoneClaims(phone);
  if (claimedBy.length === 0) return;
  ctx.logger.warn("phone claim dropped: the VK account already has its own account", {
    user_id: user.id,
    claimed_by: claimedBy,
  });
}

/** The account for a verified provider identity: found or created. */
export async function accountForIdentity(
  ctx: AppContext,
  identity: Identity,
): Promise<{ user: User; created: boolean }> {
  const existing = await findByIdentity(ctx, identity);
  // An existing user always lands in their own account.
  if (existing) {
    if (identity.provider === "vk") await dropPhoneClaims(ctx, identity, existing);
    const patch = fillPatch(existing, identity);
    const user = Object.keys(patch).length ? await ctx.users.update(existing.id, patch) : existing;
    // Deleted between the two statements: nobody to sign in as.
    if (!user) throw new Error("the account was removed during sign-in");
    return { user, created: false };
  }
  // A phone claim is never consulted here: a first VK sign-in makes its own account (decision 0204).
  return { user: await createUserFor(ctx, identity), created: true };
}

/** Tokens for a user who is allowed in; records the sign-in time. */
export async function startSession(ctx: AppContext, user: User, userAgent?: string | null) {
  await ctx.users.recordSignIn(user.id);
  return await ctx.tokens.issue(user.id, userAgent);
}

/**
 * `link_vk_to_telegram`: attach a verified Telegram identity to the current account.
 * A Telegram-only account with nothing in it is folded in; anything else is refused.
 */
export async function linkTelegram(ctx: AppContext, current: User, tg: Extract<Identity, { provider: "telegram" }>) {
  if (current.telegram_id === tg.id) return current;
  if (current.telegram_id) throw new LinkRefused("К вашему аккаунту уже привязан другой Telegram.");
  const other = await findByIdentity(ctx, tg);
  if (other && !(await isDisposable(ctx, other, "telegram"))) throw new LinkRefused(LINK_REFUSED_HAS_DATA);
  const user = await ctx.users.absorb(
    current.id,
    { ...fillPatch(current, tg), telegram_id: tg.id },
    other ? { id: other.id, telegram_id: tg.id } : undefined,
  );
  // Deleted by an administrator meanwhile; its session ends on the next call.
  if (!user) throw new Error("the account was removed while linking");
  return user;
}

export const TELEGRAM_RESULT_USED = "Эти данные авторизации Telegram уже использованы. Войдите снова.";

/**
 * A Telegram auth result (base64url string or decoded object), verified against the configured bot
 * exactly as at sign-in, as the identity it proves, and spent: the same signed result is refused
 * the next time, for sign-in and linking alike (docs/decisions/0017). 503 when Telegram is not
 * configured.
 */
export async function telegramIdentity(
  ctx: AppContext,
  raw: unknown,
): Promise<Extract<Identity, { provider: "telegram" }>> {
  // Empty or malformed input is the person's mistake whatever the configuration.
  const fields = parseTgAuthInput(raw);
  const tg = ctx.config.telegram;
  if (!tg) throw new ApiError(503, "Вход через Telegram не настроен");
  const data = await verifyTelegramAuth(fields, {
    botToken: tg.botToken,
    maxAgeS: tg.maxAgeS,
    nowS: Math.floor(ctx.clock.now().getTime() / 1000),
  });
  if (!(await spendTelegramResult(ctx, data, tg.maxAgeS))) {
    ctx.logger.warn("telegram result replayed", { telegram_id: data.id });
    throw new ApiError(401, TELEGRAM_RESULT_USED);
  }
  return {
    provider: "telegram",
    id: data.id,
    first_name: data.first_name,
    last_name: data.last_name,
    username: data.username,
    hash: data.hash,
  };
}

import { and, eq, ne, sql } from "drizzle-orm";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../../db/client.ts";
import { artistChannels, type OutboxChannel, users } from "../../../db/schema.ts";
import type { Config } from "../../config.ts";
import type { Clock } from "../../deps.ts";
import type { Logger } from "../../lib/logger.ts";
import type { VkCaller } from "./vk-api.ts";

/**
 * Issue 36: who lets the label's VK community write to them, and where each artist wants their
 * answers (`artist_channels`). The allow-messages flow carries a `key` (signed here with jose, short
 * lived, naming the site's user) that VK hands back in the Callback API's `message_allow`; a VK ID
 * sign-in binds the VK account at once and asks `messages.isMessagesFromGroupAllowed`. `message_deny`
 * unbinds; a `messages.send` error 901 marks the consent lost (docs/decisions/0391, 0392).
 */

/** How long the allow-messages key is accepted (the artist opens VK's window and presses «Разрешить»). */
export const VK_KEY_TTL_S = 30 * 60;
const KEY_AUDIENCE = "vk-messages";

export interface VkBinding {
  vkUserId: string | null;
  allowed: boolean;
  /** The artist's choice, or null: wherever they can receive. */
  chosen: OutboxChannel[] | null;
}

export interface VkConsent {
  /** The community's id, or null without the VK community's settings. */
  readonly groupId: number | null;
  /** The allow-messages key for this user: a short-lived JWT, ≤ 256 characters as VK asks. */
  keyFor(userId: number): Promise<string>;
  /** The user a key names, or null for a forged, foreign or expired one. */
  userOfKey(key: string): Promise<number | null>;
  binding(userId: number): Promise<VkBinding>;
  /** `message_allow`: binds the VK user to the key's account (or to the account signed in with that VK id). */
  allowed(vkUserId: string, key: string | undefined): Promise<number | null>;
  /** `message_deny`: the VK user's binding is removed. */
  denied(vkUserId: string): Promise<void>;
  /** An artist signed in with VK ID: bound by their VK id, allowed as VK says. */
  bindSignedIn(userId: number, vkId: string): Promise<void>;
  /** When bound but not allowed, asks VK again (the artist may have allowed without the key). */
  refresh(userId: number): Promise<VkBinding>;
  /** Error 901 from `messages.send`: the VK user no longer lets the community write. */
  lost(vkUserId: string): Promise<void>;
  setChannels(userId: number, channels: readonly OutboxChannel[]): Promise<void>;
  /** Where the user can receive now (Telegram: a Telegram id and a bot; VK: allowed). */
  receivable(userId: number): Promise<OutboxChannel[]>;
}

export interface ConsentDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, "vkMessages" | "telegram"> & { jwtSecret?: string };
  /** Absent without the VK community's settings. */
  call?: VkCaller;
}

/** A key of its own for the allow-messages keys, derived from JWT_SECRET: never a session token. */
async function keyKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const derived = await crypto.subtle.sign("HMAC", base, new TextEncoder().encode("vk-messages-allow-key"));
  return await crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export function parseChannels(stored: string | null): OutboxChannel[] | null {
  if (stored === null) return null;
  return stored.split(",").filter((c): c is OutboxChannel => c === "telegram" || c === "vk");
}

export function createVkConsent(deps: ConsentDeps): VkConsent {
  const { db, clock, logger } = deps;
  const vk = deps.config.vkMessages;
  let signing: Promise<CryptoKey> | null = null;
  const secret = () => (signing ??= keyKey(deps.config.jwtSecret ?? ""));
  const ac = artistChannels;

  async function bind(userId: number, vkUserId: string, allowed: boolean) {
    const now = clock.now();
    // One VK account answers for one site account: a binding elsewhere moves here.
    await db.batch([
      db.update(ac).set({ vk_user_id: null, vk_allowed: false, updated_at: now })
        .where(and(eq(ac.vk_user_id, vkUserId), ne(ac.user_id, userId))),
      db.insert(ac).values({
        user_id: userId,
        vk_user_id: vkUserId,
        vk_allowed: allowed,
        created_at: now,
        updated_at: now,
      })
        .onConflictDoUpdate({
          target: ac.user_id,
          set: { vk_user_id: vkUserId, vk_allowed: allowed, updated_at: now },
        }),
    ]);
  }

  /** VK's word on whether the user lets the community write; null when VK could not be asked. */
  async function askAllowed(vkUserId: string): Promise<boolean | null> {
    if (!vk || !deps.call) return null;
    const reply = await deps.call("messages.isMessagesFromGroupAllowed", { group_id: vk.groupId, user_id: vkUserId });
    if (reply.kind === "response") {
      return (reply.response as { is_allowed?: unknown } | null)?.is_allowed === 1;
    }
    logger.warn("vk: isMessagesFromGroupAllowed failed", {
      error: reply.kind === "error" ? `${reply.code}: ${reply.message}` : reply.message,
    });
    return null;
  }

  async function binding(userId: number): Promise<VkBinding> {
    const [row] = await db.select().from(ac).where(eq(ac.user_id, userId));
    return {
      vkUserId: row?.vk_user_id ?? null,
      allowed: Boolean(row?.vk_user_id && row.vk_allowed),
      chosen: parseChannels(row?.channels ?? null),
    };
  }

  return {
    groupId: vk?.groupId ?? null,
    async keyFor(userId) {
      const now = Math.floor(clock.now().getTime() / 1000);
      return await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(userId))
        .setAudience(KEY_AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + VK_KEY_TTL_S)
        .sign(await secret());
    },
    async userOfKey(key) {
      try {
        const { payload } = await jwtVerify(key, await secret(), {
          algorithms: ["HS256"],
          audience: KEY_AUDIENCE,
          currentDate: clock.now(),
        });
        const id = Number(payload.sub);
        return Number.isSafeInteger(id) && id > 0 ? id : null;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },
    binding,
    async allowed(vkUserId, key) {
      let userId = key ? await this.userOfKey(key) : null;
      if (userId !== null) {
        const [exists] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
        if (!exists) userId = null;
      }
      if (userId === null) {
        // No key (allowed from the community's page), or one run out: the account signed in with this VK id.
        const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.vk_id, vkUserId));
        userId = owner?.id ?? null;
      }
      if (userId === null) {
        logger.info("vk: message_allow names no account", { key_given: Boolean(key) });
        return null;
      }
      await bind(userId, vkUserId, true);
      return userId;
    },
    async denied(vkUserId) {
      await db.update(ac).set({ vk_user_id: null, vk_allowed: false, updated_at: clock.now() })
        .where(eq(ac.vk_user_id, vkUserId));
    },
    async bindSignedIn(userId, vkId) {
      if (!vk) return;
      const before = await binding(userId);
      const asked = await askAllowed(vkId);
      await bind(userId, vkId, asked ?? (before.vkUserId === vkId && before.allowed));
    },
    async refresh(userId) {
      const now = await binding(userId);
      if (!vk) return now;
      if (now.vkUserId === null) {
        const [user] = await db.select({ vk_id: users.vk_id }).from(users).where(eq(users.id, userId));
        if (user?.vk_id) {
          await this.bindSignedIn(userId, user.vk_id);
          return await binding(userId);
        }
        return now;
      }
      if (now.allowed) return now;
      if (await askAllowed(now.vkUserId)) {
        await bind(userId, now.vkUserId, true);
        return { ...now, allowed: true };
      }
      return now;
    },
    async lost(vkUserId) {
      await db.update(ac).set({ vk_allowed: false, updated_at: clock.now() }).where(eq(ac.vk_user_id, vkUserId));
    },
    async setChannels(userId, channels) {
      const now = clock.now();
      const stored = [...new Set(channels)].join(",");
      await db.insert(ac).values({ user_id: userId, channels: stored, created_at: now, updated_at: now })
        .onConflictDoUpdate({ target: ac.user_id, set: { channels: stored, updated_at: now } });
    },
    async receivable(userId) {
      const [row] = await db
        .select({
          telegram: sql<number>`${users.telegram_id} is not null`,
          vk: sql<number>`coalesce(${ac.vk_user_id} is not null and ${ac.vk_allowed}, 0)`,
        })
        .from(users)
        .leftJoin(ac, eq(ac.user_id, users.id))
        .where(eq(users.id, userId));
      const out: OutboxChannel[] = [];
      if (row?.telegram && deps.config.telegram) out.push("telegram");
      if (row?.vk && vk) out.push("vk");
      return out;
    },
  };
}

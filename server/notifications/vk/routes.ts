import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod";
import { OUTBOX_CHANNELS, type OutboxChannel } from "../../../db/schema.ts";
import { VK_MESSAGES_TEXTS } from "../../../domain/message-channels.ts";
import { perAddressLimit } from "../../auth/rate-limit.ts";
import type { AppEnv } from "../../deps.ts";
import { validate } from "../../http/validate.ts";
import { badRequest, forbidden, notFound } from "../../lib/http-error.ts";
import type { AppContext } from "../../wiring.ts";

/**
 * Issue 36, VK community messages: the artist's consent and channels (`GET /api/profile/vk-messages`,
 * `PUT /api/profile/channels`) and the Callback API's calls (`POST /api/vk/callback`). Both are
 * limited per address like the sign-ins (AUTH_RATE_LIMIT_PER_MIN, counted apart: decision 0395).
 * Neither the community's token nor its secret ever appears in an answer or the log; the key is
 * given only to its own artist.
 */

const same = (a: string, b: string) => {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const channelsBody = z.object({
  channels: z.array(z.enum(OUTBOX_CHANNELS), { message: VK_MESSAGES_TEXTS.badChannels })
    .min(1, { message: VK_MESSAGES_TEXTS.noChannel })
    .max(OUTBOX_CHANNELS.length, { message: VK_MESSAGES_TEXTS.badChannels }),
});

/** VK's Callback API call (docs/protocols.md): `object` is the event's; a VK user id is a positive integer. */
const callbackBody = z.object({
  type: z.string().min(1).max(100),
  group_id: z.number().int().positive(),
  secret: z.string().max(1000).optional(),
  event_id: z.string().max(200).optional(),
  v: z.string().max(20).optional(),
  object: z.unknown().optional(),
});
const allowObject = z.object({ user_id: z.number().int().positive(), key: z.string().max(1000).optional() });
const denyObject = z.object({ user_id: z.number().int().positive() });

/** The artist's channels: chosen, else wherever they can receive (decision 0393). */
async function channelsOf(ctx: AppContext, userId: number, chosen: OutboxChannel[] | null) {
  if (chosen && chosen.length) return chosen;
  return await ctx.notifications.vk.receivable(userId);
}

/** /api/profile/vk-messages and /api/profile/channels. */
export function createVkProfileRoutes(ctx: AppContext) {
  const limited = perAddressLimit(ctx, "vk-messages");
  const vk = ctx.notifications.vk;
  return new Hono<AppEnv>()
    .get("/vk-messages", ctx.guards.user, limited, async (c) => {
      const user = c.get("user");
      c.header("Cache-Control", "no-store");
      const binding = await vk.refresh(user.id);
      const channels = await channelsOf(ctx, user.id, binding.chosen);
      // Without the VK community's settings: no community and no key, only the channels.
      const key = vk.groupId === null ? null : await vk.keyFor(user.id);
      return c.json({
        success: true as const,
        group_id: vk.groupId,
        key,
        allowed: vk.groupId !== null && binding.allowed,
        channels,
      });
    })
    .put("/channels", ctx.guards.user, limited, validate("json", channelsBody), async (c) => {
      const user = c.get("user");
      const { channels } = c.req.valid("json");
      if (new Set(channels).size !== channels.length) throw badRequest(VK_MESSAGES_TEXTS.badChannels);
      if (channels.includes("vk") && vk.groupId === null) throw badRequest(VK_MESSAGES_TEXTS.vkOff);
      // In the canonical order, whatever order they came in.
      const ordered = OUTBOX_CHANNELS.filter((ch) => channels.includes(ch));
      await vk.setChannels(user.id, ordered);
      return c.json({ success: true as const, channels: ordered });
    });
}

/**
 * POST /api/vk/callback: the community's Callback API server. A call without the community's
 * `secret` or for another `group_id` is refused (403); `confirmation` is answered with
 * VK_CALLBACK_CONFIRMATION, every other event with `ok` (VK retries anything else, so a 429 or a
 * failed write loses nothing). `message_allow` binds, `message_deny` unbinds (decision 0391).
 */
export function createVkCallbackRoutes(ctx: AppContext) {
  const vk = ctx.notifications.vk;
  return new Hono<AppEnv>().post("/callback", perAddressLimit(ctx, "vk-callback"), async (c) => {
    const community = ctx.config.vkMessages;
    if (!community) throw notFound();
    const parsed = callbackBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) throw badRequest(VK_MESSAGES_TEXTS.badEvent);
    const event = parsed.data;
    if (!same(event.secret ?? "", community.secret) || event.group_id !== community.groupId) {
      ctx.logger.warn("vk callback refused", { type: event.type.slice(0, 40), group_id: event.group_id });
      throw forbidden(VK_MESSAGES_TEXTS.badSecret);
    }
    if (event.type === "confirmation") return c.text(community.confirmation);
    if (event.type === "message_allow") {
      const object = allowObject.safeParse(event.object);
      if (!object.success) throw badRequest(VK_MESSAGES_TEXTS.badEvent);
      const userId = await vk.allowed(String(object.data.user_id), object.data.key);
      ctx.logger.info("vk messages allowed", { bound: userId !== null });
    } else if (event.type === "message_deny") {
      const object = denyObject.safeParse(event.object);
      if (!object.success) throw badRequest(VK_MESSAGES_TEXTS.badEvent);
      await vk.denied(String(object.data.user_id));
      ctx.logger.info("vk messages denied");
    }
    return c.text("ok");
  });
}

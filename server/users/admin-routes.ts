import { Hono } from "hono";
import { banRefusal } from "../../domain/ban-rules.ts";
import { type AdminUserPatch as UserPatch, adminUserSchemas, USER_TEXTS, userFlagsProblem } from "../../domain/user.ts";
import type { User } from "../../db/schema.ts";
import type { AppEnv } from "../deps.ts";
import type { AppContext } from "../wiring.ts";
import { badRequest, conflict, notFound } from "../lib/http-error.ts";
import { type PublicAddress, publicAddresses } from "../http/public-static.ts";
import { parseId, validate } from "../http/validate.ts";
import type { UserPatch as StoredPatch } from "./service.ts";

/**
 * /api/admin/users: list, get, create, update, delete, ban, unban. The rules of spec 2 §4–5 hold
 * here, whatever the form sends: an admin cannot demote, ban or delete themself; admins cannot be
 * banned, and selecting admin clears a ban; non-moderators have no categories; `*` means all.
 * A ban revokes every session of the user at once.
 */

const { notFound: USER_NOT_FOUND, usernameTaken: USERNAME_TAKEN, selfDelete: SELF_DELETE } = USER_TEXTS;

export function adminUserView(u: User, address: PublicAddress = (stored) => stored) {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    avatar: address(u.avatar),
    city: u.city,
    birth_date: u.birth_date,
    bio: u.bio,
    favorite_dnb_genre: u.favorite_dnb_genre,
    vk_id: u.vk_id,
    telegram_id: u.telegram_id,
    telegram_hash: u.telegram_hash,
    phone_number: u.phone_number,
    is_admin: u.is_admin,
    is_moderator: u.is_moderator,
    moderator_categories: u.moderator_categories,
    is_banned: u.is_banned,
    ban_reason: u.ban_reason,
    created_at: u.created_at.toISOString(),
    last_login_at: u.last_login_at?.toISOString() ?? null,
  };
}

export function createAdminUserRoutes(ctx: AppContext) {
  const address = publicAddresses(ctx.publicStorage);
  const view = (u: User) => adminUserView(u, address);
  const service = ctx.users;
  // The rules live in domain/user.ts, shared with the admin user form; today is the server's.
  const { create: createSchema, update: updateSchema, list: listSchema, ban: banSchema } = adminUserSchemas(
    () => ctx.clock.now().toISOString().slice(0, 10),
  );

  const load = async (id: number) => {
    const row = await service.byId(id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  };

  /** Unique fields, checked before writing so the answer names what is taken. */
  const checkUnique = async (patch: UserPatch, exceptId?: number) => {
    const taken = await service.taken(patch, exceptId);
    if (taken === "username") throw conflict(USERNAME_TAKEN);
    if (taken === "vk_id") throw conflict(USER_TEXTS.vkIdTaken);
    if (taken === "telegram_id") throw conflict(USER_TEXTS.telegramIdTaken);
  };

  /** The flags after the change, with the spec's rules applied; throws on what is refused. */
  const applyRules = (me: User, target: User | null, patch: UserPatch) => {
    const isAdmin = patch.is_admin ?? target?.is_admin ?? false;
    const isModerator = patch.is_moderator ?? target?.is_moderator ?? false;
    const refused = userFlagsProblem({
      self: target !== null && target.id === me.id,
      admin: isAdmin,
      banned: patch.is_banned ?? target?.is_banned ?? false,
      adminChosen: patch.is_admin === true,
    });
    if (refused) throw badRequest(refused);
    // Choosing admin clears a ban (the rule above refuses a ban on someone who stays admin).
    const isBanned = !isAdmin && (patch.is_banned ?? target?.is_banned ?? false);
    const cats = isModerator ? patch.moderator_categories ?? target?.moderator_categories ?? "" : "";
    const out: StoredPatch = {
      is_admin: isAdmin,
      is_moderator: isModerator,
      moderator_categories: cats,
      is_banned: isBanned,
    };
    if (!isBanned) out.ban_reason = null;
    else if (patch.ban_reason !== undefined) out.ban_reason = patch.ban_reason;
    return out;
  };

  return new Hono<AppEnv>()
    .get("/", validate("query", listSchema), async (c) => {
      const q = c.req.valid("query");
      const list = await service.list({
        ...q,
        page: q.page === undefined ? undefined : Number(q.page),
        page_size: q.page_size === undefined ? undefined : Number(q.page_size),
      });
      return c.json({ success: true, ...list, users: list.users.map(view) });
    })
    .post("/", validate("json", createSchema), async (c) => {
      const input = c.req.valid("json");
      await checkUnique(input);
      const flags = applyRules(c.get("user"), null, input);
      const row = await service.create({
        username: input.username,
        email: input.email ?? null,
        first_name: input.first_name ?? null,
        last_name: input.last_name ?? null,
        phone_number: input.phone_number ?? null,
        city: input.city ?? null,
        bio: input.bio ?? null,
        telegram_hash: input.telegram_hash ?? null,
        vk_id: input.vk_id ?? null,
        telegram_id: input.telegram_id ?? null,
        birth_date: input.birth_date ?? null,
        favorite_dnb_genre: input.favorite_dnb_genre ?? null,
        ...flags,
      });
      return c.json({ success: true, user: view(row) }, 201);
    })
    .get("/:id", async (c) => {
      return c.json({ success: true, user: view(await load(parseId(c.req.param("id")))) });
    })
    .put("/:id", validate("json", updateSchema), async (c) => {
      const target = await load(parseId(c.req.param("id")));
      const patch = c.req.valid("json");
      await checkUnique(patch, target.id);
      const flags = applyRules(c.get("user"), target, patch);
      const set: StoredPatch = { ...flags };
      for (
        const k of [
          "username",
          "email",
          "first_name",
          "last_name",
          "phone_number",
          "city",
          "bio",
          "telegram_hash",
          "vk_id",
          "telegram_id",
          "birth_date",
          "favorite_dnb_genre",
        ] as const
      ) {
        if (patch[k] !== undefined) (set as Record<string, unknown>)[k] = patch[k];
      }
      // A ban set here ends the user's sessions inside the service.
      const row = await service.update(target.id, set);
      if (!row) throw notFound(USER_NOT_FOUND);
      return c.json({ success: true, user: view(row) });
    })
    .delete("/:id", async (c) => {
      const target = await load(parseId(c.req.param("id")));
      if (target.id === c.get("user").id) throw badRequest(SELF_DELETE);
      // Their tracks stay, as guest tracks under the name they had.
      await service.remove(target.id, target.username);
      return c.json({ success: true });
    })
    .post("/:id/ban", validate("json", banSchema), async (c) => {
      const target = await load(parseId(c.req.param("id")));
      const refused = banRefusal({ self: target.id === c.get("user").id, admin: target.is_admin });
      if (refused) throw badRequest(refused);
      const row = await service.ban(target.id, c.req.valid("json").reason ?? null);
      if (!row) throw notFound(USER_NOT_FOUND);
      return c.json({ success: true, user: view(row) });
    })
    .post("/:id/unban", async (c) => {
      const target = await load(parseId(c.req.param("id")));
      const row = await service.unban(target.id);
      if (!row) throw notFound(USER_NOT_FOUND);
      return c.json({ success: true, user: view(row) });
    });
}

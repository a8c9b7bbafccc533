import { Hono } from "hono";
import { z } from "zod";
import { GENRES, isDirection } from "../../domain/directions.ts";
import type { User } from "../../db/schema.ts";
import type { AppContext, AppEnv } from "../deps.ts";
import { badRequest, conflict, notFound } from "../lib/http-error.ts";
import { parseId, validate } from "../lib/validate.ts";
import type { UserPatch as StoredPatch } from "./service.ts";

/**
 * /api/admin/users: list, get, create, update, delete, ban, unban. The rules of spec 2 §4–5 hold
 * here, whatever the form sends: an admin cannot demote, ban or delete themself; admins cannot be
 * banned, and selecting admin clears a ban; non-moderators have no categories; `*` means all.
 * A ban revokes every session of the user at once.
 */

export const USER_NOT_FOUND = "Пользователь не найден";
export const USERNAME_REQUIRED = "Имя пользователя обязательно для заполнения";
export const USERNAME_TAKEN = "Пользователь с таким именем уже существует";
export const BAD_EMAIL = "Некорректный формат email";
export const SELF_DEMOTE = "Вы не можете снять с себя права администратора";
export const SELF_BAN = "Вы не можете заблокировать себя";
export const SELF_DELETE = "Вы не можете удалить свой аккаунт";
export const BAN_ADMIN = "Нельзя заблокировать администратора";

export function adminUserView(u: User) {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    avatar: u.avatar,
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

// ---------------------------------------------------------------------------------------------

/** Optional text: empty means null (spec 2 §5: "empty optional values are sent as null"). */
const text = (max: number, label: string) =>
  z
    .union([z.string().max(max, `${label}: не более ${max} символов`), z.null()])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === "" ? null : v.trim()));

const idText = (label: string) =>
  z
    .union([z.string().max(64), z.number().int().nonnegative(), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v === null ? "" : String(v).trim();
      if (s === "") return null;
      if (!/^[\w.@-]{1,64}$/.test(s)) {
        ctx.addIssue({ code: "custom", message: `Некорректный ${label}` });
        return z.NEVER;
      }
      return s;
    });

// The usual "something@domain.tld" check: no spaces, one @, a dot in the domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const flag = z.union([z.boolean(), z.enum(["true", "false"])]).transform((v) => v === true || v === "true");

const categories = z
  .union([z.string().max(500), z.array(z.string().max(50)).max(20), z.null()])
  .transform((v, ctx) => {
    const list = (Array.isArray(v) ? v : (v ?? "").split(",")).map((s) => s.trim()).filter(Boolean);
    if (list.includes("*")) return "*";
    const unknown = list.find((s) => !isDirection(s));
    if (unknown !== undefined) {
      ctx.addIssue({ code: "custom", message: "Неизвестная категория модератора" });
      return z.NEVER;
    }
    return [...new Set(list)].join(",");
  });

const userFields = {
  username: z
    .string({ message: USERNAME_REQUIRED })
    .max(64, "Имя пользователя: не более 64 символов")
    .transform((v) => v.trim())
    .pipe(z.string().min(1, USERNAME_REQUIRED)),
  email: z
    .union([z.string().max(254, BAD_EMAIL), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v?.trim() ?? "";
      if (s === "") return null;
      if (!EMAIL.test(s)) {
        ctx.addIssue({ code: "custom", message: BAD_EMAIL });
        return z.NEVER;
      }
      return s;
    }),
  first_name: text(100, "Имя"),
  last_name: text(100, "Фамилия"),
  phone_number: text(32, "Телефон"),
  city: text(100, "Город"),
  bio: text(2000, "О себе"),
  telegram_hash: text(200, "Telegram hash"),
  ban_reason: text(500, "Причина блокировки"),
  vk_id: idText("VK ID"),
  telegram_id: idText("Telegram ID"),
  birth_date: z
    .union([z.string().max(20), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v?.trim() ?? "";
      if (s === "") return null;
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
      const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
      if (!m || !d || d.getUTCDate() !== +m[3] || +m[1] < 1900) {
        ctx.addIssue({ code: "custom", message: "Некорректная дата рождения" });
        return z.NEVER;
      }
      return s;
    }),
  favorite_dnb_genre: z
    .union([z.string().max(50), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v?.trim() ?? "";
      if (s === "") return null;
      if (!(GENRES as readonly string[]).includes(s)) {
        ctx.addIssue({ code: "custom", message: "Неизвестный жанр" });
        return z.NEVER;
      }
      return s;
    }),
  is_admin: flag.optional(),
  is_moderator: flag.optional(),
  is_banned: flag.optional(),
  moderator_categories: categories.optional(),
};

const createSchema = z.object(userFields);
const updateSchema = z.object({ ...userFields, username: userFields.username.optional() });
type UserPatch = z.output<typeof updateSchema>;

const listSchema = z.object({
  search: z.string().max(200, "Слишком длинный поисковый запрос").optional(),
  status: z.enum(["all", "active", "banned", ""], { message: "Некорректный фильтр статуса" }).optional(),
  role: z.enum(["all", "admin", "moderator", "user", ""], { message: "Некорректный фильтр роли" }).optional(),
  page: z.string().regex(/^\d{1,9}$/, "Некорректный номер страницы").optional(),
  page_size: z.string().regex(/^\d{1,3}$/, "Некорректный размер страницы").optional()
    .refine((v) => v === undefined || (+v >= 1 && +v <= 100), "Размер страницы: от 1 до 100"),
});

const banSchema = z.object({ reason: text(500, "Причина блокировки") });

// ---------------------------------------------------------------------------------------------

export function createAdminUserRoutes(ctx: AppContext) {
  const service = ctx.users;

  const load = async (id: number) => {
    const row = await service.byId(id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  };

  /** Unique fields, checked before writing so the answer names what is taken. */
  const checkUnique = async (patch: UserPatch, exceptId?: number) => {
    const taken = await service.taken(patch, exceptId);
    if (taken === "username") throw conflict(USERNAME_TAKEN);
    if (taken === "vk_id") throw conflict("Этот VK ID уже привязан к другому пользователю");
    if (taken === "telegram_id") throw conflict("Этот Telegram ID уже привязан к другому пользователю");
  };

  /** The flags after the change, with the spec's rules applied; throws on what is refused. */
  const applyRules = (me: User, target: User | null, patch: UserPatch) => {
    const isAdmin = patch.is_admin ?? target?.is_admin ?? false;
    const isModerator = patch.is_moderator ?? target?.is_moderator ?? false;
    let isBanned = patch.is_banned ?? target?.is_banned ?? false;
    if (target && target.id === me.id) {
      if (!isAdmin) throw badRequest(SELF_DEMOTE);
      if (isBanned) throw badRequest(SELF_BAN);
    }
    if (isAdmin && isBanned) {
      // Choosing admin in the form clears the ban; asking to ban someone who stays admin is refused.
      if (patch.is_admin === true) isBanned = false;
      else throw badRequest(BAN_ADMIN);
    }
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
      return c.json({ success: true, ...list, users: list.users.map(adminUserView) });
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
      return c.json({ success: true, user: adminUserView(row) }, 201);
    })
    .get("/:id", async (c) => {
      return c.json({ success: true, user: adminUserView(await load(parseId(c.req.param("id")))) });
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
      return c.json({ success: true, user: adminUserView(row) });
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
      if (target.id === c.get("user").id) throw badRequest(SELF_BAN);
      if (target.is_admin) throw badRequest(BAN_ADMIN);
      const row = await service.ban(target.id, c.req.valid("json").reason ?? null);
      if (!row) throw notFound(USER_NOT_FOUND);
      return c.json({ success: true, user: adminUserView(row) });
    })
    .post("/:id/unban", async (c) => {
      const target = await load(parseId(c.req.param("id")));
      const row = await service.unban(target.id);
      if (!row) throw notFound(USER_NOT_FOUND);
      return c.json({ success: true, user: adminUserView(row) });
    });
}

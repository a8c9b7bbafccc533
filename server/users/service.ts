import { and, asc, eq, isNull, like, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type NewUser, type User, users } from "../../db/schema.ts";
import type { Clock } from "../deps.ts";
import { containsSql } from "../lib/search.ts";
import { keepTracksAsGuest } from "../tracks/guest-tracks.ts";

/**
 * The one way to read and write `users` rows (docs/decisions/0120-service-boundaries.md).
 *
 * Authentication caches a signed-in person's row for a few seconds (docs/decisions/0014); every
 * write here drops that entry itself, after the write, so the next call sees the change and no
 * caller has to remember to. A write that leaves the person banned also ends their sessions.
 * The one read outside this file is the token service's session lookup, which joins the user to
 * the session in the same round trip and is the cache these writes drop.
 */

/** What drops a person's cached sessions; the token service in the app. */
export interface SessionInvalidation {
  forgetUser(userId: number): void;
  revokeUser(userId: number): Promise<void>;
}

export type UserValues = Omit<NewUser, "id" | "created_at" | "updated_at">;
export type UserPatch = Partial<UserValues>;

export interface UserListQuery {
  search?: string;
  status?: "all" | "active" | "banned" | "";
  role?: "all" | "admin" | "moderator" | "user" | "";
  /** Both absent: every match, unpaged. */
  page?: number;
  page_size?: number;
}

export interface UserList {
  users: User[];
  total: number;
  filtered: number;
  page: number;
  pages: number;
  page_size: number | null;
}

export type UniqueField = "username" | "vk_id" | "telegram_id";

/**
 * `rights_changed_at` for a patch that names staff rights or the ban: now when it takes a right
 * away (admin or moderator off, a ban) or changes the categories (compared with the row in the
 * same statement), else as it was. Signed links made before it are refused (decision 0203).
 */
export function rightsStamp(patch: UserPatch, now: Date): SQL | undefined {
  const reduced: SQL[] = [];
  if (patch.is_admin === false) reduced.push(sql`${users.is_admin} = 1`);
  if (patch.is_moderator === false) reduced.push(sql`${users.is_moderator} = 1`);
  if (patch.is_banned === true) reduced.push(sql`${users.is_banned} = 0`);
  if (patch.moderator_categories !== undefined) {
    reduced.push(sql`${users.moderator_categories} <> ${patch.moderator_categories}`);
  }
  if (reduced.length === 0) return undefined;
  return sql`CASE WHEN ${sql.join(reduced, sql` OR `)} THEN ${now.getTime()} ELSE ${users.rights_changed_at} END`;
}

/** Filters, counts and (when asked) one page, ordered by id. Roles follow the display priority. */
export async function listUsers(db: Db, q: UserListQuery): Promise<UserList> {
  const conds: SQL[] = [];
  const term = q.search?.trim();
  if (term) {
    conds.push(
      sql`(${containsSql(users.username, term)} OR ${containsSql(sql`coalesce(${users.first_name}, '')`, term)} OR ${
        containsSql(sql`coalesce(${users.last_name}, '')`, term)
      } OR ${containsSql(sql`coalesce(${users.email}, '')`, term)} OR ${
        /^\d+$/.test(term) ? sql`${users.id} = ${Number(term.slice(0, 15))}` : sql`0`
      })`,
    );
  }
  if (q.status === "active") conds.push(eq(users.is_banned, false));
  if (q.status === "banned") conds.push(eq(users.is_banned, true));
  // Admin over moderator over user, as the list shows them.
  if (q.role === "admin") conds.push(eq(users.is_admin, true));
  if (q.role === "moderator") conds.push(and(eq(users.is_moderator, true), eq(users.is_admin, false))!);
  if (q.role === "user") conds.push(and(eq(users.is_moderator, false), eq(users.is_admin, false))!);
  const where = conds.length ? and(...conds) : undefined;
  const [counts] = await db
    .select({
      total: sql<number>`count(*)`,
      filtered: where ? sql<number>`coalesce(sum(case when ${where} then 1 else 0 end), 0)` : sql<number>`count(*)`,
    })
    .from(users);
  const total = Number(counts.total);
  const filtered = Number(counts.filtered);
  const paged = q.page !== undefined || q.page_size !== undefined;
  const size = paged ? q.page_size ?? 10 : null;
  const pages = size ? Math.max(1, Math.ceil(filtered / size)) : 1;
  const page = Math.min(Math.max(1, q.page ?? 1), pages);
  let query = db.select().from(users).where(where).orderBy(asc(users.id)).$dynamic();
  if (size) query = query.limit(size).offset((page - 1) * size);
  return { users: await query, total, filtered, page, pages, page_size: size };
}

/** What the users service uses. */
export interface UsersContext {
  db: Db;
  clock: Clock;
  sessions: SessionInvalidation;
}

/** The first of the unique fields given that another user already holds (usernames ignoring ASCII case). */
export async function takenField(
  db: Db,
  fields: { username?: string | null; vk_id?: string | null; telegram_id?: string | null },
  exceptId?: number,
): Promise<UniqueField | null> {
  const not = exceptId ? ne(users.id, exceptId) : undefined;
  const exists = async (cond: SQL) =>
    (await db.select({ id: users.id }).from(users).where(and(cond, not)).limit(1)).length > 0;
  if (fields.username && await exists(sql`lower(${users.username}) = lower(${fields.username})`)) return "username";
  if (fields.vk_id && await exists(eq(users.vk_id, fields.vk_id))) return "vk_id";
  if (fields.telegram_id && await exists(eq(users.telegram_id, fields.telegram_id))) return "telegram_id";
  return null;
}

/** Withdraws every claim on this phone; the ids of the accounts that had one. */
export async function dropPhoneClaims(ctx: UsersContext, phone: string): Promise<number[]> {
  const { db, clock, sessions } = ctx;
  // Read first: nearly every VK sign-in asks, and a read takes no write lock.
  const claims = await db.select({ id: users.id }).from(users).where(eq(users.pending_vk_link_phone, phone));
  if (claims.length === 0) return [];
  try {
    await db.update(users).set({ pending_vk_link_phone: null, updated_at: clock.now() })
      .where(eq(users.pending_vk_link_phone, phone));
  } finally {
    for (const c of claims) sessions.forgetUser(c.id);
  }
  return claims.map((c) => c.id);
}

/**
 * Writes `patch` to `keepId` and deletes the account `drop` (only while it still holds that
 * Telegram identity), atomically. A batch runs on one connection without giving the event loop
 * up in between, so no write lock is held across awaits (an interactive transaction would hold
 * one while other requests of this process wait on a second connection).
 */
export async function absorbUser(
  ctx: UsersContext,
  keepId: number,
  patch: UserPatch,
  drop?: { id: number; telegram_id: string },
): Promise<User | undefined> {
  const { db, clock, sessions } = ctx;
  const write = db.update(users).set({ ...patch, updated_at: clock.now() }).where(eq(users.id, keepId)).returning();
  try {
    if (!drop) {
      const [row] = await write;
      return row;
    }
    const [, rows] = await db.batch([
      db.delete(users).where(and(eq(users.id, drop.id), eq(users.telegram_id, drop.telegram_id))),
      write,
    ]);
    return rows[0];
  } finally {
    sessions.forgetUser(keepId);
    if (drop) sessions.forgetUser(drop.id);
  }
}

export function createUsersService(ctx: UsersContext) {
  const { db, clock, sessions } = ctx;

  /** After every write: a ban ends the sessions (which also forgets them), anything else drops the cache. */
  async function written(row: User | undefined, id: number): Promise<void> {
    if (row?.is_banned) await sessions.revokeUser(id);
    else sessions.forgetUser(id);
  }

  async function update(id: number, patch: UserPatch): Promise<User | undefined> {
    let row: User | undefined;
    try {
      const now = clock.now();
      const stamp = rightsStamp(patch, now);
      [row] = await db.update(users).set({ ...patch, ...(stamp ? { rights_changed_at: stamp } : {}), updated_at: now })
        .where(eq(users.id, id)).returning();
    } catch (err) {
      // A remote database may have applied a write whose answer was lost.
      sessions.forgetUser(id);
      throw err;
    }
    await written(row, id);
    return row;
  }

  return {
    async byId(id: number): Promise<User | undefined> {
      if (!Number.isSafeInteger(id)) return undefined;
      return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
    },

    async byUsername(username: string): Promise<User | undefined> {
      return (await db.select().from(users).where(eq(users.username, username)).limit(1))[0];
    },

    async byIdentity(provider: "vk" | "telegram", id: string): Promise<User | undefined> {
      const column = provider === "vk" ? users.vk_id : users.telegram_id;
      return (await db.select().from(users).where(eq(column, id)).limit(1))[0];
    },

    /** Administrators and moderators who are not banned, by username: whom work may be assigned to (issue 24). */
    async staff(): Promise<User[]> {
      return await db.select().from(users)
        .where(and(or(eq(users.is_admin, true), eq(users.is_moderator, true)), eq(users.is_banned, false)))
        .orderBy(asc(users.username));
    },

    /** Filters, counts and (when asked) one page, ordered by id. Roles follow the display priority. */
    list: (q: UserListQuery): Promise<UserList> => listUsers(db, q),

    /** The first of the unique fields given that another user already holds (usernames ignoring ASCII case). */
    taken: (fields: Parameters<typeof takenField>[1], exceptId?: number) => takenField(db, fields, exceptId),

    /** Usernames equal to or starting with `base`, lower-cased (for numbering a new one). */
    async usernamesLike(base: string): Promise<Set<string>> {
      const rows = await db.select({ username: users.username }).from(users)
        .where(or(eq(users.username, base), like(users.username, `${base}%`))).limit(5000);
      return new Set(rows.map((r) => r.username.toLowerCase()));
    },

    /** Accounts waiting for a VK sign-in with this phone (`link_telegram_to_vk`). */
    async phoneClaimants(phone: string, limit = 2): Promise<User[]> {
      return await db.select().from(users).where(eq(users.pending_vk_link_phone, phone)).limit(limit);
    },

    async phoneClaimedByAnother(phone: string, userId: number): Promise<boolean> {
      const rows = await db.select({ id: users.id }).from(users)
        .where(and(eq(users.pending_vk_link_phone, phone), ne(users.id, userId))).limit(1);
      return rows.length > 0;
    },

    /** Inserts a user; a unique violation is the driver's error, for the caller to tell apart. */
    async create(values: UserValues): Promise<User> {
      const now = clock.now();
      const [row] = await db.insert(users).values({ ...values, created_at: now, updated_at: now }).returning();
      return row;
    },

    /** Fields left out stay as they are. Undefined when there is no such user. */
    update,

    async ban(id: number, reason: string | null): Promise<User | undefined> {
      return await update(id, { is_banned: true, ban_reason: reason });
    },

    async unban(id: number): Promise<User | undefined> {
      return await update(id, { is_banned: false, ban_reason: null });
    },

    /** Deletes a user; their tracks stay, as guest tracks under `username`, in the same batch. */
    async remove(id: number, username: string): Promise<void> {
      try {
        await db.batch([
          keepTracksAsGuest(db, id, username),
          db.delete(users).where(eq(users.id, id)),
        ]);
      } finally {
        sessions.forgetUser(id);
      }
    },

    /** The sign-in time; not a change of the profile, so `updated_at` stays. */
    async recordSignIn(id: number): Promise<void> {
      try {
        await db.update(users).set({ last_login_at: clock.now() }).where(eq(users.id, id));
      } finally {
        sessions.forgetUser(id);
      }
    },

    /**
     * Gives a VK identity to the account that claimed its phone, only while that account still has
     * no VK and still claims this phone (a claim withdrawn or met meanwhile is not applied twice).
     * Null when the condition no longer holds.
     */
    async meetPhoneClaim(ownerId: number, phone: string, vkId: string, fill: UserPatch): Promise<User | null> {
      try {
        const [row] = await db.update(users)
          .set({ ...fill, vk_id: vkId, pending_vk_link_phone: null, updated_at: clock.now() })
          .where(and(eq(users.id, ownerId), isNull(users.vk_id), eq(users.pending_vk_link_phone, phone)))
          .returning();
        return row ?? null;
      } finally {
        sessions.forgetUser(ownerId);
      }
    },

    /** Withdraws every claim on this phone; the ids of the accounts that had one. */
    dropPhoneClaims: (phone: string) => dropPhoneClaims(ctx, phone),

    /** Writes `patch` to `keepId` and deletes the account `drop`, atomically (absorbUser). */
    absorb: (keepId: number, patch: UserPatch, drop?: { id: number; telegram_id: string }) =>
      absorbUser(ctx, keepId, patch, drop),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

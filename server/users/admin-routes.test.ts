import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, tracks, users } from "../../db/schema.ts";
import { createTrack, createUser, signIn } from "../testing/factories.ts";
import { naughtyStrings, type StaffFixture, staffFixture } from "../testing/staff-test-kit.ts";
import { PROFILE_TEXTS } from "../../domain/profile.ts";
import { USER_TEXTS } from "../../domain/user.ts";

const {
  badEmail: BAD_EMAIL,
  banAdmin: BAN_ADMIN,
  selfBan: SELF_BAN,
  selfDelete: SELF_DELETE,
  selfDemote: SELF_DEMOTE,
  usernameRequired: USERNAME_REQUIRED,
  usernameTaken: USERNAME_TAKEN,
} = USER_TEXTS;

let f: StaffFixture;
beforeAll(async () => (f = await staffFixture()));
afterAll(() => f.close());

type U = Record<string, unknown> & { id: number; username: string };

const create = async (json: Record<string, unknown>) => {
  const r = await f.call("POST", "/api/admin/users", { json });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.user as U;
};

describe("admin users: list", () => {
  it("lists with search, status and role filters and optional paging", async () => {
    const tag = `zz${crypto.randomUUID().slice(0, 6)}`;
    const a = await create({ username: `${tag}_admin`, is_admin: true });
    const m = await create({ username: `${tag}_mod`, is_moderator: true, moderator_categories: "label_koster" });
    const b = await create({ username: `${tag}_banned`, first_name: "Фёдор" });
    await f.call("POST", `/api/admin/users/${b.id}/ban`);
    const u = await create({ username: `${tag}_user`, email: `${tag}@example.com` });

    const get = async (q: string) => {
      const r = await f.call("GET", `/api/admin/users?${q}`);
      expect(r.status, q).toBe(200);
      return r.body as { users: U[]; total: number; filtered: number; page: number; pages: number };
    };
    const names = async (q: string) => (await get(q)).users.map((x) => x.username);
    expect(await names(`search=${tag}`)).toEqual([a.username, m.username, b.username, u.username]);
    expect(await names(`search=${tag.toUpperCase()}&status=banned`)).toEqual([b.username]);
    expect(await names(`search=${tag}&status=active`)).toEqual([a.username, m.username, u.username]);
    expect(await names(`search=${tag}&role=admin`)).toEqual([a.username]);
    expect(await names(`search=${tag}&role=moderator`)).toEqual([m.username]);
    expect(await names(`search=${tag}&role=user`)).toEqual([b.username, u.username]);
    expect(await names(`search=фёдор`)).toEqual([b.username]);
    expect(await names(`search=${tag}@example`)).toEqual([u.username]);
    expect(await names(`search=${u.id}`)).toContain(u.username);

    const p = await get(`search=${tag}&page=2&page_size=3`);
    expect(p).toMatchObject({ filtered: 4, page: 2, pages: 2 });
    expect(p.users.map((x) => x.username)).toEqual([u.username]);
    expect((await get(`search=${tag}&page=1`)).users).toHaveLength(4); // page size 10 by default
    for (const bad of ["status=gone", "role=root", "page=0x", "page_size=1000"]) {
      expect((await f.call("GET", `/api/admin/users?${bad}`)).status, bad).toBe(400);
    }
  });

  it("answers naughty search values without a server error", async () => {
    for (const s of naughtyStrings) {
      const v = encodeURIComponent(s);
      const r = await f.call("GET", `/api/admin/users?search=${v}&status=${v}&role=${v}&page=${v}`);
      expect(r.status, JSON.stringify(s)).toBeLessThan(500);
      const ok = await f.call("GET", `/api/admin/users?search=${v}`);
      expect(ok.status === 200 || s.length > 200, JSON.stringify(s)).toBe(true);
    }
  });
});

describe("admin users: create, get, update", () => {
  it("creates a user with every field; empty optional values become null", async () => {
    const user = await create({
      username: "  new_person  ",
      email: "new@example.com",
      first_name: "Анна",
      last_name: "",
      phone_number: null,
      city: "Москва",
      birth_date: "1990-05-17",
      favorite_dnb_genre: "Neurofunk",
      bio: "Привет",
      vk_id: "12345",
      telegram_id: 777,
      telegram_hash: "abc",
      is_admin: false,
      is_moderator: true,
      moderator_categories: "label_koster,podcast_koster",
    });
    expect(user).toMatchObject({
      username: "new_person",
      email: "new@example.com",
      first_name: "Анна",
      last_name: null,
      phone_number: null,
      city: "Москва",
      birth_date: "1990-05-17",
      favorite_dnb_genre: "Neurofunk",
      vk_id: "12345",
      telegram_id: "777",
      is_moderator: true,
      moderator_categories: "label_koster,podcast_koster",
      is_banned: false,
    });
    const got = await f.call("GET", `/api/admin/users/${user.id}`);
    expect(got.body).toMatchObject({ success: true, user: { id: user.id, username: "new_person" } });
    expect((await f.call("GET", "/api/admin/users/99999999")).status).toBe(404);
  });

  it("requires a unique username and a valid email, known categories, genre and date", async () => {
    await create({ username: "taken_name" });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{}, 400, USERNAME_REQUIRED],
      [{ username: "   " }, 400, USERNAME_REQUIRED],
      [{ username: "TAKEN_NAME" }, 409, USERNAME_TAKEN],
      [{ username: "x1", email: "not-an-email" }, 400, BAD_EMAIL],
      [{ username: "x1", email: "a@b" }, 400, BAD_EMAIL],
      [
        { username: "x1", is_moderator: true, moderator_categories: "label_koster,rock" },
        400,
        "Неизвестная категория модератора",
      ],
      [{ username: "x1", favorite_dnb_genre: "Polka" }, 400, PROFILE_TEXTS.badGenre],
      [{ username: "x1", birth_date: "31.12.1999" }, 400, "Некорректная дата рождения"],
      [{ username: "x1", vk_id: "55555" }, 409, "Этот VK ID уже привязан к другому пользователю"],
      [{ username: "x1", telegram_id: 66666 }, 409, "Этот Telegram ID уже привязан к другому пользователю"],
    ];
    await create({ username: "id_owner", vk_id: "55555", telegram_id: "66666" });
    for (const [json, status, error] of cases) {
      const r = await f.call("POST", "/api/admin/users", { json });
      expect(r.status, JSON.stringify(json)).toBe(status);
      expect(r.body).toEqual({ success: false, error });
    }
    const u = await create({ username: "rename_me" });
    const clash = await f.call("PUT", `/api/admin/users/${u.id}`, { json: { username: "taken_name" } });
    expect(clash).toMatchObject({ status: 409, body: { error: USERNAME_TAKEN } });
    const blank = await f.call("PUT", `/api/admin/users/${u.id}`, { json: { username: "" } });
    expect(blank.body.error).toBe(USERNAME_REQUIRED);
    // Keeping one's own name is not a clash.
    expect((await f.call("PUT", `/api/admin/users/${u.id}`, { json: { username: "rename_me" } })).status).toBe(200);
  });

  it("stores `*` for all categories and clears categories of non-moderators", async () => {
    const all = await create({ username: "mod_all", is_moderator: true, moderator_categories: "label_koster,*" });
    expect(all.moderator_categories).toBe("*");
    const arr = await create({ username: "mod_arr", is_moderator: true, moderator_categories: ["show_neurogon"] });
    expect(arr.moderator_categories).toBe("show_neurogon");
    const none = await create({ username: "not_mod", is_moderator: false, moderator_categories: "label_koster" });
    expect(none.moderator_categories).toBe("");
    const demoted = await f.call("PUT", `/api/admin/users/${arr.id}`, {
      json: { is_admin: false, is_moderator: false, is_banned: false, moderator_categories: "show_neurogon" },
    });
    expect(demoted.body.user).toMatchObject({ is_moderator: false, moderator_categories: "" });
  });

  it("leaves out fields not sent and clears ones sent empty", async () => {
    const u = await create({ username: "partial", city: "Тверь", bio: "Био" });
    const r = await f.call("PUT", `/api/admin/users/${u.id}`, {
      json: { city: "", is_admin: false, is_moderator: false, is_banned: false },
    });
    expect(r.body.user).toMatchObject({ username: "partial", city: null, bio: "Био" });
  });

  it("holds profile fields to the profile's own limits: 500-character bio, no future birth date", async () => {
    // Spec 1 §9 gives the biography 500 characters; an admin's edit may not store what the person's own form refuses.
    const ok = await create({ username: "bio_500", bio: "🥁".repeat(500), city: "г".repeat(100) });
    expect(ok.bio).toBe("🥁".repeat(500));
    for (
      const [json, error] of [
        [{ username: "bio_501", bio: "ж".repeat(501) }, PROFILE_TEXTS.bioTooLong],
        [{ username: "city_101", city: "г".repeat(101) }, PROFILE_TEXTS.cityTooLong],
        [{ username: "born_later", birth_date: "2999-01-01" }, PROFILE_TEXTS.futureBirthDate],
        [{ username: "born_early", birth_date: "1899-12-31" }, PROFILE_TEXTS.badBirthDate],
      ] as const
    ) {
      const r = await f.call("POST", "/api/admin/users", { json });
      expect(r, JSON.stringify(json)).toMatchObject({ status: 400, body: { success: false, error } });
    }
    const edit = await f.call("PUT", `/api/admin/users/${ok.id}`, { json: { bio: "ж".repeat(501) } });
    expect(edit).toMatchObject({ status: 400, body: { error: PROFILE_TEXTS.bioTooLong } });
  });
});

describe("admin users: the rules of spec 2 §4–5", () => {
  it("an admin cannot demote, ban or delete themself", async () => {
    const me = f.admin.id;
    const demote = await f.call("PUT", `/api/admin/users/${me}`, {
      json: { is_admin: false, is_moderator: false, is_banned: false },
    });
    expect(demote).toMatchObject({ status: 400, body: { error: SELF_DEMOTE } });
    const banByEdit = await f.call("PUT", `/api/admin/users/${me}`, { json: { is_admin: true, is_banned: true } });
    expect(banByEdit.body.error).toBe(SELF_BAN);
    const ban = await f.call("POST", `/api/admin/users/${me}/ban`);
    expect(ban).toMatchObject({ status: 400, body: { error: SELF_BAN } });
    const del = await f.call("DELETE", `/api/admin/users/${me}`);
    expect(del).toMatchObject({ status: 400, body: { error: SELF_DELETE } });
    const still = (await f.t.ctx.db.select().from(users).where(eq(users.id, me)))[0];
    expect(still).toMatchObject({ is_admin: true, is_banned: false });
    // Editing oneself otherwise is fine.
    expect((await f.call("PUT", `/api/admin/users/${me}`, { json: { city: "Питер", is_admin: true } })).status).toBe(
      200,
    );
  });

  it("admins cannot be banned; selecting admin clears a ban", async () => {
    const other = await create({ username: "other_admin", is_admin: true });
    expect((await f.call("POST", `/api/admin/users/${other.id}/ban`)).body.error).toBe(BAN_ADMIN);
    const byEdit = await f.call("PUT", `/api/admin/users/${other.id}`, { json: { is_banned: true } });
    expect(byEdit).toMatchObject({ status: 400, body: { error: BAN_ADMIN } });

    const banned = await create({ username: "was_banned" });
    await f.call("POST", `/api/admin/users/${banned.id}/ban`, { json: { reason: "Спам" } });
    const promoted = await f.call("PUT", `/api/admin/users/${banned.id}`, {
      json: { is_admin: true, is_moderator: false, is_banned: true },
    });
    expect(promoted.body.user).toMatchObject({ is_admin: true, is_banned: false, ban_reason: null });
    const created = await create({ username: "born_admin", is_admin: true, is_banned: true });
    expect(created).toMatchObject({ is_admin: true, is_banned: false });
  });

  it("a ban takes effect at once: sessions are revoked and the user is refused; unban lets them sign in again", async () => {
    const victim = await createUser(f.t.ctx.db, { is_moderator: true, moderator_categories: "*" });
    const session = await signIn(f.t.ctx, victim);
    expect((await f.call("GET", "/api/auth/me", { headers: session.headers })).status).toBe(200);

    const r = await f.call("POST", `/api/admin/users/${victim.id}/ban`, { json: { reason: "Нарушение правил" } });
    expect(r.body.user).toMatchObject({ is_banned: true, ban_reason: "Нарушение правил" });
    const live = await f.t.ctx.db.select().from(sessions).where(eq(sessions.user_id, victim.id));
    expect(live.every((s) => s.revoked_at !== null)).toBe(true);

    // The very next call of the old session is 403 with the ban text; its refresh token is dead too.
    for (const path of ["/api/auth/me", "/api/moderator/tracks"]) {
      const res = await f.call("GET", path, { headers: session.headers });
      expect(res.status, path).toBe(403);
      expect(res.body.error, path).toBe("Нарушение правил");
    }
    expect(await f.t.ctx.tokens.refresh(session.refresh_token)).toBeNull();
    // Any new session of theirs is refused with 403 and the ban text.
    const again = await signIn(f.t.ctx, victim);
    const me = await f.call("GET", "/api/auth/me", { headers: again.headers });
    expect(me.status).toBe(403);
    expect(me.body.error).toBe("Нарушение правил");

    const un = await f.call("POST", `/api/admin/users/${victim.id}/unban`);
    expect(un.body.user).toMatchObject({ is_banned: false, ban_reason: null });
    const after = await signIn(f.t.ctx, victim);
    expect((await f.call("GET", "/api/auth/me", { headers: after.headers })).status).toBe(200);
  });

  it("banning through the edit form revokes sessions too", async () => {
    const victim = await createUser(f.t.ctx.db);
    const session = await signIn(f.t.ctx, victim);
    const r = await f.call("PUT", `/api/admin/users/${victim.id}`, {
      json: { is_admin: false, is_moderator: false, is_banned: true },
    });
    expect(r.body.user).toMatchObject({ is_banned: true });
    expect(await f.t.ctx.tokens.authenticate(session.access_token)).toBeNull();
  });

  it("deleting a user keeps their tracks as guest tracks under their name", async () => {
    const gone = await create({ username: "leaving_artist" });
    const track = await createTrack(f.t.ctx.db, { user_id: gone.id });
    expect((await f.call("DELETE", `/api/admin/users/${gone.id}`)).body).toEqual({ success: true });
    expect((await f.call("GET", `/api/admin/users/${gone.id}`)).status).toBe(404);
    const [row] = await f.t.ctx.db.select().from(tracks).where(eq(tracks.id, track.id));
    expect(row).toMatchObject({ user_id: null, guest_username: "leaving_artist" });
    expect((await f.call("DELETE", `/api/admin/users/${gone.id}`)).status).toBe(404);
  });

  it("ban and unban of unknown users answer 404", async () => {
    expect((await f.call("POST", "/api/admin/users/99999999/ban")).status).toBe(404);
    expect((await f.call("POST", "/api/admin/users/99999999/unban")).status).toBe(404);
  });
});

describe("admin users: naughty strings", () => {
  it("never answers a server error to naughty text fields", async () => {
    let i = 0;
    for (const s of naughtyStrings) {
      i++;
      const r = await f.call("POST", "/api/admin/users", {
        json: {
          username: `${s}`.slice(0, 60) + i,
          email: s,
          first_name: s,
          last_name: s,
          city: s,
          bio: s,
          phone_number: s,
          vk_id: s,
          birth_date: s,
          favorite_dnb_genre: s,
          moderator_categories: s,
          is_moderator: true,
        },
      });
      expect(r.status, JSON.stringify(s)).toBeLessThan(500);
      const plain = await f.call("POST", "/api/admin/users", {
        json: { username: `${s}`.slice(0, 60) + `#${i}`, first_name: s.slice(0, 100), bio: s },
      });
      expect(plain.status, JSON.stringify(s)).toBeLessThan(500);
      if (plain.status === 201) expect((plain.body.user as U).bio).toBe(s.trim() || null);
    }
  });
});

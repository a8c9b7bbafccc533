import { describe, expect, it } from "vitest";
import type { AdminUser } from "./users-api.ts";
import {
  buildCreatePayload,
  buildUpdatePayload,
  confirmationsNeeded,
  emptyUserForm,
  hasErrors,
  setAdmin,
  setAllCategories,
  setBanned,
  setModerator,
  toggleCategory,
  userToForm,
  validateUserForm,
} from "./user-form.ts";

const user = (over: Partial<AdminUser> = {}): AdminUser => ({
  id: 5,
  username: "dj",
  email: null,
  first_name: "Иван",
  last_name: null,
  avatar: null,
  city: null,
  birth_date: null,
  bio: null,
  favorite_dnb_genre: null,
  vk_id: "123",
  telegram_id: null,
  telegram_hash: null,
  phone_number: null,
  is_admin: false,
  is_moderator: true,
  moderator_categories: "label_koster,podcast_koster",
  is_banned: false,
  ban_reason: null,
  created_at: "2024-01-01T00:00:00.000Z",
  last_login_at: null,
  ...over,
});

describe("user form rules", () => {
  it("choosing admin clears the ban, and an admin cannot be banned", () => {
    let s = { ...emptyUserForm(), username: "x", is_banned: true };
    s = setAdmin(s, true);
    expect(s.is_banned).toBe(false);
    expect(setBanned(s, true).is_banned).toBe(false);
    expect(setBanned(setAdmin(s, false), true).is_banned).toBe(true);
  });

  it("unchecking moderator clears the categories; checking it again restores the saved ones", () => {
    const s = userToForm(user());
    expect(s.categories).toEqual(["label_koster", "podcast_koster"]);
    const off = setModerator(s, false, s.categories);
    expect(off.categories).toEqual([]);
    expect(buildUpdatePayload(off).moderator_categories).toBe("");
    const on = setModerator(off, true, s.categories);
    expect(on.categories).toEqual(["label_koster", "podcast_koster"]);
  });

  it("'all categories' stores * and clears the single choices; a single choice leaves *", () => {
    const s = userToForm(user());
    const all = setAllCategories(s, true);
    expect(all.categories).toBe("*");
    expect(buildUpdatePayload(all).moderator_categories).toBe("*");
    const one = toggleCategory(all, "show_neurogon");
    expect(one.categories).toEqual(["show_neurogon"]);
    expect(buildUpdatePayload(toggleCategory(one, "label_neuropunk")).moderator_categories).toBe(
      "label_neuropunk,show_neurogon",
    );
    expect(userToForm(user({ moderator_categories: "*" })).categories).toBe("*");
  });

  it("requires a username and a well-formed email", () => {
    expect(validateUserForm(emptyUserForm()).username).toBe("Имя пользователя обязательно для заполнения");
    expect(validateUserForm({ ...emptyUserForm(), username: "   " }).username).toBeTruthy();
    expect(validateUserForm({ ...emptyUserForm(), username: "a", email: "nope" }).email).toBe(
      "Некорректный формат email",
    );
    expect(validateUserForm({ ...emptyUserForm(), username: "a", email: "a@b.ru" })).toEqual({});
  });

  it("holds the bio to the profile's 500 characters, as the server does", () => {
    const base = { ...emptyUserForm(), username: "a" };
    expect(validateUserForm({ ...base, bio: `${"🥁".repeat(500)}  ` })).toEqual({});
    const tooLong = validateUserForm({ ...base, bio: "ж".repeat(501) });
    expect(tooLong.bio).toBe("Биография не должна превышать 500 символов");
    expect(hasErrors(tooLong)).toBe(true);
  });

  it("protects the admin's own account", () => {
    const me = { ...userToForm(user({ is_admin: true })), username: "me" };
    expect(validateUserForm({ ...me, is_admin: false }, true).general).toBe(
      "Вы не можете снять с себя права администратора",
    );
    expect(validateUserForm({ ...me, is_admin: true, is_banned: true }, true).general).toBe(
      "Вы не можете заблокировать себя",
    );
    expect(validateUserForm({ ...me, is_admin: true, is_banned: true }, false).general).toBe(
      "Нельзя заблокировать администратора",
    );
  });

  it("create sends every field with empty optional values as null", () => {
    const p = buildCreatePayload({ ...emptyUserForm(), username: " newbie ", city: "Москва" });
    expect(p).toMatchObject({
      username: "newbie",
      city: "Москва",
      email: null,
      first_name: null,
      vk_id: null,
      bio: null,
      is_admin: false,
      is_moderator: false,
      is_banned: false,
      moderator_categories: "",
    });
  });

  it("edit leaves empty fields out but always sends the three flags", () => {
    const p = buildUpdatePayload({ ...userToForm(user()), is_moderator: false });
    expect(p).toEqual({
      username: "dj",
      first_name: "Иван",
      vk_id: "123",
      is_admin: false,
      is_moderator: false,
      is_banned: false,
      moderator_categories: "",
    });
  });

  it("asks before banning someone or taking admin rights away", () => {
    const orig = userToForm(user({ is_admin: true, is_moderator: false }));
    expect(confirmationsNeeded(orig, orig)).toEqual([]);
    expect(confirmationsNeeded(orig, setAdmin(orig, false))).toEqual(["demote"]);
    const plain = userToForm(user());
    expect(confirmationsNeeded(plain, setBanned(plain, true))).toEqual(["ban"]);
    expect(confirmationsNeeded(null, setBanned(plain, true))).toEqual([]);
  });
});

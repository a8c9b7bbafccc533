import { describe, expect, it } from "vitest";
import { BAN_TEXTS } from "./ban-rules.ts";
import { PROFILE_TEXTS } from "./profile.ts";
import {
  adminUserSchemas,
  displayRole,
  emailProblem,
  formatCategories,
  USER_TEXTS,
  userFlagsProblem,
  usernameProblem,
} from "./user.ts";

describe("admin user rules", () => {
  it("requires a username of at most 64 characters", () => {
    expect(usernameProblem("dj_koster")).toBeNull();
    expect(usernameProblem("   ")).toBe("Имя пользователя обязательно для заполнения");
    expect(usernameProblem("a".repeat(64))).toBeNull();
    expect(usernameProblem("a".repeat(65))).toBe(USER_TEXTS.usernameTooLong);
  });

  it("takes an e-mail in e-mail format, or none", () => {
    for (const ok of ["", "  ", "a@b.ru", " dj@koster.example "]) expect(emailProblem(ok), ok).toBeNull();
    for (const bad of ["not-an-email", "a@b", "a b@c.ru", "a@@b.ru", `${"a".repeat(250)}@b.ru`]) {
      expect(emailProblem(bad), bad).toBe("Некорректный формат email");
    }
  });

  it("shows roles by priority: admin over moderator over user", () => {
    expect(displayRole({ is_admin: true, is_moderator: true })).toBe("admin");
    expect(displayRole({ is_admin: false, is_moderator: true })).toBe("moderator");
    expect(displayRole({ is_admin: false, is_moderator: false })).toBe("user");
  });

  it("stores categories as * or a comma list", () => {
    expect(formatCategories("*")).toBe("*");
    expect(formatCategories(["label_koster", "podcast_koster"])).toBe("label_koster,podcast_koster");
    expect(formatCategories([])).toBe("");
  });

  it("refuses self-demotion, self-ban and banning an admin; choosing admin clears a ban", () => {
    expect(userFlagsProblem({ self: true, admin: false, banned: false })).toBe(USER_TEXTS.selfDemote);
    expect(userFlagsProblem({ self: true, admin: true, banned: true })).toBe(BAN_TEXTS.selfBan);
    expect(userFlagsProblem({ self: true, admin: true, banned: true, adminChosen: true })).toBe(BAN_TEXTS.selfBan);
    expect(userFlagsProblem({ self: false, admin: true, banned: true })).toBe(BAN_TEXTS.banAdmin);
    expect(userFlagsProblem({ self: false, admin: true, banned: true, adminChosen: true })).toBeNull();
    expect(userFlagsProblem({ self: false, admin: false, banned: true })).toBeNull();
    expect(userFlagsProblem({ self: true, admin: true, banned: false })).toBeNull();
  });
});

describe("admin user schemas", () => {
  const { create, update, list, ban } = adminUserSchemas(() => "2025-04-21");
  const first = (schema: typeof create | typeof update, json: unknown) =>
    schema.safeParse(json).error?.issues[0]?.message;

  it("trims values and turns empty optional ones into null", () => {
    const parsed = create.parse({
      username: " dj ",
      email: "",
      city: "  Тверь ",
      vk_id: 123,
      telegram_id: null,
      bio: " ",
    });
    expect(parsed).toMatchObject({
      username: "dj",
      email: null,
      city: "Тверь",
      vk_id: "123",
      telegram_id: null,
      bio: null,
    });
    expect(update.parse({})).toEqual({});
  });

  it("holds the profile fields to the profile's limits", () => {
    expect(first(create, { username: "x", bio: "ж".repeat(501) })).toBe(PROFILE_TEXTS.bioTooLong);
    expect(create.parse({ username: "x", bio: "🥁".repeat(500) }).bio).toBe("🥁".repeat(500));
    expect(first(create, { username: "x", first_name: "а".repeat(101) })).toBe(PROFILE_TEXTS.firstNameTooLong);
    expect(first(create, { username: "x", birth_date: "2025-04-22" })).toBe(PROFILE_TEXTS.futureBirthDate);
    expect(first(create, { username: "x", birth_date: "31.12.1999" })).toBe(PROFILE_TEXTS.badBirthDate);
    expect(first(create, { username: "x", favorite_dnb_genre: "Polka" })).toBe(PROFILE_TEXTS.badGenre);
  });

  it("refuses a missing username, a bad e-mail or id and unknown categories", () => {
    expect(first(create, {})).toBe(USER_TEXTS.usernameRequired);
    expect(first(update, { username: "  " })).toBe(USER_TEXTS.usernameRequired);
    expect(first(create, { username: "x", email: "a@b" })).toBe(USER_TEXTS.badEmail);
    expect(first(create, { username: "x", vk_id: "12 34" })).toBe(USER_TEXTS.badVkId);
    expect(first(create, { username: "x", moderator_categories: "label_koster,rock" })).toBe(
      USER_TEXTS.unknownCategory,
    );
    expect(create.parse({ username: "x", moderator_categories: ["show_neurogon", "*"] }).moderator_categories).toBe(
      "*",
    );
    expect(
      create.parse({ username: "x", moderator_categories: "podcast_koster,label_koster,podcast_koster" })
        .moderator_categories,
    )
      .toBe("podcast_koster,label_koster");
  });

  it("checks the list filters and the ban reason", () => {
    expect(list.safeParse({ status: "banned", role: "moderator", page: "2", page_size: "10" }).success).toBe(true);
    expect(list.safeParse({ role: "owner" }).error?.issues[0]?.message).toBe("Некорректный фильтр роли");
    expect(list.safeParse({ page_size: "101" }).error?.issues[0]?.message).toBe("Размер страницы: от 1 до 100");
    expect(ban.parse({ reason: " " })).toEqual({ reason: null });
    expect(ban.safeParse({ reason: "я".repeat(501) }).error?.issues[0]?.message).toBe(BAN_TEXTS.reasonTooLong);
  });
});

import { describe, expect, it } from "vitest";
import { GENRES } from "./directions.ts";
import {
  avatarProblem,
  BIO_MAX_LENGTH,
  bioTooLong,
  birthDateProblem,
  charCount,
  isGenre,
  nameTooLong,
  PROFILE_TEXTS,
  profileSchema,
} from "./profile.ts";

const TODAY = "2025-04-21";

describe("profile rules", () => {
  it("accepts JPEG and PNG avatars up to 5 MB", () => {
    expect(avatarProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 })).toBeNull();
    expect(avatarProblem({ type: "image/png", size: 10 })).toBeNull();
    expect(avatarProblem({ type: "image/jpg", size: 10 })).toBeNull();
    expect(avatarProblem({ type: "IMAGE/PNG", size: 10 })).toBeNull();
    expect(avatarProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 + 1 }))
      .toBe("Файл слишком большой. Максимальный размер: 5 МБ");
    for (const type of ["image/gif", "image/webp", "image/svg+xml", ""]) {
      expect(avatarProblem({ type, size: 10 })).toBe("Неподдерживаемый формат файла. Допустимые форматы: JPG, PNG");
    }
  });

  it("counts the biography in characters as people do, at most 500 (spec 1 §9)", () => {
    expect(charCount("абв")).toBe(3);
    expect(charCount("🥁🥁")).toBe(2);
    expect(BIO_MAX_LENGTH).toBe(500);
    expect(bioTooLong("🥁".repeat(500))).toBe(false);
    expect(bioTooLong("ж".repeat(501))).toBe(true);
    expect(PROFILE_TEXTS.bioTooLong).toBe("Биография не должна превышать 500 символов");
  });

  it("limits names and city to 100 characters", () => {
    expect(nameTooLong("а".repeat(100))).toBe(false);
    expect(nameTooLong("а".repeat(101))).toBe(true);
  });

  it("accepts a real birth date from 1900 up to today", () => {
    for (const ok of ["1900-01-01", "2000-02-29", TODAY]) expect(birthDateProblem(ok, TODAY), ok).toBeNull();
    for (const bad of ["1899-12-31", "2001-02-29", "1990-13-01", "17.05.1990", "1990-5-17"]) {
      expect(birthDateProblem(bad, TODAY), bad).toBe(PROFILE_TEXTS.badBirthDate);
    }
    expect(birthDateProblem("2025-04-22", TODAY)).toBe(PROFILE_TEXTS.futureBirthDate);
  });

  it("knows the seventeen genres and nothing else", () => {
    for (const g of GENRES) expect(isGenre(g)).toBe(true);
    for (const bad of ["Polka", "neurofunk", " Neurofunk", ""]) expect(isGenre(bad)).toBe(false);
  });
});

describe("profile schema", () => {
  const schema = profileSchema(TODAY);
  const first = (input: Record<string, string>) => schema.safeParse(input).error?.issues[0]?.message;

  it("trims the fields, drops NUL bytes, and turns empty values into null", () => {
    const parsed = schema.parse({
      first_name: "  Анна ",
      city: " ",
      bio: "Пишу\u0000 нейрофанк ",
      birth_date: "",
      favorite_dnb_genre: "",
    });
    expect(parsed).toEqual({
      first_name: "Анна",
      city: null,
      bio: "Пишу нейрофанк",
      birth_date: null,
      favorite_dnb_genre: null,
    });
    expect(schema.parse({})).toEqual({});
  });

  it("refuses what the rules refuse, with their texts", () => {
    expect(first({ first_name: "а".repeat(101) })).toBe(PROFILE_TEXTS.firstNameTooLong);
    expect(first({ last_name: "а".repeat(101) })).toBe(PROFILE_TEXTS.lastNameTooLong);
    expect(first({ city: "а".repeat(101) })).toBe(PROFILE_TEXTS.cityTooLong);
    expect(first({ bio: "ж".repeat(501) })).toBe(PROFILE_TEXTS.bioTooLong);
    expect(first({ birth_date: "2025-04-22" })).toBe(PROFILE_TEXTS.futureBirthDate);
    expect(first({ birth_date: "1899-12-31" })).toBe(PROFILE_TEXTS.badBirthDate);
    expect(first({ favorite_dnb_genre: "Polka" })).toBe(PROFILE_TEXTS.badGenre);
    // Surrounding spaces do not count against the limit: the stored value is trimmed.
    expect(schema.parse({ bio: ` ${"ж".repeat(500)} ` }).bio).toHaveLength(500);
  });
});

import { describe, expect, it } from "vitest";
import { formatBirthDate, fullName, initials, todayIso } from "./profile-rules.ts";

describe("profile screen helpers", () => {
  it("makes initials from the name, else from the username", () => {
    expect(initials({ first_name: "иван", last_name: "Петров", username: "x" })).toBe("ИП");
    expect(initials({ first_name: "Anna", last_name: null, username: "x" })).toBe("A");
    expect(initials({ first_name: " ", last_name: null, username: "dj_koster" })).toBe("DJ");
    expect(fullName({ first_name: null, last_name: null, username: "dj_koster" })).toBe("dj_koster");
    expect(fullName({ first_name: "Иван", last_name: "Петров", username: "x" })).toBe("Иван Петров");
  });

  it("shows the birth date as day.month.year without shifting it", () => {
    expect(formatBirthDate("1990-05-17")).toBe("17.05.1990");
    expect(formatBirthDate(null)).toBeNull();
    expect(formatBirthDate("garbage")).toBeNull();
    expect(todayIso(new Date(2025, 3, 21, 23, 59))).toBe("2025-04-21");
  });
});

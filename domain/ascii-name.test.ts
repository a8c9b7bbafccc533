import { describe, expect, it } from "vitest";
import { asciiName } from "./ascii-name.ts";

describe("asciiName (ICAO 9303)", () => {
  it("transliterates Russian letter by letter and keeps capitals", () => {
    expect(asciiName("Жуки - Щука и Ёж")).toBe("Zhuki - Shchuka i Ezh");
    expect(asciiName("Хрусталь Цой Юля Яна")).toBe("Khrustal Tsoi Iulia Iana");
    expect(asciiName("ЖУК")).toBe("ZHUK");
    expect(asciiName("подъезд")).toBe("podieezd");
  });

  it("drops marks, typographic quotes and characters file systems refuse", () => {
    expect(asciiName("Café «Ночь»: a/b? <x> | y*")).toBe("Cafe Noch ab x y");
    expect(asciiName("A – B — C")).toBe("A - B - C");
  });

  it("leaves nothing outside printable ASCII", () => {
    const out = asciiName("Тест 🔥 日本 ß ©");
    expect(out).toMatch(/^[\x20-\x7e]*$/);
    expect(out.startsWith("Test")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import {
  charName,
  hasHiddenChars,
  HIDDEN_CHARS_MESSAGE,
  hiddenCharsIn,
  hiddenCharsProblem,
  revealHiddenChars,
  withoutHiddenChars,
} from "./hidden-chars.ts";
import { isValidTrackName } from "./track-name.ts";
import { ALLOWED_TEXTS, REFUSED_CHARS } from "./hidden-chars.cases.ts";

const code = (n: number) => String.fromCodePoint(n);
const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");

describe("characters a person did not mean to hide", () => {
  it.each(REFUSED_CHARS.map((n) => [hex(n), n]))("refuses U+%s everywhere and names it", (_h, n) => {
    const text = `Артист${code(n)} - Трек`;
    expect(hiddenCharsIn(text)).toEqual([code(n)]);
    expect(hiddenCharsIn(text, { multiline: true })).toEqual([code(n)]);
    expect(hiddenCharsProblem(text)).toBe(`${HIDDEN_CHARS_MESSAGE} <U+${hex(n)}>`);
    expect(isValidTrackName(`Артист - Трек${code(n)}.mp3`)).toBe(false);
  });

  it("lets tab and line breaks through only in a multi-line field", () => {
    for (const c of ["\t", "\n", "\r"]) {
      expect(hasHiddenChars(`a${c}b`), JSON.stringify(c)).toBe(true);
      expect(hasHiddenChars(`a${c}b`, { multiline: true }), JSON.stringify(c)).toBe(false);
    }
    expect(hiddenCharsProblem("Привет,\r\nмир!\t🎧 café", { multiline: true })).toBeNull();
    expect(hiddenCharsProblem("a\nb")).toBe(`${HIDDEN_CHARS_MESSAGE} <U+000A>`);
  });

  it.each(ALLOWED_TEXTS.map((t) => [t]))("keeps %s", (text) => {
    expect(hiddenCharsIn(`Бэнд ${text}`)).toEqual([]);
    expect(withoutHiddenChars(text)).toBe(text);
    expect(revealHiddenChars(text)).toBe(text);
  });

  it("lets the joiner, the selector and tags through only as parts of an emoji", () => {
    for (const bad of ["a\u200db", "😀\u200d", "\u200d😀", "😀\u200da", "a\u200d😀", "😀\u200d\u200d😀"]) {
      expect(hiddenCharsIn(bad), JSON.stringify(bad)).toEqual(["\u200d"]);
    }
    // One presentation selector after an emoji; a second, or one after a letter, hides a bit.
    expect(hiddenCharsIn("❤\ufe0f\ufe0f")).toEqual(["\ufe0f"]);
    expect(hiddenCharsIn("a\ufe0f")).toEqual(["\ufe0f"]);
    // Data smuggled in selectors after an emoji.
    expect(hiddenCharsIn("😀\u{E0100}\u{E0101}")).toEqual(["\u{E0100}", "\u{E0101}"]);
    // A tag sequence that is no flag, or a sentence in tags after the black flag.
    const hidden = [..."ignore"].map((c) => code(0xe0000 + c.charCodeAt(0))).join("");
    // The six letters and the cancel tag.
    expect(hiddenCharsIn(`\u{1F3F4}${hidden}\u{E007F}`)).toHaveLength(7);
    expect(hiddenCharsIn(`note${hidden}`).map(charName).join("")).toBe(
      "<U+E0069><U+E0067><U+E006E><U+E006F><U+E0072><U+E0065>",
    );
  });

  it("names at most five characters, each once", () => {
    const text = "\u200b\u200b\u200c\u200e\u200f\u2060\u2066";
    expect(hiddenCharsProblem(text)).toBe(
      `${HIDDEN_CHARS_MESSAGE} <U+200B>, <U+200C>, <U+200E>, <U+200F>, <U+2060>, …`,
    );
  });

  it("writes them out for quoting and showing, and drops them from provider names", () => {
    expect(revealHiddenChars("Evil - Track\u202e3pm.exe.mp3")).toBe("Evil - Track<U+202E>3pm.exe.mp3");
    expect(revealHiddenChars("a\u0085b\u200bc\u{E0041}")).toBe("a<U+0085>b<U+200B>c<U+E0041>");
    expect(revealHiddenChars("строка\nвторая\x1b[31m", { multiline: true })).toBe("строка\nвторая<U+001B>[31m");
    expect(withoutHiddenChars("\u2067Иван\u2069\u200f\u3164")).toBe("Иван");
    expect(withoutHiddenChars("a\u200db 👨\u200d👩\u200d👧")).toBe("ab 👨\u200d👩\u200d👧");
  });
});

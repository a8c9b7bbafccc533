import { describe, expect, it } from "vitest";
import {
  hasHiddenChars,
  HIDDEN_CHARS_MESSAGE,
  hiddenCharsProblem,
  revealHiddenChars,
  withoutHiddenChars,
} from "./hidden-chars.ts";
import { isValidTrackName } from "./track-name.ts";

const code = (n: number) => String.fromCodePoint(n);
/** Each refused range by its first and last code point, and the neighbours just outside it. */
const RANGES = ([[0x0080, 0x009f], [0x061c, 0x061c], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x2069], [
  0xfeff,
  0xfeff,
]] as const)
  .map(([first, last]) => [hex(first), hex(last), first, last] as const);

function hex(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, "0");
}

describe("characters that hide or turn text around", () => {
  it.each(RANGES)("refuses U+%s…U+%s and the whole range between, and not its neighbours", (_a, _b, first, last) => {
    for (let n = first; n <= last; n++) {
      expect(hasHiddenChars(`Артист${code(n)} - Трек`), n.toString(16)).toBe(true);
      expect(isValidTrackName(`Артист - Трек${code(n)}.mp3`), n.toString(16)).toBe(false);
    }
    for (const n of [first - 1, last + 1]) {
      expect(hasHiddenChars(`a${code(n)}b`), n.toString(16)).toBe(false);
    }
  });

  it("keeps ordinary text, tabs and new lines, and says why a text is refused", () => {
    expect(hiddenCharsProblem("Привет,\nмир!\t🎧 café")).toBeNull();
    expect(hiddenCharsProblem("x\u202ey")).toBe(HIDDEN_CHARS_MESSAGE);
    expect(isValidTrackName("Evil - Track\u202e3pm.exe.mp3")).toBe(false);
    expect(isValidTrackName("Evil - Track3pm.exe.mp3")).toBe(true);
  });

  it("lets the joiner through only inside an emoji sequence, where it hides nothing", () => {
    for (const emoji of ["👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👩🏽\u200d💻"]) {
      expect(hasHiddenChars(`Бэнд ${emoji}`), emoji).toBe(false);
    }
    for (const bad of ["a\u200db", "😀\u200d", "\u200d😀", "😀\u200da", "a\u200d😀", "😀\u200d\u200d😀"]) {
      expect(hasHiddenChars(bad), JSON.stringify(bad)).toBe(true);
    }
    expect(withoutHiddenChars("a\u200db 👨\u200d👩\u200d👧")).toBe("ab 👨\u200d👩\u200d👧");
  });

  it("writes them out for quoting and drops them for provider names", () => {
    expect(revealHiddenChars("Evil - Track\u202e3pm.exe.mp3")).toBe("Evil - Track<U+202E>3pm.exe.mp3");
    expect(revealHiddenChars("a\u0085b\u200bc")).toBe("a<U+0085>b<U+200B>c");
    expect(withoutHiddenChars("\u2067Иван\u2069\u200f")).toBe("Иван");
  });
});

import { describe, expect, it } from "vitest";
import { REVIEW_TEXTS } from "../../../../domain/review.ts";
import { ADMIN_PANEL_TEXTS, MODERATOR_PANEL_TEXTS } from "./panel-texts.ts";
import { panelError, REVIEW_TEXTS_EN, REVIEW_TEXTS_RU } from "./review-texts.ts";

const CYRILLIC = /[\u0400-\u04FF]/;

/** Every word of a dictionary: strings, and what its functions say for sample arguments. */
function words(value: unknown, path = ""): Array<[string, string]> {
  if (typeof value === "string") return [[path, value]];
  if (typeof value === "function") {
    const fn = value as (...args: unknown[]) => unknown;
    // Sample arguments by arity: numbers say 1 and 3 (plural forms), texts are Latin.
    const samples = [[1, "x", "y"], [3, "x", "y"], [2, null, null]];
    return samples.flatMap((args) => words(fn(...args.slice(0, Math.max(fn.length, 1))), `${path}()`));
  }
  if (value instanceof Map) return [...value.values()].flatMap((v, i) => words(v, `${path}[${i}]`));
  if (Array.isArray(value)) return value.flatMap((v, i) => words(v, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => words(v, path ? `${path}.${k}` : k));
  }
  return [];
}

/** The shape of a dictionary: its keys, nested. */
const shape = (value: unknown): unknown =>
  value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Map)
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
    : typeof value;

describe("the panels' dictionaries (issue 31)", () => {
  it("the moderator panel's dictionary holds no Cyrillic", () => {
    const cyrillic = words(MODERATOR_PANEL_TEXTS).filter(([, w]) => CYRILLIC.test(w));
    expect(cyrillic).toEqual([]);
  });

  it("says «похоже на другую версию трека #N» to an administrator and its English to a moderator (issue 38)", () => {
    expect(REVIEW_TEXTS_RU.duplicate.similarVersion(12)).toBe("похоже на другую версию трека #12");
    expect(REVIEW_TEXTS_EN.duplicate.similarVersion(12)).toBe("looks like another version of track #12");
    expect(ADMIN_PANEL_TEXTS.review.duplicate.similarVersion(3)).toBe("похоже на другую версию трека #3");
    expect(MODERATOR_PANEL_TEXTS.review.duplicate.similarVersion(3)).toBe("looks like another version of track #3");
  });

  it("the admin panel's dictionary is Russian and has the moderator's keys", () => {
    expect(words(ADMIN_PANEL_TEXTS.review).some(([, w]) => CYRILLIC.test(w))).toBe(true);
    expect(shape(ADMIN_PANEL_TEXTS)).toEqual(shape(MODERATOR_PANEL_TEXTS));
  });

  it("says decimals and counts in English: “14.2” and “1 day”, not «14,2»", () => {
    expect(MODERATOR_PANEL_TEXTS.player.locale).toBe("en-US");
    expect(REVIEW_TEXTS_EN.waiting(1)).toBe("Waiting 1 day");
    expect(REVIEW_TEXTS_EN.waiting(15)).toBe("Waiting 15 days");
  });

  it("puts the server's Russian refusals in the moderator's words; anything else stays as it came", () => {
    expect(panelError(REVIEW_TEXTS_EN, REVIEW_TEXTS.alreadyTold)).toBe("Too late to undo: the artist has been told");
    expect(panelError(REVIEW_TEXTS_EN, "Something new")).toBe("Something new");
    expect(panelError(REVIEW_TEXTS_RU, REVIEW_TEXTS.alreadyTold)).toBe(REVIEW_TEXTS.alreadyTold);
  });
});

import { describe, expect, it } from "vitest";
import { formatKey } from "./figures.ts";

describe("the key in the desk's report (issue 38)", () => {
  it("a sure key as read, an uncertain one with its relative and «?»", () => {
    expect(formatKey({ key: "F minor", camelot: "4A", key_confidence: 0.9 })).toBe("F minor · 4A");
    expect(formatKey({ key: "Ab major", camelot: "4B", key_confidence: 0.62 })).toBe("Ab / Fm? · 4B?");
    expect(formatKey({ key: "F minor", camelot: "4A" })).toBe("F minor · 4A");
    expect(formatKey({ key: null, camelot: null, key_confidence: null })).toBe("—");
  });
});

import { describe, expect, it } from "vitest";
import {
  ALL_KEYS,
  camelotForKey,
  camelotOf,
  camelotSortIndex,
  compareCamelot,
  isKeySure,
  KEY_SURE_CONFIDENCE,
  keyName,
  shortKeyName,
  uncertainKeyLabel,
} from "./musical-key.ts";

describe("musical keys and their Camelot codes", () => {
  it.each(
    [
      [0, "major", "C major", "8B"],
      [9, "minor", "A minor", "8A"],
      [5, "minor", "F minor", "4A"],
      [7, "major", "G major", "9B"],
      [4, "minor", "E minor", "9A"],
      [11, "major", "B major", "1B"],
      [8, "minor", "G# minor", "1A"],
      [6, "major", "F# major", "2B"],
      [3, "minor", "Eb minor", "2A"],
      [1, "major", "Db major", "3B"],
      [10, "minor", "Bb minor", "3A"],
      [10, "major", "Bb major", "6B"],
      [1, "minor", "C# minor", "12A"],
      [4, "major", "E major", "12B"],
    ] as const,
  )("pitch class %d %s is %s, %s", (tonic, mode, name, camelot) => {
    expect(keyName(tonic, mode)).toBe(name);
    expect(camelotOf(tonic, mode)).toBe(camelot);
    expect(camelotForKey(name)).toBe(camelot);
  });

  it("names 24 different keys with 24 different codes, a relative pair on each number", () => {
    expect(new Set(ALL_KEYS.map((k) => k.name)).size).toBe(24);
    expect(new Set(ALL_KEYS.map((k) => k.camelot)).size).toBe(24);
    for (const k of ALL_KEYS.filter((k) => k.mode === "major")) {
      // The relative minor is three semitones down and shares the number.
      expect(camelotOf(k.tonic - 3, "minor")).toBe(k.camelot.replace("B", "A"));
    }
  });

  it("has no code for anything but the 24 names", () => {
    for (const name of ["A# major", "C#major", "c major", "H minor", "", null, undefined]) {
      expect(camelotForKey(name)).toBeNull();
    }
  });

  it("sorts by the wheel: 1A 1B 2A … 12B, unknown codes last", () => {
    const codes = ["12B", null, "1B", "10A", "2A", "1A", "bogus", "8B", "8A"];
    expect([...codes].sort(compareCamelot)).toEqual(["1A", "1B", "2A", "8A", "8B", "10A", "12B", null, "bogus"]);
    expect(camelotSortIndex("1A")).toBe(0);
    expect(camelotSortIndex("12B")).toBe(23);
    expect(camelotSortIndex("13A")).toBeNull();
    expect(camelotSortIndex("0B")).toBeNull();
  });
});

describe("an uncertain key (issue 38)", () => {
  it("is shown with its relative and «?» below the sure confidence", () => {
    expect(uncertainKeyLabel("Ab major")).toBe("Ab / Fm?");
    expect(uncertainKeyLabel("F minor")).toBe("Fm / Ab?");
    expect(uncertainKeyLabel("C# minor")).toBe("C#m / E?");
    expect(shortKeyName("Eb minor")).toBe("Ebm");
    expect(shortKeyName("nonsense")).toBeNull();
    expect(isKeySure(KEY_SURE_CONFIDENCE)).toBe(true);
    expect(isKeySure(KEY_SURE_CONFIDENCE - 0.001)).toBe(false);
    // A report older than the confidence is shown as read.
    expect(isKeySure(null)).toBe(true);
  });
});

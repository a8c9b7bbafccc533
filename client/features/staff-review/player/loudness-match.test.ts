import { describe, expect, it } from "vitest";
import { dbOf, loudnessMatch, volumeOf } from "./loudness-match.ts";

describe("loudnessMatch (issue 37)", () => {
  it("turns the louder version down by the LUFS difference, to 0.1 dB; the quieter stays", () => {
    expect(loudnessMatch(-7.34, -11.0)).toEqual({ current_db: -3.7, previous_db: 0 });
    expect(loudnessMatch(-12.0, -8.96)).toEqual({ current_db: 0, previous_db: -3 });
    expect(loudnessMatch(-9, -9)).toEqual({ current_db: 0, previous_db: 0 });
    expect(loudnessMatch(null, -9)).toEqual({ current_db: 0, previous_db: 0 });
  });

  it("the element's gain equals the difference within 0.1 dB", () => {
    for (const [a, b] of [[-6.2, -14.9], [-10, -10.04], [-23.5, -8.1]]) {
      const m = loudnessMatch(a, b);
      const louder = a > b ? m.current_db : m.previous_db;
      expect(Math.abs(dbOf(volumeOf(louder)) + Math.abs(a - b))).toBeLessThanOrEqual(0.1);
    }
  });
});

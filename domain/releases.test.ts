import { describe, expect, it } from "vitest";
import {
  catalogueNumber,
  catalogueNumberOf,
  isCalendarDate,
  normalIsrc,
  russianDate,
  sharesTotal,
} from "./releases.ts";
import { labelDay, mayMoveStage } from "./release-desk.ts";
import { labelCopySchema } from "./release-schemas.ts";

/** The release desk's rules (issue 34), each shown passing and failing. */
describe("release rules", () => {
  it("normalises an ISRC given with or without hyphens, and refuses a malformed one", () => {
    expect(normalIsrc("ru-a12-26-00001")).toBe("RU-A12-26-00001");
    expect(normalIsrc("USRC17607839")).toBe("US-RC1-76-07839");
    for (const bad of ["RU-A12-26-0001", "R1-A12-26-00001", "RU-A12-2X-00001", "RU-A1!-26-00001", ""]) {
      expect(normalIsrc(bad), bad).toBeNull();
    }
  });

  it("totals shares in hundredths: 33.33 + 33.33 + 33.34 is exactly 100, 0.1 + 0.2 + 99.7 too", () => {
    expect(sharesTotal([33.33, 33.33, 33.34])).toBe(100);
    expect(sharesTotal([0.1, 0.2, 99.7])).toBe(100);
    expect(sharesTotal([50, 49.99])).toBe(99.99);
  });

  it("refuses shares of three decimals and a total other than 100, naming the field", () => {
    const copy = (authors: unknown) => ({
      title: "T",
      version: null,
      artists: ["A"],
      authors,
      samples: { used: false, cleared: false, details: "" },
      isrc: null,
    });
    expect(labelCopySchema.safeParse(copy([{ name: "A", role: "music", share: 100 }])).success).toBe(true);
    const threeDecimals = labelCopySchema.safeParse(copy([
      { name: "A", role: "music", share: 50.005 },
      { name: "B", role: "music", share: 49.995 },
    ]));
    expect(threeDecimals.success).toBe(false);
    expect(threeDecimals.error?.issues[0].message).toBe("authors: доля — не больше двух знаков после запятой");
    const over = labelCopySchema.safeParse(copy([{ name: "A", role: "both", share: 100.01 }]));
    expect(over.error?.issues[0].message).toBe("authors: доли авторов в сумме должны быть ровно 100 (сейчас 100.01)");
    expect(labelCopySchema.safeParse({ ...copy([{ name: "A", role: "music", share: 100 }]), extra: 1 }).success)
      .toBe(false);
  });

  it("makes and reads catalogue numbers of a prefix", () => {
    expect(catalogueNumber("NPR", 7)).toBe("NPR007");
    expect(catalogueNumber("KSTR", 1234)).toBe("KSTR1234");
    expect(catalogueNumberOf("NPR", "NPR012")).toBe(12);
    expect(catalogueNumberOf("NPR", "NPR-3")).toBe(3);
    expect(catalogueNumberOf("NPR", "KSTR012")).toBeNull();
  });

  it("allows the stage moves of the table only", () => {
    expect(mayMoveStage("materials_requested", "materials_received")).toBe(true);
    expect(mayMoveStage("materials_requested", "scheduled")).toBe(false);
    expect(mayMoveStage("scheduled", "released")).toBe(true);
    expect(mayMoveStage("released", "cancelled")).toBe(false);
    expect(mayMoveStage("cancelled", "materials_requested")).toBe(true);
  });

  it("reads the label's day in Moscow and writes it as ДД.ММ.ГГГГ", () => {
    expect(labelDay(new Date("2027-03-31T20:59:59Z"))).toBe("2027-03-31");
    expect(labelDay(new Date("2027-03-31T21:00:00Z"))).toBe("2027-04-01");
    expect(russianDate("2027-04-02")).toBe("02.04.2027");
    expect(isCalendarDate("2027-02-29")).toBe(false);
    expect(isCalendarDate("2028-02-29")).toBe(true);
  });
});

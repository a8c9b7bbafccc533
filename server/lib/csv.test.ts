import { describe, expect, it } from "vitest";
import { csvCell, csvText } from "./csv.ts";

describe("csv", () => {
  it("quotes what needs it and defuses formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("=HYPERLINK(1)")).toBe(`"'=HYPERLINK(1)"`);
    expect(csvCell("-5")).toBe(`"'-5"`);
    expect(csvCell("@x")).toBe(`"'@x"`);
  });
  it("writes a BOM and CRLF line ends", () => {
    expect(csvText([["a", "б"], ["1", "2"]])).toBe("\uFEFFa,б\r\n1,2\r\n");
  });
});

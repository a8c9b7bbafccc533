import { describe, expect, it } from "vitest";
import { isSitePath, isTileLink } from "./tile-link.ts";

describe("slider link tile addresses", () => {
  it("takes http(s) addresses and paths on this site", () => {
    for (
      const ok of [
        "/",
        "/about",
        "/faq#q1",
        "/about?from=slider",
        " /privacy ",
        "https://vk.com/neuropunk",
        "http://example.com",
      ]
    ) {
      expect(isTileLink(ok), ok).toBe(true);
    }
  });

  it("refuses scripts, data, other schemes, another host written as a path, and bare words", () => {
    const bad = [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:msgbox",
      "ftp://example.com/a",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/about me",
      "about",
      "example.com",
      "https://",
      "",
    ];
    for (const url of bad) expect(isTileLink(url), JSON.stringify(url)).toBe(false);
  });

  it("a site path is only what stays on this origin", () => {
    for (const path of ["/about", "/a/b?c=d#e", "/%2F%2Fevil.example"]) {
      expect(isSitePath(path)).toBe(true);
      expect(new URL(path, "https://site.example").origin).toBe("https://site.example");
    }
    expect(isSitePath("https://site.example/about")).toBe(false);
  });
});

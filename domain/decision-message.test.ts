import { describe, expect, it } from "vitest";
import { artistMessage, templateMessage } from "./decision-message.ts";
import { trackNameParts } from "./track-name.ts";

describe("templateMessage", () => {
  it("fills {artist} and {title} from the name and {direction} with the public name, not the staff one", () => {
    const text = templateMessage("  {artist}, «{title}» не для {direction}.\n", "Noisia - Stigma.mp3", "label_koster");
    expect(text).toBe("Noisia, «Stigma» не для Лейбл Костёр.");
    expect(text).not.toContain("Звукозапись");
  });

  it("takes a name outside the rule as the title, and leaves an unknown placeholder as written", () => {
    expect(trackNameParts("untitled.MP3")).toEqual({ artist: "", title: "untitled" });
    expect(templateMessage("{title} {x}", "untitled.mp3", "radio_k_profit")).toBe("untitled {x}");
  });
});

describe("artistMessage", () => {
  it("is the text trimmed, or null when nothing is left", () => {
    expect(artistMessage("  привет \n")).toBe("привет");
    expect(artistMessage("   ")).toBeNull();
    expect(artistMessage(undefined)).toBeNull();
  });
});

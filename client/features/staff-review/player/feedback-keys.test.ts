// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { reviewKeyAction } from "./use-review-keys.ts";

afterEach(() => (document.body.innerHTML = ""));

const press = (init: KeyboardEventInit, choosing = false) =>
  reviewKeyAction(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }), { choosing });

describe("issue 37's keys", () => {
  it("Shift+1–9 in the chooser toggles a decline reason by the digit's physical key; 1–9 still pick", () => {
    expect(press({ key: "!", code: "Digit1", shiftKey: true }, true)).toBe("reason1");
    expect(press({ key: '"', code: "Digit2", shiftKey: true }, true)).toBe("reason2");
    expect(press({ key: "(", code: "Digit9", shiftKey: true }, true)).toBe("reason9");
    expect(press({ key: "1", code: "Digit1" }, true)).toBe("pick1");
    // Outside the chooser a shifted digit is nothing of the desk's.
    expect(press({ key: "!", code: "Digit1", shiftKey: true })).toBeNull();
  });

  it("B switches versions, on a Russian layout too («И»)", () => {
    expect(press({ key: "b", code: "KeyB" })).toBe("versions");
    expect(press({ key: "и", code: "KeyB" })).toBe("versions");
  });
});

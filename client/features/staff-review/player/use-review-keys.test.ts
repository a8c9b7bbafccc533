// @vitest-environment happy-dom
import { cleanup, renderHook } from "@testing-library/react";
import { useLayoutEffect } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { reviewKeyAction, useReviewKeys } from "./use-review-keys.ts";

/** A keydown dispatched on `target` as the browser would, returning what the player makes of it. */
function press(target: Element, init: KeyboardEventInit) {
  let action: ReturnType<typeof reviewKeyAction> = null;
  const listen = (e: Event) => (action = reviewKeyAction(e as KeyboardEvent));
  document.addEventListener("keydown", listen);
  target.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
  document.removeEventListener("keydown", listen);
  return action;
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
});

describe("review keys", () => {
  it("maps Space, J, K, D and the arrows; letters by their physical key, so a Russian layout works", () => {
    const body = document.body;
    expect(press(body, { key: " ", code: "Space" })).toBe("toggle");
    expect(press(body, { key: "j", code: "KeyJ" })).toBe("next");
    expect(press(body, { key: "о", code: "KeyJ" })).toBe("next");
    expect(press(body, { key: "K", code: "KeyK", shiftKey: true })).toBe("previous");
    expect(press(body, { key: "в", code: "KeyD" })).toBe("drop");
    expect(press(body, { key: "ArrowLeft", code: "ArrowLeft" })).toBe("back");
    expect(press(body, { key: "ArrowRight", code: "ArrowRight" })).toBe("forward");
    expect(press(body, { key: "q", code: "KeyQ" })).toBeNull();
  });

  it("maps the desk's keys (issue 23) by physical key: A/S/X decide, M/N focus, Z undoes, ? shows the legend", () => {
    const body = document.body;
    expect(press(body, { key: "ф", code: "KeyA" })).toBe("accept");
    expect(press(body, { key: "ы", code: "KeyS" })).toBe("shortlist");
    expect(press(body, { key: "ч", code: "KeyX" })).toBe("decline");
    expect(press(body, { key: "ь", code: "KeyM" })).toBe("message");
    expect(press(body, { key: "т", code: "KeyN" })).toBe("note");
    expect(press(body, { key: "я", code: "KeyZ" })).toBe("undo");
    expect(press(body, { key: "?", code: "Slash", shiftKey: true })).toBe("legend");
    expect(press(body, { key: ",", code: "Slash", shiftKey: true })).toBe("legend");
  });

  it("takes 1–9, Enter and Esc only while the template chooser is open", () => {
    const body = document.body;
    expect(press(body, { key: "1", code: "Digit1" })).toBeNull();
    expect(press(body, { key: "Enter", code: "Enter" })).toBeNull();
    expect(press(body, { key: "Escape", code: "Escape" })).toBeNull();
    const choosing = (init: KeyboardEventInit, target: Element = body) => {
      let action: ReturnType<typeof reviewKeyAction> = null;
      const listen = (e: Event) => (action = reviewKeyAction(e as KeyboardEvent, { choosing: true }));
      document.addEventListener("keydown", listen);
      target.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
      document.removeEventListener("keydown", listen);
      return action;
    };
    expect(choosing({ key: "1", code: "Digit1" })).toBe("pick1");
    expect(choosing({ key: "9", code: "Numpad9" })).toBe("pick9");
    expect(choosing({ key: "0", code: "Digit0" })).toBeNull();
    expect(choosing({ key: "Enter", code: "Enter" })).toBe("send");
    expect(choosing({ key: "Escape", code: "Escape" })).toBe("close");
    // Enter on a focused button elsewhere presses that button; a text field keeps every key.
    document.body.innerHTML = `<button id="b">Edit</button><textarea id="t"></textarea>`;
    expect(choosing({ key: "Enter", code: "Enter" }, document.getElementById("b")!)).toBeNull();
    expect(choosing({ key: "1", code: "Digit1" }, document.getElementById("t")!)).toBeNull();
    expect(choosing({ key: "a", code: "KeyA" }, document.getElementById("t")!)).toBeNull();
  });

  it("takes nothing from text fields, selects, text areas, dialogs, or with a modifier held", () => {
    document.body.innerHTML = `
      <input id="text" type="search"><select id="sel"><option>a</option></select><textarea id="area"></textarea>
      <div contenteditable="true" id="edit"></div>
      <div role="dialog" id="dlg"><span id="inside">x</span></div>`;
    for (const id of ["text", "sel", "area", "edit", "inside"]) {
      const el = document.getElementById(id)!;
      expect(press(el, { key: "j", code: "KeyJ" }), id).toBeNull();
      expect(press(el, { key: " ", code: "Space" }), id).toBeNull();
      expect(press(el, { key: "ArrowRight", code: "ArrowRight" }), id).toBeNull();
      expect(press(el, { key: "a", code: "KeyA" }), id).toBeNull();
      expect(press(el, { key: "x", code: "KeyX" }), id).toBeNull();
      expect(press(el, { key: "z", code: "KeyZ" }), id).toBeNull();
    }
    expect(press(document.body, { key: "j", code: "KeyJ", ctrlKey: true })).toBeNull();
    expect(press(document.body, { key: "d", code: "KeyD", metaKey: true })).toBeNull();
    expect(press(document.body, { key: "ArrowLeft", code: "ArrowLeft", altKey: true })).toBeNull();
  });

  it("leaves Space to a focused button or link (it presses it) but takes the letters and arrows there", () => {
    document.body.innerHTML =
      `<button id="b">Edit</button><a id="a" href="/x">x</a><div id="w" role="slider" tabindex="0"></div>`;
    const button = document.getElementById("b")!;
    expect(press(button, { key: " ", code: "Space" })).toBeNull();
    expect(press(document.getElementById("a")!, { key: " ", code: "Space" })).toBeNull();
    expect(press(button, { key: "j", code: "KeyJ" })).toBe("next");
    expect(press(button, { key: "ArrowRight", code: "ArrowRight" })).toBe("forward");
    expect(press(document.getElementById("w")!, { key: " ", code: "Space" })).toBe("toggle");
  });

  it("stays out of the way while a modal is open, wherever the focus is", () => {
    document.body.innerHTML = `<div aria-modal="true" role="dialog"></div>`;
    expect(press(document.body, { key: " ", code: "Space" })).toBeNull();
    expect(press(document.body, { key: "j", code: "KeyJ" })).toBeNull();
  });

  it("takes a key pressed as soon as the rows show, before the effects of that render have run (0465)", () => {
    // The browser may handle a key between the commit that shows the rows and the effects React runs
    // after it (a loaded machine, Chromium's input first). A layout effect runs in that gap: the key is
    // pressed there, as J was in CI's review desk right after the queue's rows appeared.
    const taken: string[] = [];
    const { rerender } = renderHook(({ rows }: { rows: number }) => {
      useReviewKeys({ next: () => taken.push(`next with ${rows} rows`) }, rows > 0);
      useLayoutEffect(() => {
        if (rows > 0) {
          document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "j", code: "KeyJ", bubbles: true }));
        }
      }, [rows]);
    }, { initialProps: { rows: 0 } });
    // No rows yet: the key is not the player's.
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "j", code: "KeyJ", bubbles: true }));
    expect(taken).toEqual([]);
    rerender({ rows: 3 });
    expect(taken).toEqual(["next with 3 rows"]);
  });
});

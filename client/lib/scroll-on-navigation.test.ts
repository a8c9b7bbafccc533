// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ScrollRouter, setupScrollRestoration } from "./scroll-on-navigation.ts";

type Rendered = Parameters<Parameters<ScrollRouter["subscribe"]>[1]>[0];

function fakeRouter(options: ScrollRouter["options"] = { scrollRestoration: false }) {
  const handlers: ((e: Rendered) => void)[] = [];
  const router: ScrollRouter = {
    _scroll: { n: true },
    options,
    subscribe: (_event, fn) => handlers.push(fn),
  };
  const render = (hash = "", state: Rendered["toLocation"]["state"] = {}) =>
    handlers.forEach((h) => h({ toLocation: { hash, state } }));
  return { router, handlers, render };
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("scrolling after a navigation (router-core's module in the build, decision 0433)", () => {
  it("goes to the top of the page after each navigation, once set up however often it is called", () => {
    const scrollTo = vi.spyOn(globalThis, "scrollTo").mockImplementation(() => {});
    const { router, handlers, render } = fakeRouter();
    setupScrollRestoration(router);
    setupScrollRestoration(router);
    expect(handlers).toHaveLength(1);
    render();
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: undefined });
  });

  it("keeps the place when the navigation said resetScroll: false, and only for that navigation", () => {
    const scrollTo = vi.spyOn(globalThis, "scrollTo").mockImplementation(() => {});
    const { router, render } = fakeRouter();
    setupScrollRestoration(router);
    router._scroll.n = false;
    render();
    expect(scrollTo).not.toHaveBeenCalled();
    render();
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it("scrolls a #section into view instead of going to the top, unless told not to", () => {
    const scrollTo = vi.spyOn(globalThis, "scrollTo").mockImplementation(() => {});
    const section = document.createElement("h2");
    section.id = "terms";
    document.body.append(section);
    const into = vi.fn();
    section.scrollIntoView = into;
    const { router, render } = fakeRouter();
    setupScrollRestoration(router);
    render("terms");
    expect(into).toHaveBeenCalledWith(true);
    expect(scrollTo).not.toHaveBeenCalled();
    render("terms", { __hashScrollIntoViewOptions: false });
    expect(into).toHaveBeenCalledTimes(1);
  });

  it("refuses a router that asks for scroll restoration, which this module does not do", () => {
    expect(() => setupScrollRestoration(fakeRouter({ scrollRestoration: true }).router)).toThrow(/scrollRestoration/);
  });
});

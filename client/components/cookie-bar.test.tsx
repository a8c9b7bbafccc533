// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CookieBar } from "./cookie-bar.tsx";
import { renderPage } from "./testing/render-page.tsx";

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function mount() {
  renderPage("/", () => (
    <>
      <p>страница</p>
      <CookieBar />
    </>
  ));
  await screen.findByText("страница");
}

describe("cookie bar", () => {
  it("appears 1 s after start and remembers Понятно", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await mount();
    expect(screen.queryByRole("button", { name: "Понятно" })).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    fireEvent.click(await screen.findByRole("button", { name: "Понятно" }));
    expect(screen.queryByRole("button", { name: "Понятно" })).toBeNull();
    expect(localStorage.getItem("cookieConsent")).toBe("true");
  });

  it("leaves room below the page while it shows, so it never hides the last controls", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await mount();
    expect(screen.queryByTestId("cookie-bar-spacer")).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    const spacer = await screen.findByTestId("cookie-bar-spacer");
    expect(spacer.getAttribute("aria-hidden")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Понятно" }));
    expect(screen.queryByTestId("cookie-bar-spacer")).toBeNull();
  });

  it("stays hidden once accepted", async () => {
    localStorage.setItem("cookieConsent", "true");
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await mount();
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.queryByRole("button", { name: "Понятно" })).toBeNull();
  });
});

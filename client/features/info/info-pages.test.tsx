// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { AboutPage } from "./about-page.tsx";
import { ErrorPage } from "./error-page.tsx";
import { MaintenancePage } from "./maintenance-page.tsx";
import { PRIVACY_DOCUMENT, PRIVACY_LOAD_FAILED, PrivacyPage } from "./privacy-page.tsx";
import { SuccessPage } from "./success-page.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  auth.clear();
});

describe("information pages", () => {
  it("about: the figures and the ways to upload and to the FAQ", async () => {
    renderPage("/about", AboutPage);
    expect(await screen.findByText("500K")).toBeTruthy();
    expect(screen.getByText("1500+")).toBeTruthy();
    const hrefs = screen.getAllByRole("link").map((a) => a.getAttribute("href"));
    expect(hrefs).toContain("/");
    expect(hrefs).toContain("/faq");
  });

  it("privacy: last updated 21 April 2025, and it carries the terms of use", async () => {
    const text = readFileSync("client/public/privacy-policy.html", "utf8");
    const fetch = fakeFetch({
      [PRIVACY_DOCUMENT]: () => new Response(text, { headers: { "content-type": "text/html" } }),
    });
    vi.stubGlobal("fetch", fetch);
    renderPage("/privacy", PrivacyPage);
    expect((await screen.findByText("21 апреля 2025 г.")).getAttribute("dateTime")).toBe("2025-04-21");
    expect((await screen.findByRole("heading", { name: "8. Условия использования" })).id).toBe("terms");
    expect(screen.getByRole("link", { name: "Условия использования" }).getAttribute("href")).toBe("#terms");
    expect(screen.getByText("Только drum&bass.").tagName).toBe("STRONG");
    expect(fetch.calls).toEqual([PRIVACY_DOCUMENT]);
  });

  it("privacy: a document that does not arrive says so, and Повторить fetches it again", async () => {
    let up = false;
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        [PRIVACY_DOCUMENT]: () =>
          up ? new Response('<h2 id="general">1. Общие положения</h2>') : Promise.reject(new TypeError("offline")),
      }),
    );
    renderPage("/privacy", PrivacyPage);
    expect((await screen.findByRole("alert")).textContent).toBe(PRIVACY_LOAD_FAILED);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      "Политика конфиденциальности и условия использования",
    );
    up = true;
    fireEvent.click(screen.getByRole("button", { name: "Повторить" }));
    expect(await screen.findByRole("heading", { name: "1. Общие положения" })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("maintenance: says the site is under maintenance", async () => {
    renderPage("/maintenance", MaintenancePage);
    expect(await screen.findByRole("heading", { name: "Ведутся технические работы" })).toBeTruthy();
  });

  it("error: the given message, else the default", async () => {
    renderPage("/error?message=Файл%20повреждён", ErrorPage, { routePath: "/error" });
    expect(await screen.findByText("Файл повреждён")).toBeTruthy();
    cleanup();
    renderPage("/error", ErrorPage);
    expect(await screen.findByText("Что-то пошло не так...")).toBeTruthy();
  });

  it("error: a failed look-up of the batch errors says so", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/errors": () => Response.json({}, { status: 500 }) }));
    auth.setTokens("a", "r");
    renderPage("/error", ErrorPage);
    expect(await screen.findByText("Не удалось получить информацию об ошибке")).toBeTruthy();
  });

  it("success: the batch text, else the fallback, with links home and to the profile", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/success": () => ({ success: "" }) }));
    renderPage("/success", SuccessPage);
    expect(await screen.findByText("Операция завершена успешно")).toBeTruthy();
    const hrefs = screen.getAllByRole("link").map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["/", "/profile"]);
    cleanup();
    vi.stubGlobal(
      "fetch",
      fakeFetch({ "/api/success": () => ({ success: "Трек успешно загружен и прошёл проверку." }) }),
    );
    renderPage("/success", SuccessPage);
    expect(await screen.findByText("Трек успешно загружен и прошёл проверку.")).toBeTruthy();
  });
});

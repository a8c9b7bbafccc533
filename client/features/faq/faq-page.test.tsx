// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { FaqPage } from "./faq-page.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  auth.closeBanModal();
});

const faqs = [
  { id: 2, question: "Второй вопрос", answer: "<p>Ответ <strong>два</strong></p>", order: 2 },
  { id: 1, question: "Первый вопрос", answer: "<p>Ответ один</p>", order: 1 },
];

describe("FAQ page", () => {
  it("lists entries by order and opens one at a time, answers as HTML", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/faq": () => ({ success: true, faqs }) }));
    renderPage("/faq", FaqPage);
    const buttons = await screen.findAllByRole("button", { name: /вопрос/ });
    expect(buttons.map((b) => b.textContent)).toEqual(["Первый вопрос", "Второй вопрос"]);
    expect(buttons.every((b) => b.getAttribute("aria-expanded") === "false")).toBe(true);

    fireEvent.click(buttons[1]);
    expect(buttons[1].getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("два").tagName).toBe("STRONG");

    fireEvent.click(buttons[0]);
    expect(buttons[0].getAttribute("aria-expanded")).toBe("true");
    expect(buttons[1].getAttribute("aria-expanded")).toBe("false");

    fireEvent.click(buttons[0]);
    expect(buttons[0].getAttribute("aria-expanded")).toBe("false");
  });

  it("says the FAQ could not be loaded", async () => {
    vi.stubGlobal("fetch", fakeFetch({ "/api/faq": () => Response.json({ success: false }, { status: 500 }) }));
    renderPage("/faq", FaqPage);
    expect(await screen.findByText("Не удалось загрузить FAQ. Пожалуйста, попробуйте позже.")).toBeTruthy();
  });

  it("treats a 403 as a ban", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/faq": () => Response.json({ success: false, error: "Доступ запрещён" }, { status: 403 }),
      }),
    );
    const { router } = renderPage("/faq", FaqPage);
    await vi.waitFor(() => expect(auth.getSnapshot().banMessage).toBe("Доступ запрещён"));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { PHONE_QUERY } from "../../../components/ui/use-media-query.ts";
import { AdminTracksPage } from "./admin-tracks-page.tsx";
import { ModeratorTracksPage } from "./moderator-tracks-page.tsx";
import { AiUseBadge } from "./ai-use-badge.tsx";

/**
 * The AI question on the staff side (issue 25, decision 0246): «ИИ: частично» / «ИИ: да» on a row
 * and a card (nothing for «нет» or no answer), every answer in the details, and the `ai_use` filter
 * kept in the address, sent to the server and counted on the phone's filter button.
 */

const track = (id: number, ai_use: "no" | "partly" | "yes" | null) => ({
  id,
  filename: `Artist ${id} - Title ${id}.mp3`,
  user_id: 5,
  guest_username: null,
  user_info: { id: 5, username: "uploader", name: "Uploader" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster",
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: null,
  decisions: [{ direction: "label_koster", status: "new" }],
  waiting_days: 3,
  overdue: false,
  duplicate_of: null,
  ai_use,
});

const TRACKS = [track(1, "partly"), track(2, "yes"), track(3, "no"), track(4, null)];

let listCalls: URL[] = [];

function phone(matches: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: matches && query === PHONE_QUERY,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

async function show(base: "/admin" | "/moderator", search = "") {
  listCalls = [];
  vi.stubGlobal("requestAnimationFrame", () => 0);
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    if (url.pathname === `/api${base}/tracks`) {
      listCalls.push(url);
      return Promise.resolve(
        Response.json({ success: true, tracks: TRACKS, total: 4, filtered: 4, page: 1, pages: 1, page_size: 10 }),
      );
    }
    if (url.pathname === "/api/moderator/status") {
      return Promise.resolve(Response.json({ success: true, is_moderator: true, categories: "*" }));
    }
    return Promise.resolve(Response.json({ success: false, error: "Не найдено" }, { status: 404 }));
  });
  const Page = base === "/admin" ? AdminTracksPage : ModeratorTracksPage;
  const page = renderPage(`${base}/tracks${search}`, Page, { routePath: `${base}/tracks` });
  await settle();
  return page;
}

const badgeOf = (id: number) => document.querySelector(`[data-track-id="${id}"] .st-ai-use`)?.textContent ?? null;

useSignedInTestSession();
afterEach(cleanup);

describe("the AI answer in the staff lists", () => {
  it("marks «Частично» and «Да» on the desk's rows, not «Нет» or no answer", async () => {
    phone(false);
    await show("/admin");
    expect(badgeOf(1)).toBe("ИИ: частично");
    expect(badgeOf(2)).toBe("ИИ: да");
    expect(badgeOf(3)).toBeNull();
    expect(badgeOf(4)).toBeNull();
  });

  it("marks the phone's cards the same way", async () => {
    phone(true);
    await show("/admin");
    expect(document.querySelector("table")).toBeNull();
    expect(badgeOf(1)).toBe("ИИ: частично");
    expect(badgeOf(2)).toBe("ИИ: да");
    expect(badgeOf(3)).toBeNull();
  });

  it("filters by the answer: kept in the address and sent to the server", async () => {
    phone(false);
    const { router } = await show("/admin");
    const select = screen.getByLabelText("ИИ") as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["", "Все"],
      ["no", "Нет"],
      ["partly", "Частично"],
      ["yes", "Да"],
      ["none", "Без ответа"],
    ]);
    fireEvent.change(select, { target: { value: "partly" } });
    await settle();
    expect(router.state.location.search).toMatchObject({ ai_use: "partly" });
    expect(listCalls.at(-1)?.searchParams.get("ai_use")).toBe("partly");
    // Reset clears it.
    fireEvent.click(screen.getByRole("button", { name: "Сбросить" }));
    await settle();
    expect((router.state.location.search as Record<string, unknown>).ai_use).toBeUndefined();
  });

  it("reads it back from a link, counts it on the phone's filter button, ignores a bad value", async () => {
    phone(true);
    await show("/admin", "?ai_use=none");
    expect(listCalls.at(-1)?.searchParams.get("ai_use")).toBe("none");
    const button = screen.getByRole("button", { name: "Фильтры · 1" });
    fireEvent.click(button);
    const panel = document.getElementById(button.getAttribute("aria-controls")!)!;
    expect((within(panel).getByLabelText("ИИ") as HTMLSelectElement).value).toBe("none");
    cleanup();
    await show("/admin", "?ai_use=maybe");
    expect(screen.getByRole("button", { name: "Фильтры" })).toBeTruthy();
    expect(listCalls.at(-1)?.searchParams.get("ai_use") ?? "").toBe("");
  });

  it("speaks English in the moderator panel's filter and badge", async () => {
    phone(false);
    await show("/moderator", "?ai_use=yes");
    const select = screen.getByLabelText("AI") as HTMLSelectElement;
    expect(select.value).toBe("yes");
    expect(select.selectedOptions[0].textContent).toBe("Yes");
    expect(listCalls.at(-1)?.searchParams.get("ai_use")).toBe("yes");
    expect(badgeOf(2)).toBe("AI: yes");
  });
});

describe("AiUseBadge in the track's details", () => {
  it("says every answer, «нет» and no answer included", () => {
    const text = (value: "no" | "partly" | "yes" | null) => {
      const { container, unmount } = render(<AiUseBadge value={value} detail />);
      const out = container.textContent;
      unmount();
      return out;
    };
    expect([text("no"), text("partly"), text("yes"), text(null)]).toEqual([
      "ИИ: нет",
      "ИИ: частично",
      "ИИ: да",
      "ИИ: не указано",
    ]);
  });
});

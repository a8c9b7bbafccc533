// @vitest-environment happy-dom
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { ModeratorDashboardPage } from "./dashboard-page.tsx";

/**
 * The dashboards' review queue (issue 23, decision 0228): per direction in the caller's scope, new,
 * shortlisted and overdue counts, each a link to the queue filtered that way.
 */

const QUEUE = [
  { direction: "label_koster", new: 12, shortlisted: 3, overdue: 2 },
  { direction: "show_neurogon", new: 0, shortlisted: 1, overdue: 0 },
];

function answer(routes: Record<string, unknown>) {
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    const body = routes[url.pathname];
    return Promise.resolve(
      body === undefined
        ? Response.json({ success: false, error: "Не найдено" }, { status: 404 })
        : Response.json({ success: true, ...body as object }),
    );
  });
}

/** Each figure's link: its address, read back as the list reads it. */
function links(direction: string) {
  const row = document.querySelector<HTMLElement>(`[data-testid="review-queue"] li[data-direction="${direction}"]`)!;
  return Object.fromEntries(
    within(row).getAllByRole("link").map((a) => {
      const url = new URL(a.getAttribute("href")!, "http://localhost");
      return [a.getAttribute("data-kind"), {
        path: url.pathname,
        search: Object.fromEntries(url.searchParams),
        // The accessible name: the visible words first, then the direction (issue 31).
        name: a.getAttribute("aria-label") ?? a.textContent,
      }];
    }),
  );
}

useSignedInTestSession();

describe("the moderator dashboard's review queue", () => {
  it("lists their directions in English, linking to the moderator's list", async () => {
    answer({
      "/api/moderator/dashboard": { review_queue: QUEUE.slice(0, 1) },
      "/api/moderator/status": { is_moderator: true, categories: ["label_koster"] },
      "/api/moderator/tracks": { tracks: [], total: 16, filtered: 1, page: 1, pages: 1, page_size: 10 },
      "/api/moderator/faq": { faqs: [] },
    });
    renderPage("/moderator", ModeratorDashboardPage);
    await settle();
    expect(screen.getByRole("region", { name: "Review queue" })).toBeTruthy();
    const koster = links("label_koster");
    expect(koster.new).toEqual({
      path: "/moderator/tracks",
      search: { direction: "label_koster", review: "new", sort: "upload_date" },
      name: "12 New (Костёр Звукозапись)",
    });
    expect(koster.shortlisted.search).toEqual({ direction: "label_koster", review: "shortlisted" });
    expect(koster.overdue.name).toBe("2 Overdue (Костёр Звукозапись)");
    // The name the screen reader computes holds the visible words (axe label-content-name-mismatch).
    expect(screen.getByRole("link", { name: "12 New (Костёр Звукозапись)" }).getAttribute("aria-label")).toBeNull();
    expect(koster.overdue.search).toEqual({ direction: "label_koster", review: "overdue", sort: "upload_date" });
    // Issue 25: their directions' intake rules open from here (the sidebar stays spec 2's).
    const rules = screen.getByRole("link", { name: "Intake rules of your categories →" });
    expect(rules.getAttribute("href")).toBe("/moderator/intake");
  });

  it("shows their response figures and asks for the period chosen (issue 24)", async () => {
    const periods: string[] = [];
    const figures = (received: number) => ({
      period: { name: "month", from: "2026-10-27T00:00:00.000Z", to: "2026-11-26T00:00:00.000Z" },
      promise_days: 14,
      by_direction: [{
        direction: "label_koster",
        received,
        heard: 1,
        decided: 1,
        to_listen: { median_s: 7200, p90_s: 7200 },
        to_decision: { median_s: 86400 * 3, p90_s: 86400 * 3 },
        within_promise: { kept: 1, due: 1, share: 1 },
      }],
      by_staff: [],
    });
    vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
      const ok = (body: object) => Promise.resolve(Response.json({ success: true, ...body }));
      if (url.pathname === "/api/moderator/dashboard") return ok({ review_queue: QUEUE.slice(0, 1) });
      if (url.pathname === "/api/moderator/dashboard/response-figures") {
        const period = url.searchParams.get("period") ?? "";
        periods.push(period);
        return ok({ response_figures: figures(period === "week" ? 2 : 9) });
      }
      if (url.pathname === "/api/moderator/status") return ok({ is_moderator: true, categories: ["label_koster"] });
      if (url.pathname === "/api/moderator/faq") return ok({ faqs: [] });
      return ok({ tracks: [], total: 16, filtered: 1, page: 1, pages: 1, page_size: 10 });
    });
    renderPage("/moderator", ModeratorDashboardPage);
    await settle();
    const section = screen.getByRole("region", { name: "Response times" });
    const received = () =>
      section.querySelector<HTMLElement>('[data-testid="figures-label_koster"] td[data-col="received"]')!.textContent;
    expect(received()).toBe("9");
    expect(within(section).getByText("3 d / 3 d")).toBeTruthy();
    expect(periods).toEqual(["month"]);
    fireEvent.click(within(section).getByRole("button", { name: "Week" }));
    await settle();
    expect(periods).toContain("week");
    expect(received()).toBe("2");
  });
});

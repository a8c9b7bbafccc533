// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { AdminDashboardPage } from "./dashboard-page.tsx";

/**
 * The dashboards' review queue (issue 23, decision 0228): per direction in the caller's scope, new,
 * shortlisted and overdue counts, each a link to the queue filtered that way.
 */

const QUEUE = [
  { direction: "label_koster", new: 12, shortlisted: 3, overdue: 2, auto_declined: 4 },
  { direction: "show_neurogon", new: 0, shortlisted: 1, overdue: 0, auto_declined: 0 },
];

const STATS = {
  total_users: 3,
  total_tracks: 16,
  track_downloads: { downloaded: 1, not_downloaded: 15 },
  top_user: null,
  user_platforms: { vk: 1, telegram: 1, combined: 1 },
  track_timeline: { labels: ["a"], data: [1], period: "month" },
  directions: { labels: ["label_koster"], data: [16] },
  review: [],
  review_queue: QUEUE,
};

const FIGURES = {
  period: { name: "month", from: "2026-10-27T00:00:00.000Z", to: "2026-11-26T00:00:00.000Z" },
  promise_days: 14,
  by_direction: [{
    direction: "label_koster",
    received: 4,
    heard: 3,
    decided: 2,
    to_listen: { median_s: 3600, p90_s: 7200 },
    to_decision: { median_s: 86400 * 2, p90_s: 86400 * 20 },
    within_promise: { kept: 1, due: 2, share: 0.5 },
  }],
  by_staff: [],
};

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

describe("the admin dashboard's review queue", () => {
  it("shows new, shortlisted and overdue per direction, each linking to the filtered list", async () => {
    answer({ "/api/admin/dashboard": { stats: STATS } });
    renderPage("/admin", AdminDashboardPage);
    await settle();
    const section = screen.getByRole("region", { name: "Очередь рассмотрения" });
    expect(within(section).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual([
      "Лейбл Костер",
      "Шоу Нейрогон",
    ]);
    const koster = links("label_koster");
    expect(koster.new).toEqual({
      path: "/admin/tracks",
      search: { direction: "label_koster", review: "new", sort: "upload_date" },
      name: "12 Новые (Лейбл Костер)",
    });
    expect(koster.shortlisted).toEqual({
      path: "/admin/tracks",
      search: { direction: "label_koster", review: "shortlisted" },
      name: "3 В шорт-листе (Лейбл Костер)",
    });
    // Overdue: exactly the tracks it counts (review=overdue, issue 24), oldest first.
    expect(koster.overdue).toEqual({
      path: "/admin/tracks",
      search: { direction: "label_koster", review: "overdue", sort: "upload_date" },
      name: "2 Просрочены (Лейбл Костер)",
    });
    expect(links("show_neurogon").shortlisted.name).toBe("1 В шорт-листе (Шоу Нейрогон)");
    // Issue 25: the automatic declines, only where there are any.
    expect(within(section).getAllByTestId("auto-declined").map((p) => p.textContent)).toEqual([
      "Отклонено автоматически (срок ответа прошёл): 4",
    ]);
    expect(section.querySelector("[data-direction=label_koster] [data-testid=auto-declined]")).not.toBeNull();
  });

  it("shows the response figures of the period (issue 24) in Russian", async () => {
    answer({
      "/api/admin/dashboard": { stats: STATS },
      "/api/admin/dashboard/response-figures": { response_figures: FIGURES },
    });
    renderPage("/admin", AdminDashboardPage);
    await settle();
    const section = screen.getByRole("region", { name: "Скорость ответа" });
    const tr = section.querySelector<HTMLElement>('[data-testid="figures-label_koster"]')!;
    expect(within(tr).getByRole("rowheader").textContent).toBe("Лейбл Костер");
    expect([...tr.querySelectorAll("td")].map((td) => td.textContent)).toEqual([
      "4",
      "3",
      "2",
      "1 ч / 2 ч",
      "2 дн / 20 дн",
      "50% (1/2)",
    ]);
    expect(within(section).getByText("Нет сотрудников")).toBeTruthy();
  });
});

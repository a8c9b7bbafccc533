// @vitest-environment happy-dom
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { AdminRedisPage } from "./redis-page.tsx";

useSignedInTestSession();

const UNREACHABLE =
  "The status store is unreachable. Track statuses are read from the database until it answers again.";

/** A server with 2 track-id keys, 25 status keys and 1 error key, paging like the real one. */
function server(opts: { down: boolean } = { down: false }) {
  const asked: URLSearchParams[] = [];
  const statusKeys = Array.from({ length: 25 }, (_, i) => `track_status:${100 + i}`);
  const slice = <T,>(all: T[], page: number, size: number) => {
    const pages = Math.max(1, Math.ceil(all.length / size));
    const at = Math.min(page, pages);
    return { items: all.slice((at - 1) * size, at * size), paging: { page: at, pages, total: all.length } };
  };
  const fetch = fakeFetch({
    "/api/admin/redis-data": (req) => {
      const q = new URL(req.url).searchParams;
      asked.push(q);
      if (opts.down) return Response.json({ success: false, error: UNREACHABLE }, { status: 503 });
      const size = Number(q.get("page_size") ?? 10);
      const ids = slice(["track_ids:1", "track_ids:2"], Number(q.get("track_ids_page") ?? 1), size);
      const st = slice(statusKeys, Number(q.get("track_status_page") ?? 1), size);
      const er = slice(["errors:1"], Number(q.get("errors_page") ?? 1), size);
      return {
        success: true,
        stats: { track_ids: 2, track_ids_count: 2, track_status: 25, errors: 1, success: 0, total: 28 },
        trackIds: ids.items.map((key) => ({ key, values: [1] })),
        trackStatus: st.items.map((key) => ({ key, value: { status: "completed", filename: `${key}.mp3` } })),
        errorKeys: er.items.map((key) => ({ key, value: ["A - B.mp3: Ошибка"] })),
        successCount: 0,
        paging: { page_size: size, trackIds: ids.paging, trackStatus: st.paging, errorKeys: er.paging },
      };
    },
  });
  vi.stubGlobal("fetch", fetch);
  return { asked };
}

const statusSection = () =>
  screen.getByRole("heading", { name: /^Track status keys/ }).closest(".st-section") as HTMLElement;
const shownKeys = (section: HTMLElement) => [...section.querySelectorAll(".st-kv-key")].map((e) => e.textContent);

describe("admin status store page", () => {
  it("shows a long list a page at a time and asks the server for the next page of that list only", async () => {
    const { asked } = server();
    renderPage("/admin/redis", AdminRedisPage);
    await settle();
    const section = statusSection();
    expect(shownKeys(section)).toHaveLength(10);
    expect(shownKeys(section)[0]).toBe("track_status:100");
    expect(within(section).getByText("Page 1 of 3")).toBeTruthy();
    expect(within(section).getByText("Showing 10 of 25 (total 25)")).toBeTruthy();
    // Short lists have no pager.
    expect(screen.getAllByText(/^Page \d+ of \d+$/)).toHaveLength(1);

    fireEvent.click(within(section).getByRole("button", { name: "Next" }));
    await settle();
    expect(asked.at(-1)?.get("track_status_page")).toBe("2");
    expect(asked.at(-1)?.get("track_ids_page")).toBe("1");
    expect(shownKeys(statusSection())[0]).toBe("track_status:110");
    fireEvent.click(within(statusSection()).getByRole("button", { name: "Page 3" }));
    await settle();
    expect(shownKeys(statusSection())).toEqual(Array.from({ length: 5 }, (_, i) => `track_status:${120 + i}`));
  });

  it("a larger page size shows more per page and starts each list again at page 1", async () => {
    const { asked } = server();
    renderPage("/admin/redis", AdminRedisPage);
    await settle();
    fireEvent.click(within(statusSection()).getByRole("button", { name: "Next" }));
    await settle();
    fireEvent.change(screen.getByLabelText("Per page"), { target: { value: "50" } });
    await settle();
    expect(asked.at(-1)?.get("page_size")).toBe("50");
    expect(asked.at(-1)?.get("track_status_page")).toBe("1");
    expect(shownKeys(statusSection())).toHaveLength(25);
    expect(screen.queryByText(/^Page \d+ of \d+$/)).toBeNull();
  });

  it("says that the store is unreachable instead of showing lists that may be out of date", async () => {
    const state = { down: false };
    const { asked } = server(state);
    renderPage("/admin/redis", AdminRedisPage);
    await settle();
    expect(screen.getByText("Stuck track IDs")).toBeTruthy();
    state.down = true;
    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await settle();
    expect(asked).toHaveLength(2);
    expect(screen.getByRole("alert").textContent).toBe(UNREACHABLE);
    expect(screen.queryByText("Stuck track IDs")).toBeNull();
    expect(screen.queryByText("track_status:100")).toBeNull();
  });
});

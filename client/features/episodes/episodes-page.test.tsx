// @vitest-environment happy-dom
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { AdminEpisodesPage } from "./episodes-page.tsx";

useSignedInTestSession();

describe("«Выпуски» (admin, Russian)", () => {
  it("offers the four shows, lists a show's episodes and creates the next one with the suggested number", async () => {
    const posted: unknown[] = [];
    const fetch = fakeFetch({
      "/api/moderator/status": () => ({ success: true, status: { is_moderator: true, categories: "*" } }),
      "/api/admin/episodes": async (req) => {
        if (req.method === "POST") {
          posted.push(await req.json());
          return new Response(JSON.stringify({ success: true, episode: { id: 9 } }), { status: 201 });
        }
        const direction = new URL(req.url).searchParams.get("direction");
        return {
          success: true,
          next_number: 58,
          episodes: direction === "podcast_neuropunk"
            ? [{
              id: 3,
              direction,
              number: 57,
              title: "Зимний",
              name: "Подкаст Нейропанк #57",
              air_date: "2026-12-01",
              aired_at: "2026-12-01T18:00:00.000Z",
              url: "https://e.org/57",
              revision: 2,
              track_count: 12,
            }]
            : [],
        };
      },
    });
    vi.stubGlobal("fetch", fetch);
    const { router } = renderPage("/admin/episodes", AdminEpisodesPage);
    await settle();
    const shows = within(screen.getByRole("group", { name: "Передача" })).getAllByRole("button");
    expect(shows.map((b) => b.textContent)).toEqual([
      "Подкаст Нейропанк",
      "Подкаст Костер",
      "Шоу Нейрогон",
      "Радио Профита",
    ]);
    const list = screen.getByTestId("episode-list");
    expect(list.textContent).toContain("#57 Зимний");
    expect(list.textContent).toContain("треков: 12");
    expect(list.textContent).toContain("В эфире");
    expect((screen.getByLabelText("Номер") as HTMLInputElement).value).toBe("58");
    fireEvent.change(screen.getByLabelText("Название"), { target: { value: "Весенний" } });
    fireEvent.change(screen.getByLabelText("Дата эфира"), { target: { value: "2027-03-01" } });
    fireEvent.click(screen.getByRole("button", { name: "Создать выпуск" }));
    await settle();
    expect(posted).toEqual([{ direction: "podcast_neuropunk", title: "Весенний", air_date: "2027-03-01", number: 58 }]);
    expect(router.state.location.pathname).toBe("/admin/episodes/9");
  });
});

// @vitest-environment happy-dom
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { PHONE_QUERY } from "../../../components/ui/use-media-query.ts";
import { AdminTracksPage } from "./admin-tracks-page.tsx";
import { ModeratorTracksPage } from "./moderator-tracks-page.tsx";
import { activeFilterCount } from "./track-filters-panel.tsx";
import { EMPTY_TRACK_FILTERS } from "./track-filters.tsx";

/**
 * The staff queue on a phone (issue 23, decision 0227): cards instead of the table, the filters
 * behind one button that counts them, the compact player; the desk keeps the table and the row.
 */

const analysis = (extra: Record<string, unknown> = {}) => ({
  duration_s: 200,
  bitrate_kbps: 320,
  bitrate_mode: "cbr",
  sample_rate_hz: 44100,
  channels: 2,
  loudness_lufs: -8.9,
  true_peak_dbtp: -0.3,
  clipped_samples: 0,
  bpm: 174,
  drop_s: 60,
  warnings: [],
  ...extra,
});

const track = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  filename: `Artist ${id} - Title ${id}.mp3`,
  user_id: 5,
  guest_username: null,
  user_info: { id: 5, username: "uploader", name: "Uploader" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster,show_neurogon",
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: analysis(),
  decisions: [{ direction: "label_koster", status: "shortlisted" }, { direction: "show_neurogon", status: "new" }],
  waiting_days: 3,
  overdue: false,
  duplicate_of: null,
  ...extra,
});

const TRACKS = [
  // Issue 22's key fields: the Camelot code is shown.
  track(1, { analysis: analysis({ camelot: "8A", key: "A minor", warnings: ["clipping", "low_bitrate"] }) }),
  // Only the key's name.
  track(2, { analysis: analysis({ key: "F# minor", bpm: 172.5 }) }),
  // No key fields at all (before issue 22's analysis): the slot is left out.
  track(3, { waiting_days: 20, overdue: true }),
  // Not analysed yet, not waiting for anyone.
  track(4, { analysis: null, waiting_days: null, filename: "odd name.mp3" }),
];

function phone(matches: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: matches && query === PHONE_QUERY,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

async function show(base: "/admin" | "/moderator", search = "") {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    if (url.pathname === `/api${base}/tracks`) {
      return Promise.resolve(
        Response.json({ success: true, tracks: TRACKS, total: 4, filtered: 4, page: 1, pages: 1, page_size: 10 }),
      );
    }
    if (url.pathname === "/api/moderator/status") {
      return Promise.resolve(Response.json({ success: true, is_moderator: true, categories: "*" }));
    }
    const listen = /\/tracks\/(\d+)\/listen$/.exec(url.pathname);
    if (listen) {
      return Promise.resolve(
        Response.json({
          success: true,
          stream_url: `/api/listen/token-${listen[1]}`,
          expires_in: 1800,
          peaks: null,
          duration_s: 200,
        }),
      );
    }
    return Promise.resolve(Response.json({ success: false, error: "Не найдено" }, { status: 404 }));
  });
  const Page = base === "/admin" ? AdminTracksPage : ModeratorTracksPage;
  const page = renderPage(`${base}/tracks${search}`, Page, { routePath: `${base}/tracks` });
  await settle();
  return page;
}

const card = (id: number) => document.querySelector<HTMLElement>(`li[data-track-id="${id}"]`)!;
const field = (id: number, name: string) => card(id).querySelector(`[data-field="${name}"]`)?.textContent ?? null;

useSignedInTestSession();

describe("the queue on a phone", () => {
  it("is a list of cards: title, artist, waiting days, BPM, key, warnings, review badges; no table", async () => {
    phone(true);
    await show("/admin");
    expect(document.querySelector("table")).toBeNull();
    const list = screen.getByRole("list", { name: "Треки" });
    expect(within(list).getAllByRole("listitem").filter((li) => li.hasAttribute("data-track-id"))).toHaveLength(4);

    expect(field(1, "title")).toBe("Title 1");
    expect(field(1, "artist")).toBe("Артист: Artist 1");
    expect(field(1, "waiting")).toBe("ждёт 3 дн.");
    expect(field(1, "bpm")).toBe("174 BPM");
    expect(field(1, "key")).toBe("Тональность: 8A");
    expect(within(card(1)).getByRole("list", { name: "Предупреждения" }).textContent).toBe(
      "⚠ Клиппинг⚠ Битрейт ниже 320 kbps",
    );
    expect(within(card(1)).getByTestId("review-badges").textContent).toContain("В шорт-листе");

    expect(field(2, "key")).toBe("Тональность: F# minor");
    expect(field(2, "bpm")).toBe("172,5 BPM");
    // No key in the analysis: no key slot, no placeholder.
    expect(field(3, "key")).toBeNull();
    // Overdue: the red badge says how long, once.
    expect(field(3, "waiting")).toBeNull();
    expect(within(card(3)).getByTestId("overdue").textContent).toBe("Ждёт 20 дн.");
    // A name outside the rule: the whole file name, the uploader as the artist; nothing unknown shown.
    expect(field(4, "title")).toBe("odd name.mp3");
    expect(field(4, "artist")).toBe("Артист: Uploader");
    expect(field(4, "bpm")).toBeNull();
    expect(field(4, "waiting")).toBeNull();

    // Each card keeps the row's play, selection and actions, each once.
    expect(screen.getAllByRole("button", { name: "Слушать: Artist 1 - Title 1.mp3" })).toHaveLength(1);
    expect(screen.getAllByRole("checkbox", { name: "Выбрать трек Artist 1 - Title 1.mp3" })).toHaveLength(1);
    expect(screen.getAllByRole("link", { name: "Изменить: Artist 1 - Title 1.mp3" })).toHaveLength(1);
  });

  it("plays from a card: the card is marked and the compact bar has play, −5/+5 and the drop", async () => {
    phone(true);
    await show("/admin");
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist 2 - Title 2.mp3" }));
    await settle();
    expect(document.querySelector("audio")?.getAttribute("src")).toBe("/api/listen/token-2");
    expect(card(2).getAttribute("aria-current")).toBe("true");
    const bar = screen.getByRole("region", { name: "Плеер" });
    for (const name of ["Воспроизведение/пауза", "Назад на 5 секунд", "Вперёд на 5 секунд", "К дропу"]) {
      expect(within(bar).getByRole("button", { name })).toBeTruthy();
    }
  });

  it("hides the filters behind one button that counts the active ones and opens them as a panel", async () => {
    phone(true);
    await show("/admin", "?filename=amen&warning=clipping&sort=bpm");
    expect(screen.queryByLabelText("Название трека")).toBeNull();
    const button = screen.getByRole("button", { name: "Фильтры · 2" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const panel = document.getElementById(button.getAttribute("aria-controls")!)!;
    expect((within(panel).getByLabelText("Название трека") as HTMLInputElement).value).toBe("amen");
    fireEvent.change(within(panel).getByLabelText("Рассмотрение"), { target: { value: "new" } });
    await settle();
    expect(screen.getByRole("button", { name: "Фильтры · 3" })).toBe(button);
    fireEvent.click(within(panel).getByRole("button", { name: "Сбросить" }));
    await settle();
    expect(button.textContent).toBe("Фильтры");
    fireEvent.click(within(panel).getByRole("button", { name: "Готово" }));
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByLabelText("Название трека")).toBeNull();
  });

  it("opens on the dashboard's overdue link with «Ждут решения» chosen and counted", async () => {
    phone(true);
    await show("/admin", "?direction=label_koster&review=awaiting&sort=upload_date");
    const button = screen.getByRole("button", { name: "Фильтры · 2" });
    fireEvent.click(button);
    const review = screen.getByLabelText("Рассмотрение") as HTMLSelectElement;
    expect(review.value).toBe("awaiting");
    expect(review.selectedOptions[0].textContent).toBe("Ждут решения");
  });

  it("speaks the moderator panel's language", async () => {
    phone(true);
    await show("/moderator", "?direction=label_koster");
    expect(screen.getByRole("button", { name: "Filters · 1" })).toBeTruthy();
    expect(field(1, "waiting")).toBe("waiting 3 days");
    expect(field(1, "key")).toBe("Key: 8A");
    expect(screen.getByRole("list", { name: "Tracks" })).toBeTruthy();
  });

  it("counts every filter field once, and none when empty", () => {
    expect(activeFilterCount(EMPTY_TRACK_FILTERS)).toBe(0);
    const all = Object.fromEntries(Object.keys(EMPTY_TRACK_FILTERS).map((k) => [k, "x"]));
    expect(activeFilterCount(all as unknown as typeof EMPTY_TRACK_FILTERS)).toBe(10);
  });
});

describe("the queue on a desk", () => {
  it("keeps the table and the filter row, with no filter button", async () => {
    phone(false);
    await show("/admin", "?filename=amen");
    expect(document.querySelectorAll("tbody tr[data-track-id]")).toHaveLength(4);
    expect(document.querySelector("[data-testid='track-cards']")).toBeNull();
    expect((screen.getByLabelText("Название трека") as HTMLInputElement).value).toBe("amen");
    expect(screen.queryByRole("button", { name: /^Фильтры/ })).toBeNull();
  });
});

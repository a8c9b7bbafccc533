// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { ProfilePage } from "./profile-page.tsx";

const user = {
  id: 1,
  username: "artist",
  email: null,
  first_name: "Иван",
  last_name: "Петров",
  avatar: null,
  city: "Москва",
  birth_date: "1990-05-17",
  bio: "Пишу нейрофанк",
  favorite_dnb_genre: "Neurofunk",
  vk_id: "12345",
  telegram_id: null,
  phone_number: null,
  is_admin: true,
  is_moderator: false,
  moderator_categories: "",
  is_banned: false,
  ban_reason: null,
};

async function signInWith(tracks: unknown[] | Response) {
  localStorage.clear();
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user }),
      "/api/tracks": () => (tracks instanceof Response ? tracks : { success: true, tracks }),
      // «Мои треки» reads the submission history (issue 13); spec 1's list fields plus its own.
      "/api/tracks/history": () =>
        tracks instanceof Response ? tracks : {
          success: true,
          tracks: tracks.map((t) => ({
            status: "completed",
            error: null,
            directions: [],
            decisions: [],
            analysis: null,
            comments: [],
            ...(t as object),
          })),
          total: tracks.length,
          page: 1,
          pages: 1,
          page_size: 20,
        },
    }),
  );
  auth.setTokens("a", "r");
  await auth.loadUser();
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("profile page", () => {
  it("shows the profile, initials without an avatar, and each track's label", async () => {
    await signInWith([
      { id: 2, filename: "A - Done.mp3", upload_date: "2025-04-20T10:00:00.000Z", downloaded: true },
      { id: 1, filename: "A - Waiting.mp3", upload_date: "2025-04-19T10:00:00.000Z", downloaded: false },
    ]);
    renderPage("/profile", ProfilePage);
    expect(await screen.findByText("Иван Петров")).toBeTruthy();
    expect(screen.getByText("ИП")).toBeTruthy();
    expect(screen.getByText("Администратор")).toBeTruthy();
    expect(screen.getByText("@artist")).toBeTruthy();
    expect(screen.getByText("17.05.1990")).toBeTruthy();
    expect(screen.getByText("12345")).toBeTruthy();
    const rows = await screen.findAllByTestId("my-track");
    expect(rows[0].textContent).toContain("A - Done.mp3");
    // Spec 1's label, on a line of its own that says what it is about (issue 31, decision 0286).
    const download = (row: HTMLElement) => row.querySelector("[data-testid=my-track-download]")?.textContent;
    expect(download(rows[0])).toBe("Скачивание файла: Загружен — команда скачала файл");
    expect(download(rows[1])).toBe("Скачивание файла: В обработке — команда ещё не скачала файл");
    // Not a chip: a track's badges are its warnings, review states and failure only.
    expect(rows[1].querySelector(".badge")).toBeNull();
    expect(screen.getByRole("link", { name: "Редактировать профиль" }).getAttribute("href")).toBe("/profile/edit");
  });

  it("shows the length, bitrate and warnings of an analysed track, nothing of one not analysed yet", async () => {
    await signInWith([
      {
        id: 3,
        filename: "A - Loud.mp3",
        upload_date: "2025-04-21T10:00:00.000Z",
        downloaded: false,
        analysis: { duration_s: 187.6, bitrate_kbps: 256, warnings: ["low_bitrate", "clipping"] },
      },
      { id: 1, filename: "A - Fresh.mp3", upload_date: "2025-04-19T10:00:00.000Z", downloaded: false, analysis: null },
    ]);
    renderPage("/profile", ProfilePage);
    const rows = await screen.findAllByTestId("my-track");
    expect(rows[0].querySelector("[data-testid=my-track-figures]")?.textContent).toBe("3:07 · 256 kbps");
    const warnings = [...rows[0].querySelectorAll("li")].map((li) => li.textContent);
    expect(warnings).toEqual(["Битрейт ниже 320 kbps", "Клиппинг"]);
    expect(rows[1].querySelector("[data-testid=my-track-figures]")).toBeNull();
    expect(rows[1].querySelectorAll("li")).toHaveLength(0);
  });

  it("shows a failed upload's reason and, per direction, the review state with the staff's message", async () => {
    await signInWith([
      {
        id: 7,
        filename: "A - Accepted.mp3",
        upload_date: "2025-04-22T10:00:00.000Z",
        downloaded: true,
        directions: ["label_koster", "show_neurogon"],
        decisions: [
          { direction: "label_koster", status: "accepted", message: "Берём на лейбл!" },
          { direction: "show_neurogon", status: "in_review", message: null },
        ],
      },
      {
        id: 6,
        filename: "A - Broken.mp3",
        upload_date: "2025-04-21T10:00:00.000Z",
        downloaded: false,
        status: "failed",
        error: "Такой трек уже загружен",
        directions: ["label_koster"],
      },
    ]);
    renderPage("/profile", ProfilePage);
    const rows = await screen.findAllByTestId("my-track");
    const decisions = [...rows[0].querySelectorAll("[data-testid=my-track-decision]")].map((li) => li.textContent);
    expect(decisions).toEqual(["Лейбл КостёрПринятСообщение: Берём на лейбл!", "Шоу НейрогонНа рассмотрении"]);
    // The download state sits before the directions, outside every decision's line (decision 0286).
    const download = rows[0].querySelector("[data-testid=my-track-download]")!;
    expect(download.textContent).toContain("Загружен");
    expect(download.closest("[data-testid=my-track-decision]")).toBeNull();
    expect(
      download.compareDocumentPosition(rows[0].querySelector("[data-testid=my-track-decision]")!) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(rows[1].querySelector("[data-testid=my-track-error]")?.textContent).toBe("Такой трек уже загружен");
    expect(rows[1].textContent).toContain("Ошибка обработки");
    expect(rows[1].textContent).not.toContain("В обработке");
    expect(rows[1].querySelector("[data-testid=my-track-download]")).toBeNull();
  });

  it("shows «ответ до <дата>» for an undecided pair and marks an automatic decline (issue 25)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date(2026, 10, 29, 12) });
    await signInWith([
      {
        id: 9,
        filename: "A - Waiting.mp3",
        upload_date: "2026-11-20T10:00:00.000Z",
        downloaded: true,
        directions: ["label_koster", "show_neurogon", "radio_k_profit"],
        decisions: [
          { direction: "label_koster", status: "in_review", message: null, respond_by: "2026-12-04T10:00:00.000Z" },
          { direction: "show_neurogon", status: "accepted", message: null, respond_by: null, automatic: false },
          {
            direction: "radio_k_profit",
            status: "declined",
            message: "Не успели послушать",
            respond_by: null,
            automatic: true,
          },
        ],
      },
    ]);
    renderPage("/profile", ProfilePage);
    const [row] = await screen.findAllByTestId("my-track");
    const pairs = [...row.querySelectorAll("[data-testid=my-track-decision]")];
    const date = new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit", year: "numeric" })
      .format(new Date("2026-12-04T10:00:00.000Z"));
    expect(pairs[0].querySelector("[data-testid=my-track-respond-by]")?.textContent).toBe(`ответ до ${date}`);
    expect(pairs[0].querySelector("[data-testid=my-track-automatic]")).toBeNull();
    expect(pairs[1].querySelector("[data-testid=my-track-respond-by]")).toBeNull();
    expect(pairs[1].querySelector("[data-testid=my-track-automatic]")).toBeNull();
    expect(pairs[2].querySelector("[data-testid=my-track-automatic]")?.textContent).toBe("автоматически");
    expect(pairs[2].textContent).toBe("Радио ПрофитаОтклонёнавтоматическиСообщение: Не успели послушать");
  });

  it("shows the place in the queue with the expected date, the promise in brackets (issue 36)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date(2026, 10, 29, 12) });
    const queued = (direction: string, expected: string | null, heard: number) => ({
      direction,
      status: "in_review",
      message: null,
      respond_by: "2026-12-13T10:00:00.000Z",
      automatic: false,
      queue_position: 14,
      queue_length: 120,
      expected_by: expected,
      heard_by: heard,
    });
    await signInWith([{
      id: 9,
      filename: "A - Queued.mp3",
      upload_date: "2026-11-29T10:00:00.000Z",
      downloaded: false,
      directions: ["podcast_koster", "show_neurogon"],
      decisions: [queued("podcast_koster", "2026-12-12T10:00:00.000Z", 2), queued("show_neurogon", null, 0)],
    }]);
    renderPage("/profile", ProfilePage);
    const [row] = await screen.findAllByTestId("my-track");
    const pairs = [...row.querySelectorAll("[data-testid=my-track-decision]")];
    const day = (iso: string) =>
      new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit" }).format(new Date(iso));
    expect(pairs[0].querySelector("[data-testid=my-track-queue]")?.textContent).toBe(
      `№14 из 120 в очереди Подкаст Костёр · ответ ожидается около ${day("2026-12-12T10:00:00.000Z")} (обещали до ${
        day("2026-12-13T10:00:00.000Z")
      }) · послушали 2`,
    );
    // The brackets carry the promise: no second promise line.
    expect(pairs[0].querySelector("[data-testid=my-track-respond-by]")).toBeNull();
    // No pace in that direction: the place alone, and the promise on its own line.
    expect(pairs[1].querySelector("[data-testid=my-track-queue]")?.textContent).toBe(
      "№14 из 120 в очереди Шоу Нейрогон",
    );
    expect(pairs[1].querySelector("[data-testid=my-track-respond-by]")).not.toBeNull();
  });

  it("says a promise whose day has passed is late: «ответ задерживается, обещали до …» (issue 31)", async () => {
    // 29.11.2026 in the visitor's calendar; one promise for 23.11, one for today, one for 30.11.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date(2026, 10, 29, 23, 30) });
    const pair = (direction: string, respondBy: Date) => ({
      direction,
      status: direction === "show_neurogon" ? "listened" : "in_review",
      message: null,
      respond_by: respondBy.toISOString(),
    });
    await signInWith([{
      id: 9,
      filename: "A - Waiting.mp3",
      upload_date: "2026-11-09T10:00:00.000Z",
      downloaded: false,
      directions: ["label_koster", "show_neurogon", "radio_k_profit"],
      decisions: [
        pair("label_koster", new Date(2026, 10, 23, 18)),
        pair("show_neurogon", new Date(2026, 10, 29, 8)),
        pair("radio_k_profit", new Date(2026, 10, 30, 8)),
      ],
    }]);
    renderPage("/profile", ProfilePage);
    const [row] = await screen.findAllByTestId("my-track");
    const promises = [...row.querySelectorAll("[data-testid=my-track-respond-by]")];
    expect(promises.map((p) => p.textContent)).toEqual([
      "ответ задерживается, обещали до 23.11.2026",
      "ответ до 29.11.2026",
      "ответ до 30.11.2026",
    ]);
    expect(promises.map((p) => p.getAttribute("data-late"))).toEqual(["true", "false", "false"]);
    expect(promises[0].className).toContain("track-late");
    // On the direction's own line, beside the review state it qualifies.
    const pairs = [...row.querySelectorAll("[data-testid=my-track-decision]")];
    expect(pairs[0].textContent).toBe("Лейбл КостёрНа рассмотренииответ задерживается, обещали до 23.11.2026");
    expect(pairs[1].textContent).toBe("Шоу НейрогонПрослушанответ до 29.11.2026");
  });

  it("folds the card's details behind «Данные профиля» (the phone shows only the summary), opened by a tap", async () => {
    await signInWith([]);
    renderPage("/profile", ProfilePage);
    const toggle = await screen.findByRole("button", { name: "Данные профиля" });
    const card = toggle.closest(".profile-card")!;
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(toggle.getAttribute("aria-controls")).toBe("profile-more");
    expect(card.classList.contains("profile-card-open")).toBe(false);
    // The details stay in the page (the desktop shows them; styles.css folds them below 560 px).
    expect(document.getElementById("profile-more")?.textContent).toContain("Москва");
    fireEvent.click(toggle);
    expect(screen.getByRole("button", { name: "Скрыть данные" }).getAttribute("aria-expanded")).toBe("true");
    expect(card.classList.contains("profile-card-open")).toBe(true);
    // Edit and sign-out stay outside the folded part.
    expect(document.getElementById("profile-more")?.textContent).not.toContain("Редактировать профиль");
    expect(screen.getByRole("link", { name: "Редактировать профиль" })).toBeTruthy();
  });

  it("pages the history with «Показать ещё», newest first as the server answers", async () => {
    const pages = [1, 2].map((page) => ({
      success: true,
      tracks: [{
        id: 10 - page,
        filename: `A - Page ${page}.mp3`,
        upload_date: "2025-04-22T10:00:00.000Z",
        status: "completed",
        error: null,
        downloaded: false,
        directions: [],
        decisions: [],
        analysis: null,
      }],
      total: 2,
      page,
      pages: 2,
      page_size: 20,
    }));
    localStorage.clear();
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => ({ success: true, user }),
        "/api/tracks/history": (req) => pages[Number(new URL(req.url).searchParams.get("page")) - 1],
      }),
    );
    auth.setTokens("a", "r");
    await auth.loadUser();
    renderPage("/profile", ProfilePage);
    expect((await screen.findAllByTestId("my-track")).map((r) => r.querySelector(".track-title")?.textContent)).toEqual(
      ["A - Page 1.mp3"],
    );
    fireEvent.click(screen.getByRole("button", { name: "Показать ещё" }));
    await waitFor(() => expect(screen.getAllByTestId("my-track")).toHaveLength(2));
    expect(screen.getAllByTestId("my-track")[1].textContent).toContain("A - Page 2.mp3");
    expect(screen.queryByRole("button", { name: "Показать ещё" })).toBeNull();
  });

  it("hints at MP3 at 320 kbps when there are no tracks", async () => {
    await signInWith([]);
    renderPage("/profile", ProfilePage);
    expect(await screen.findByText("Поддерживается формат MP3 с битрейтом 320 kbps.")).toBeTruthy();
  });

  it("says the tracks could not be loaded", async () => {
    await signInWith(Response.json({ success: false, error: "x" }, { status: 500 }));
    renderPage("/profile", ProfilePage);
    expect(await screen.findByText("Не удалось загрузить треки")).toBeTruthy();
  });
});

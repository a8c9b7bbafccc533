// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { trackListPlace } from "./track-list-search.ts";
import { AdminTracksPage } from "./admin-tracks-page.tsx";

/**
 * The admin track list with the review player (issue 12 §2, §3): one track at a time, the keys, seek
 * and the drop, the report, sortable figures, and filters, sort and page read from and written to
 * the address.
 */

const analysis = (id: number) => ({
  duration_s: 200,
  bitrate_kbps: id === 2 ? 192 : 320,
  bitrate_mode: "cbr",
  sample_rate_hz: 44100,
  channels: 2,
  loudness_lufs: -8.94,
  true_peak_dbtp: -0.31,
  clipped_samples: id === 2 ? 12 : 0,
  bpm: 174,
  drop_s: 60,
  // Issue 22: the key; track 4's report has none (written before the key, or none read).
  key: id === 4 ? null : "F minor",
  camelot: id === 4 ? null : "4A",
  warnings: id === 2 ? ["low_bitrate", "clipping"] : [],
});

const track = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  filename: `Artist - Track ${id}.mp3`,
  user_id: null,
  guest_username: "guest",
  user_info: null,
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster",
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: analysis(id),
  ...extra,
});

/** 12 tracks over two pages of 10; track 3 failed and has no file. */
const ALL = Array.from(
  { length: 12 },
  (_, i) => i + 1 === 3 ? track(3, { status: "failed", has_file: false, analysis: null }) : track(i + 1),
);

useSignedInTestSession();

async function show(path = "/admin/tracks") {
  // The waveform follows playback frame by frame; here the element never advances, so no frames.
  vi.stubGlobal("requestAnimationFrame", () => 0);
  const listCalls: URLSearchParams[] = [];
  const listenCalls: number[] = [];
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => Promise.resolve(answer(input)));
  function answer(input: RequestInfo | URL): Response {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    if (url.pathname === "/api/admin/tracks") {
      listCalls.push(url.searchParams);
      const size = Number(url.searchParams.get("page_size") ?? 10);
      const pages = Math.ceil(ALL.length / size);
      const page = Math.min(Number(url.searchParams.get("page") ?? 1), pages);
      const tracks = ALL.slice((page - 1) * size, page * size);
      return Response.json({ success: true, tracks, total: 12, filtered: 12, page, pages, page_size: size });
    }
    const listen = /^\/api\/admin\/tracks\/(\d+)\/listen$/.exec(url.pathname);
    if (listen) {
      const id = Number(listen[1]);
      listenCalls.push(id);
      const peaks = Array.from({ length: 1000 }, () => [-0.5, 0.5]);
      return Response.json({
        success: true,
        stream_url: `/api/listen/token-${id}`,
        expires_in: 1800,
        peaks,
        duration_s: 200,
      });
    }
    return Response.json({ success: false, error: "Не найдено" }, { status: 404 });
  }
  const page = renderPage(path, AdminTracksPage, { routePath: "/admin/tracks" });
  await settle();
  return { ...page, listCalls, listenCalls };
}

const audio = () => document.querySelector("audio")!;
const playing = () => audio().getAttribute("src");
const key = async (init: KeyboardEventInit, target: Element = document.body) => {
  fireEvent.keyDown(target, init);
  await settle(1);
};
const currentRows = () =>
  [...document.querySelectorAll("tr[aria-current='true']")].map((r) => r.getAttribute("data-track-id"));

describe("review player", () => {
  it("plays one track at a time: another row's Play switches, the same row's Play pauses", async () => {
    await show();
    expect(document.querySelectorAll("audio")).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
    await settle();
    expect(playing()).toBe("/api/listen/token-1");
    expect(audio().paused).toBe(false);
    expect(currentRows()).toEqual(["1"]);

    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 2.mp3" }));
    await settle();
    expect(playing()).toBe("/api/listen/token-2");
    expect(currentRows()).toEqual(["2"]);
    const pressed = screen.getAllByRole("button", { pressed: true }).map((b) => b.getAttribute("aria-label"));
    expect(pressed).toEqual(["Слушать: Artist - Track 2.mp3", "Воспроизведение/пауза"]);

    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 2.mp3" }));
    await settle();
    expect(audio().paused).toBe(true);
    expect(screen.queryAllByRole("button", { pressed: true })).toHaveLength(0);
    expect(currentRows()).toEqual(["2"]);
  });

  it("a second press while the start is still settling pauses the audio already playing", async () => {
    await show();
    // The element plays (its play event fired) but the start's promise has not settled yet.
    const real = HTMLMediaElement.prototype.play;
    let settleStart = () => {};
    const held = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(function (this: HTMLMediaElement) {
      void real.call(this);
      return new Promise<void>((resolve) => (settleStart = resolve));
    });
    try {
      fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
      await settle();
      expect(audio().paused).toBe(false);
      fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
      expect(audio().paused).toBe(true);
      settleStart();
      await settle();
      expect(audio().paused).toBe(true);
      expect(screen.queryAllByRole("button", { pressed: true })).toHaveLength(0);
    } finally {
      held.mockRestore();
    }
  });

  it("a press right after the browser refused to start the track plays it, before React shows the start ended (0465)", async () => {
    await show();
    // The browser refuses to start without a gesture (a reload, a shared link): play() rejects.
    let refuse = (_: unknown) => {};
    const held = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() =>
      new Promise<void>((_, reject) => (refuse = reject))
    );
    try {
      fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
      await settle();
      expect(playing()).toBe("/api/listen/token-1");
      refuse(new DOMException("no gesture", "NotAllowedError"));
      // The start has ended (its promise handled), but React has not rendered that yet: the person's
      // press comes in between, as Chromium handles input before a pending render on a loaded machine.
      for (let i = 0; i < 5; i++) await Promise.resolve();
      held.mockRestore();
      fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
      expect(audio().paused).toBe(false);
      await settle();
      expect(audio().paused).toBe(false);
      expect(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }).getAttribute("aria-pressed"))
        .toBe("true");
    } finally {
      held.mockRestore();
    }
  });

  it("Space, J and K walk the list (skipping a failed track) and J turns the page at its end", async () => {
    const { listCalls, router } = await show();
    await key({ key: " ", code: "Space" });
    await settle();
    expect(playing()).toBe("/api/listen/token-1");
    await key({ key: "j", code: "KeyJ" });
    await settle();
    expect(playing()).toBe("/api/listen/token-2");
    // Track 3 failed: it has no play button and J steps over it.
    expect(screen.queryByRole("button", { name: "Слушать: Artist - Track 3.mp3" })).toBeNull();
    await key({ key: "о", code: "KeyJ" });
    await settle();
    expect(playing()).toBe("/api/listen/token-4");
    await key({ key: "k", code: "KeyK" });
    await settle();
    expect(playing()).toBe("/api/listen/token-2");
    await key({ key: " ", code: "Space" });
    expect(audio().paused).toBe(true);
    await key({ key: " ", code: "Space" });
    expect(audio().paused).toBe(false);

    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 10.mp3" }));
    await settle();
    await key({ key: "j", code: "KeyJ" });
    await settle();
    expect(router.state.location.search).toEqual({ page: 2, track: 11 });
    expect(listCalls.at(-1)?.get("page")).toBe("2");
    expect(playing()).toBe("/api/listen/token-11");
    expect(currentRows()).toEqual(["11"]);
    await key({ key: "k", code: "KeyK" });
    await settle();
    // Back on page 1 (the default, left out of the address), with the playing track named (issue 23).
    expect(router.state.location.search).toEqual({ track: 10 });
    expect(playing()).toBe("/api/listen/token-10");
  });

  it("keys typed into a filter stay there", async () => {
    await show();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
    await settle();
    const input = screen.getByLabelText("Название трека");
    await key({ key: "j", code: "KeyJ" }, input);
    await key({ key: " ", code: "Space" }, input);
    await settle();
    expect(playing()).toBe("/api/listen/token-1");
    expect(audio().paused).toBe(false);
  });

  it("←/→ seek 5 s, D jumps to the drop, a click on the waveform seeks there", async () => {
    await show();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 1.mp3" }));
    await settle();
    await key({ key: "ArrowRight", code: "ArrowRight" });
    await key({ key: "ArrowRight", code: "ArrowRight" });
    expect(audio().currentTime).toBe(10);
    await key({ key: "ArrowLeft", code: "ArrowLeft" });
    expect(audio().currentTime).toBe(5);
    await key({ key: "ArrowLeft", code: "ArrowLeft" });
    await key({ key: "ArrowLeft", code: "ArrowLeft" });
    expect(audio().currentTime).toBe(0);

    await key({ key: "d", code: "KeyD" });
    expect(audio().currentTime).toBe(60);
    const wave = screen.getByRole("slider", { name: "Позиция воспроизведения" });
    expect(wave.getAttribute("data-peaks")).toBe("1000");
    expect(wave.querySelector(".st-wave-drop")?.getAttribute("style")).toContain("left: 30%");
    wave.getBoundingClientRect = () => ({
      left: 100,
      width: 400,
      top: 0,
      height: 56,
      right: 500,
      bottom: 56,
      x: 100,
      y: 0,
      toJSON() {},
    });
    fireEvent.click(wave, { clientX: 200 });
    expect(audio().currentTime).toBe(50);
    fireEvent.keyDown(wave, { key: "Home" });
    expect(audio().currentTime).toBe(0);
    // The buttons do the same for screen-reader users.
    fireEvent.click(screen.getByRole("button", { name: "Вперёд на 5 секунд" }));
    expect(audio().currentTime).toBe(5);
    fireEvent.click(screen.getByRole("button", { name: "К дропу" }));
    expect(audio().currentTime).toBe(60);
  });

  it("shows the report beside the player, with the warnings in Russian", async () => {
    await show();
    expect(screen.getByText(/Нажмите «Слушать»/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Слушать: Artist - Track 2.mp3" }));
    await settle();
    const report = screen.getByRole("region", { name: "Технический отчёт" });
    const figures = [...report.querySelectorAll("dt")].map((dt) =>
      `${dt.textContent}: ${dt.nextElementSibling?.textContent}`
    );
    expect(figures).toEqual([
      "Длительность: 3:20",
      "Битрейт: 192 kbps",
      "Громкость: −8,9 LUFS",
      "True peak: −0,3 dBTP",
      "BPM: 174",
      "Тональность: F minor · 4A",
    ]);
    const warnings = within(report).getByRole("list", { name: "Предупреждения" });
    expect(within(warnings).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Битрейт ниже 320 kbps",
      "Клиппинг",
    ]);
    expect(screen.getByRole("status").textContent).toBe("Играет: Artist - Track 2.mp3");
  });
});

describe("track table figures and the address", () => {
  it("shows duration, bitrate, loudness, BPM, key and drop per row; a failed row has no play or download button", async () => {
    await show();
    const row = document.querySelector("tr[data-track-id='2']")!;
    const cell = (f: string) => row.querySelector(`[data-figure=${f}]`)?.textContent;
    expect([cell("duration"), cell("bitrate"), cell("loudness"), cell("bpm"), cell("key"), cell("drop")]).toEqual([
      "3:20",
      "192",
      "−8,9",
      "174",
      "4A, F minor",
      "1:00",
    ]);
    // The Camelot code is shown; the key's name is read out with it and shown on hover.
    expect(row.querySelector("[data-figure=key] .visually-hidden")?.textContent).toBe(", F minor");
    expect(row.querySelector("[data-figure=key] [title]")?.getAttribute("title")).toBe("F minor");
    expect(screen.getByRole("columnheader", { name: /^Тональность, Тон\./ })).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: /^Время дропа, Дроп/ })).toBeTruthy();
    const noKey = document.querySelector("tr[data-track-id='4']")!;
    expect(noKey.querySelector("[data-figure=key]")?.textContent).toBe("—");
    // A track without a report (failed, no file) shows no key and no drop.
    const bare = document.querySelector("tr[data-track-id='3']")!;
    expect([
      bare.querySelector("[data-figure=key]")?.textContent,
      bare.querySelector("[data-figure=drop]")?.textContent,
    ])
      .toEqual(["—", "—"]);
    expect(screen.getByRole("columnheader", { name: "Битрейт, kbps" })).toBeTruthy();
    expect(row.querySelector(".st-row-warnings")?.textContent).toBe(
      "⚠ 2Предупреждения: Битрейт ниже 320 kbps, Клиппинг",
    );
    const failed = document.querySelector("tr[data-track-id='3']") as HTMLElement;
    expect(within(failed).queryByRole("button", { name: /^Скачать/ })).toBeNull();
    expect(within(failed).queryByRole("button", { name: /^Слушать/ })).toBeNull();
    expect(within(failed).getByRole("button", { name: /^Удалить/ })).toBeTruthy();
    expect(within(row as HTMLElement).getByRole("button", { name: "Скачать: Artist - Track 2.mp3" })).toBeTruthy();
  });

  it("a figure header sorts ascending, then descending, through the address and the request", async () => {
    const { router, listCalls } = await show("/admin/tracks?page=2");
    const header = screen.getByRole("columnheader", { name: /Громкость/ });
    expect(header.getAttribute("aria-sort")).toBeNull();
    fireEvent.click(within(header).getByRole("button"));
    await settle();
    expect(router.state.location.search).toEqual({ sort: "loudness" });
    expect(listCalls.at(-1)?.get("sort")).toBe("loudness");
    expect(screen.getByRole("columnheader", { name: /Громкость/ }).getAttribute("aria-sort")).toBe("ascending");
    fireEvent.click(within(screen.getByRole("columnheader", { name: /Громкость/ })).getByRole("button"));
    await settle();
    expect(router.state.location.search).toEqual({ sort: "-loudness" });
    expect(screen.getByRole("columnheader", { name: /Громкость/ }).getAttribute("aria-sort")).toBe("descending");
  });

  it("while a new sort's rows load, the old rows are marked busy; the new ones are not", async () => {
    await show();
    const answered = globalThis.fetch;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
      if (url.pathname === "/api/admin/tracks" && url.searchParams.get("sort") === "duration") await gate;
      return answered(input);
    });
    const table = () => screen.getByRole("table");
    expect(table().getAttribute("aria-busy")).toBe("false");
    fireEvent.click(within(screen.getByRole("columnheader", { name: /Длительность/ })).getByRole("button"));
    await settle();
    // The header already says the new sort; the rows are still the old answer's, and say so.
    expect(screen.getByRole("columnheader", { name: /Длительность/ }).getAttribute("aria-sort")).toBe("ascending");
    expect(table().getAttribute("aria-busy")).toBe("true");
    expect(table().classList.contains("st-rows-stale")).toBe(true);
    release();
    await settle();
    expect(table().getAttribute("aria-busy")).toBe("false");
    expect(table().classList.contains("st-rows-stale")).toBe(false);
  });

  it("the key header sorts by Camelot code, ascending then descending", async () => {
    const { router, listCalls } = await show();
    const header = () => screen.getByRole("columnheader", { name: /Тональность/ });
    fireEvent.click(within(header()).getByRole("button"));
    await settle();
    expect(router.state.location.search).toEqual({ sort: "key" });
    expect(listCalls.at(-1)?.get("sort")).toBe("key");
    expect(header().getAttribute("aria-sort")).toBe("ascending");
    fireEvent.click(within(header()).getByRole("button"));
    await settle();
    expect(listCalls.at(-1)?.get("sort")).toBe("-key");
    expect(header().getAttribute("aria-sort")).toBe("descending");
  });

  it("reads filters, sort, page and page size from the address, ignoring what does not parse", async () => {
    const { listCalls } = await show(
      "/admin/tracks?page=2&page_size=25&warning=clipping&sort=-bpm&direction=bogus&downloaded=true&filename=Amen",
    );
    const q = listCalls.at(-1)!;
    expect(q.get("page")).toBe("1"); // 12 tracks make one page of 25: the server's page wins
    expect(q.get("page_size")).toBe("25");
    expect(q.get("warning")).toBe("clipping");
    expect(q.get("sort")).toBe("-bpm");
    expect(q.get("downloaded")).toBe("true");
    expect(q.get("filename")).toBe("Amen");
    expect(q.has("direction")).toBe(false);
    expect((screen.getByLabelText("Предупреждение") as HTMLSelectElement).value).toBe("clipping");
    expect((screen.getByLabelText("Название трека") as HTMLInputElement).value).toBe("Amen");
    expect((screen.getByLabelText("Направление") as HTMLSelectElement).value).toBe("");
  });

  it("leaving for the edit page keeps the list's place for the way back", async () => {
    const { router } = await show("/admin/tracks?page=2&sort=-bpm&warning=any");
    expect(trackListPlace("/admin")).toEqual({ page: 2, sort: "-bpm", warning: "any" });
    // Typed and left at once, before the address caught up: the place has it all the same.
    fireEvent.change(screen.getByLabelText("Пользователь"), { target: { value: "ivan" } });
    await router.navigate({ to: "/admin/tracks/5/edit" as never });
    await settle();
    expect(screen.getByText("other page")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/admin/tracks/5/edit");
    expect(router.state.location.search).toEqual({});
    expect(trackListPlace("/admin")).toEqual({ page: 2, sort: "-bpm", warning: "any", user: "ivan" });
  });

  it("a filter goes into the address and back to page 1; typing waits until it settles; Reset keeps the sort", async () => {
    const { router } = await show("/admin/tracks?page=2&sort=bpm");
    fireEvent.change(screen.getByLabelText("Предупреждение"), { target: { value: "any" } });
    await settle();
    expect(router.state.location.search).toEqual({ sort: "bpm", warning: "any" });
    fireEvent.change(screen.getByLabelText("Название трека"), { target: { value: "Amen" } });
    await settle();
    expect(router.state.location.search).toEqual({ sort: "bpm", warning: "any" });
    await act(() => new Promise((r) => setTimeout(r, 350)));
    await settle();
    expect(router.state.location.search).toEqual({ sort: "bpm", warning: "any", filename: "Amen" });
    // Back (the address changes from outside) puts the inputs as they were.
    router.history.back();
    await settle();
    expect(router.state.location.search).toEqual({ sort: "bpm", page: 2 });
    expect((screen.getByLabelText("Предупреждение") as HTMLSelectElement).value).toBe("");
    expect((screen.getByLabelText("Название трека") as HTMLInputElement).value).toBe("");
    router.history.forward();
    await settle();
    fireEvent.click(screen.getByRole("button", { name: "Сбросить" }));
    await settle();
    expect(router.state.location.search).toEqual({ sort: "bpm" });
  });
});

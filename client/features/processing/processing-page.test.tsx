// @vitest-environment happy-dom
import { act, cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readFailedFiles } from "../../components/failed-files.ts";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { ProcessingPage } from "./processing-page.tsx";

const confetti = vi.hoisted(() => vi.fn());
const createCannon = vi.hoisted(() => vi.fn(() => confetti));
vi.mock("canvas-confetti", () => ({ default: Object.assign(vi.fn(), { create: createCannon }) }));

beforeEach(() => {
  localStorage.clear();
  confetti.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets pending promises and React updates settle under fake timers. */
async function flush(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe("processing page", () => {
  it("polls every 3 s until the batch ends, then fires confetti after 300 ms and clears failed files 5 s later", async () => {
    vi.useFakeTimers();
    localStorage.setItem(
      "failedFiles",
      JSON.stringify([{ filename: "NoSeparator.mp3", error: "Неверный формат имени файла" }]),
    );
    let polls = 0;
    const fetch = fakeFetch({
      "/api/track_ids": () => ({ track_ids: [7] }),
      "/api/status/7": () => {
        polls++;
        return polls < 3
          ? { status: "processing", error: null, track_data: { filename: "A - 1.mp3" } }
          : { status: "completed", error: null, track_data: { filename: "A - 1.mp3" } };
      },
    });
    vi.stubGlobal("fetch", fetch);
    renderPage("/processing", ProcessingPage);
    await flush();
    expect(screen.getByText("A - 1.mp3")).toBeTruthy();
    expect(screen.getByText("Обработка")).toBeTruthy();
    expect(screen.getByText("Файлы, не прошедшие проверку")).toBeTruthy();
    expect(screen.getByText("Не загружен")).toBeTruthy();
    expect(polls).toBe(1);

    await flush(2999);
    expect(polls).toBe(1);
    await flush(1);
    expect(polls).toBe(2);
    await flush(3000);
    expect(polls).toBe(3);
    expect(screen.getByText("Завершено")).toBeTruthy();

    // Finished: no more polling.
    await flush(9000);
    expect(polls).toBe(3);
    expect(confetti).toHaveBeenCalledWith({ particleCount: 100, spread: 70 });
    // Not in a worker: the CSP allows no blob: workers.
    expect(createCannon).toHaveBeenCalledWith(undefined, expect.objectContaining({ useWorker: false }));
    expect(readFailedFiles()).toEqual([]);
    // The list stays on screen for this visit.
    expect(screen.getByText("NoSeparator.mp3")).toBeTruthy();
  });

  it("waits 300 ms for the confetti and 5 s before clearing the failed files", async () => {
    vi.useFakeTimers();
    localStorage.setItem("failedFiles", JSON.stringify([{ filename: "x.mp3", error: "Неверный формат имени файла" }]));
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/track_ids": () => ({ track_ids: [1] }),
        "/api/status/1": () => ({ status: "completed", error: null, track_data: { filename: "A - 1.mp3" } }),
      }),
    );
    renderPage("/processing", ProcessingPage);
    await flush();
    expect(confetti).not.toHaveBeenCalled();
    await flush(300);
    expect(confetti).toHaveBeenCalledTimes(1);
    expect(readFailedFiles()).toHaveLength(1);
    await flush(4700);
    expect(readFailedFiles()).toHaveLength(0);
  });

  it("marks a track failed when its status check fails, and fires no confetti", async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/track_ids": () => ({ track_ids: [1, 2] }),
        "/api/status/1": () => ({ status: "completed", error: null, track_data: { filename: "A - 1.mp3" } }),
        "/api/status/2": () => Response.json({ success: false, error: "Трек не найден" }, { status: 404 }),
      }),
    );
    renderPage("/processing", ProcessingPage);
    await flush();
    expect(screen.getByText("Ошибка")).toBeTruthy();
    expect(screen.getByText(/Ошибка проверки статуса трека: Трек не найден/)).toBeTruthy();
    await flush(1000);
    expect(confetti).not.toHaveBeenCalled();
  });

  it("reads Ожидание before the first answer and shows a failed track's reason", async () => {
    vi.useFakeTimers();
    let answer: unknown = { status: null };
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/track_ids": () => ({ track_ids: [3] }),
        "/api/status/3": () => answer,
      }),
    );
    renderPage("/processing", ProcessingPage);
    await flush();
    expect(screen.getByText("Ожидание")).toBeTruthy();
    answer = { status: "failed", error: "Файл не является MP3", track_data: { filename: "Wave - W.mp3" } };
    await flush(3000);
    expect(screen.getByText("Ошибка")).toBeTruthy();
    expect(screen.getByText(/Файл не является MP3/)).toBeTruthy();
  });

  it("says so when the batch cannot be loaded", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/track_ids": () => Response.json({ success: false, error: "x" }, { status: 500 }),
      }),
    );
    renderPage("/processing", ProcessingPage);
    expect(await screen.findByText("Не удалось получить информацию о треках. Пожалуйста, попробуйте позже."))
      .toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissFlash, flash, FLASH_FADE_MS, FLASH_VISIBLE_MS, useFlashes } from "./flash.ts";
import { act, renderHook } from "@testing-library/react";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("flash messages", () => {
  it("are shown for 6 s, then fade, and are removed 0.5 s later", () => {
    expect(FLASH_VISIBLE_MS).toBe(6000);
    expect(FLASH_FADE_MS).toBe(500);
    const { result } = renderHook(() => useFlashes());
    let id = 0;
    act(() => {
      id = flash("success", "Профиль успешно обновлен");
    });
    expect(result.current.find((m) => m.id === id)).toMatchObject({ kind: "success", leaving: false });
    act(() => vi.advanceTimersByTime(5999));
    expect(result.current.find((m) => m.id === id)?.leaving).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.find((m) => m.id === id)?.leaving).toBe(true);
    act(() => vi.advanceTimersByTime(499));
    expect(result.current.find((m) => m.id === id)).toBeDefined();
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.find((m) => m.id === id)).toBeUndefined();
  });

  it("maps danger to error and can be closed early", () => {
    const { result } = renderHook(() => useFlashes());
    let id = 0;
    act(() => {
      id = flash("danger", "Ошибка");
    });
    expect(result.current.find((m) => m.id === id)?.kind).toBe("error");
    act(() => dismissFlash(id));
    expect(result.current.find((m) => m.id === id)).toBeUndefined();
    // The timers of a closed message do nothing harmful later.
    act(() => vi.advanceTimersByTime(7000));
    expect(result.current).toEqual([]);
  });
});

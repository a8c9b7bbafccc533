// @vitest-environment happy-dom
import { act, cleanup, screen } from "@testing-library/react";
import { settle } from "../../components/testing/session-hooks.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { UploadPage } from "./upload-page.tsx";
import { LOGIN_BANNER_MS, UPLOAD_TEXTS } from "./upload-rules.ts";

beforeEach(() => {
  localStorage.clear();
  auth.clear();
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({
        success: true,
        user: { id: 7, username: "artist", is_admin: false, is_moderator: false },
      }),
      "/api/slider": () => ({ success: true, sliders: [] }),
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  auth.clear();
  localStorage.clear();
});

describe("upload page: sign-in by address", () => {
  it("shows «Авторизация успешно завершена!» for 3 seconds, cleans the address and keeps the tokens", async () => {
    // Only timeouts are faked: the fetch stand-in's answers still arrive, but no time passes unasked.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { router } = renderPage("/?access_token=acc&refresh_token=ref", UploadPage, { routePath: "/" });
    for (let i = 0; i < 50 && !screen.queryByText(UPLOAD_TEXTS.signedIn); i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
    }
    expect(screen.queryByText(UPLOAD_TEXTS.signedIn)).not.toBeNull();
    // The address is cleaned at once (a re-render the banner must survive).
    for (let i = 0; i < 50 && Object.keys(router.state.location.search).length > 0; i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
    }
    expect(router.state.location.search).toEqual({});
    expect(localStorage.getItem("accessToken")).toBe("acc");
    expect(localStorage.getItem("refreshToken")).toBe("ref");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOGIN_BANNER_MS - 200);
    });
    expect(screen.queryByText(UPLOAD_TEXTS.signedIn)).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(screen.queryByText(UPLOAD_TEXTS.signedIn)).toBeNull();
    expect(LOGIN_BANNER_MS).toBe(3000);
  });
});

describe("upload page: a paused direction (issue 25)", () => {
  it("disables the paused direction's checkbox and shows its pause message from GET /api/config", async () => {
    localStorage.setItem("accessToken", "acc");
    localStorage.setItem("refreshToken", "ref");
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => ({
          success: true,
          user: { id: 7, username: "artist", is_admin: false, is_moderator: false },
        }),
        "/api/slider": () => ({ success: true, sliders: [] }),
        "/api/config": () => ({
          success: true,
          maintenance: false,
          intake: {
            label_neuropunk: { open: true, pause_message: null },
            podcast_neuropunk: { open: true, pause_message: null },
            label_koster: { open: true, pause_message: null },
            podcast_koster: { open: true, pause_message: null },
            show_neurogon: { open: false, pause_message: "Шоу на паузе до весны" },
            radio_k_profit: { open: true, pause_message: null },
          },
        }),
      }),
    );
    renderPage("/", UploadPage, { routePath: "/" });
    await settle(10);
    const show = screen.getByRole("checkbox", { name: "Шоу Нейрогон" }) as HTMLInputElement;
    expect(show.disabled).toBe(true);
    expect(screen.getByText("Шоу на паузе до весны").id).toBe(show.getAttribute("aria-describedby"));
    expect((screen.getByRole("checkbox", { name: "Радио Профита" }) as HTMLInputElement).disabled).toBe(false);
  });
});

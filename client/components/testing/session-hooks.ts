import { act, cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

/**
 * Signed-in page tests: tokens are present before each test (so the API client sends them and the guards
 * let the page render); after it the DOM, stubbed globals, fake timers and storage are reset so
 * tests do not leak into each other. Call once at the top level of a test file.
 */
export function useSignedInTestSession() {
  beforeEach(() => {
    localStorage.setItem("accessToken", "a");
    localStorage.setItem("refreshToken", "r");
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    localStorage.clear();
  });
}

/** Lets `rounds` turns of the event loop pass inside act, so faked fetches and the updates they cause settle. */
export async function settle(rounds = 5) {
  for (let i = 0; i < rounds; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  }
}

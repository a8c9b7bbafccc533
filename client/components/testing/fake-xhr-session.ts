import { act, cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { FakeXhr } from "../../../server/testing/fake-xhr.ts";

/**
 * Upload tests over the XHR stand-in (server/testing/fake-xhr.ts): before each test storage is
 * cleared (with an access token when `signedIn`), `serve` sets the answers and XMLHttpRequest is
 * stubbed; after it the DOM, fake timers and stubbed globals are reset. Call once at the top level.
 */
export function useFakeXhrSession(serve: () => void, { signedIn = false } = {}) {
  beforeEach(() => {
    localStorage.clear();
    if (signedIn) localStorage.setItem("accessToken", "acc");
    serve();
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/** Lets the chain of fake answers (each a microtask away) run to its end inside act. */
export function settleXhr(turns = 80): Promise<void> {
  return act(async () => {
    for (let i = 0; i < turns; i++) await Promise.resolve();
  });
}

// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listenQuery } from "./playable.ts";
import type { ReviewPlayer } from "./use-review-player.ts";
import { useVersionAB } from "./use-version-ab.ts";

/**
 * Issue 37's side by side (decision 0406): B switches between a new version and the one it
 * replaces, one of them sounding at a time, whatever lands between a press and React's render.
 */

const TRACKS_KEY = ["admin", "tracks"] as const;

function setUp() {
  // The previous version's own record is read again on mount; its answer never matters here.
  vi.stubGlobal("fetch", () => new Promise<Response>(() => {}));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(listenQuery("/admin", TRACKS_KEY, 1).queryKey, {
    stream_url: "/api/listen/previous",
    peaks: [],
    duration_s: 60,
  });
  client.setQueryData([...TRACKS_KEY, "one", 1], { id: 1, analysis: { loudness_lufs: -9 } } as never);
  const main = document.createElement("audio");
  main.src = "/api/listen/current";
  const player = {
    current: { id: 2, version_of: 1, analysis: { loudness_lufs: -8 } },
    audio: main,
  } as unknown as ReviewPlayer;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useVersionAB({ base: "/admin", tracksKey: TRACKS_KEY, player }), { wrapper });
  return { main, hook };
}

const otherAudio = () => document.querySelector<HTMLAudioElement>("audio[data-version-ab]")!;

afterEach(() => {
  vi.unstubAllGlobals();
  document.querySelectorAll("audio[data-version-ab]").forEach((a) => a.remove());
});

describe("version A/B", () => {
  it("B plays the previous version; the player's play before the next render stops it again", () => {
    const { main, hook } = setUp();
    expect(hook.result.current.ready).toBe(true);
    act(() => {
      hook.result.current.toggle();
      const other = otherAudio();
      other.dispatchEvent(new Event("loadedmetadata"));
      expect(other.paused).toBe(false);
      // Space or Play on the player, handled before React renders the side B chose.
      main.dispatchEvent(new Event("play"));
      expect(other.paused).toBe(true);
    });
    expect(hook.result.current.side).toBe("current");
  });

  it("B twice before the previous version could start: it never starts", () => {
    const { hook } = setUp();
    act(() => {
      hook.result.current.toggle();
      hook.result.current.toggle();
    });
    act(() => {
      otherAudio().dispatchEvent(new Event("loadedmetadata"));
    });
    expect(otherAudio().paused).toBe(true);
    expect(hook.result.current.side).toBe("current");
  });
});

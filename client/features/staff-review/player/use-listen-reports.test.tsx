// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { REPORT_EVERY_S, useListenReports } from "./use-listen-reports.ts";

/**
 * Issue 20: the player reports the time the `<audio>` really played. A skip after 0.3 s reports
 * 0.3 s; seeks count nothing; a long play is reported every few seconds and on pause; every report
 * carries the bearer token and outlives the page (`keepalive`).
 */

/** Just what the hook reads of an `<audio>` element, moved by hand like a browser plays it. */
class FakeAudio extends EventTarget {
  currentTime = 0;
  paused = true;
  seeking = false;
  playbackRate = 1;
  play(at = this.currentTime) {
    this.currentTime = at;
    this.paused = false;
    this.dispatchEvent(new Event("playing"));
  }
  /** Plays on to `to`, a `timeupdate` every quarter second as browsers fire it. */
  advance(to: number) {
    while (this.currentTime < to - 1e-9) {
      this.currentTime = Math.min(to, this.currentTime + 0.25);
      this.dispatchEvent(new Event("timeupdate"));
    }
  }
  seek(to: number) {
    this.seeking = true;
    this.currentTime = to;
    this.dispatchEvent(new Event("seeking"));
    this.dispatchEvent(new Event("timeupdate"));
    this.seeking = false;
    this.dispatchEvent(new Event("seeked"));
  }
  pause() {
    this.paused = true;
    this.dispatchEvent(new Event("pause"));
  }
}

useSignedInTestSession();

function setup() {
  const sent: { id: number; seconds: number; auth: string | null; keepalive: boolean | undefined }[] = [];
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    const m = /^\/api\/admin\/tracks\/(\d+)\/listened$/.exec(url.pathname);
    if (!m || init.method !== "POST") {
      return Promise.resolve(Response.json({ success: false, error: "Не найдено" }, { status: 404 }));
    }
    const { seconds } = JSON.parse(String(init.body));
    sent.push({
      id: Number(m[1]),
      seconds,
      auth: new Headers(init.headers).get("Authorization"),
      keepalive: init.keepalive,
    });
    return Promise.resolve(
      Response.json({ success: true, heard_s: seconds, duration_s: 200, heard: false, decisions: [] }),
    );
  });
  const audio = new FakeAudio();
  const queryClient = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(
    () =>
      useListenReports(audio as unknown as HTMLAudioElement, {
        current: () => ({ base: "/admin", tracksKey: ["admin", "tracks"] }),
      }),
    { wrapper },
  );
  const seconds = () => sent.map((s) => Math.round(s.seconds * 100) / 100);
  return { audio, sent, seconds, hook };
}

describe("listening reports", () => {
  it("a skip after 0.3 s reports 0.3 s, with the bearer token and keepalive", async () => {
    const { audio, sent, seconds, hook } = setup();
    hook.result.current.follow(1);
    audio.play(0);
    audio.advance(0.3);
    // J: the next track loads.
    hook.result.current.leave();
    await settle();
    expect(seconds()).toEqual([0.3]);
    expect(sent[0]).toMatchObject({ id: 1, auth: "Bearer a", keepalive: true });
  });

  it("counts no seek, and reports every few seconds of playing and on pause", async () => {
    const { audio, seconds, hook } = setup();
    hook.result.current.follow(2);
    audio.play(0);
    audio.advance(3);
    audio.seek(150); // a click on the waveform
    audio.advance(151);
    audio.seek(146); // ← five seconds back
    audio.advance(146.75);
    await settle();
    // 3 + 1 + 0.75 seconds played: not yet a report, whatever the position says.
    expect(seconds()).toEqual([]);
    audio.advance(147);
    await settle();
    expect(seconds()).toEqual([REPORT_EVERY_S]);
    audio.advance(149.5);
    audio.pause();
    await settle();
    expect(seconds()).toEqual([REPORT_EVERY_S, 2.5]);
    // Paused, nothing more goes; playing on counts from where it stopped.
    audio.dispatchEvent(new Event("timeupdate"));
    audio.play();
    audio.advance(150);
    hook.unmount();
    await settle();
    expect(seconds()).toEqual([REPORT_EVERY_S, 2.5, 0.5]);
  });

  it("reports nothing for a track that was loaded and never played", async () => {
    const { audio, sent, hook } = setup();
    hook.result.current.follow(3);
    audio.dispatchEvent(new Event("emptied"));
    hook.result.current.leave();
    await settle();
    expect(sent).toEqual([]);
  });
});

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UploadForm } from "./upload-form.tsx";

// The preview players of the upload page (spec 1 §2): only one plays at a time, and a preview that
// ends goes back to the start.

function addFiles(names: string[]) {
  const input = screen.getByTestId("file-input") as HTMLInputElement;
  const files = names.map((n) => new File([new Uint8Array(100)], n, { type: "audio/mpeg" }));
  Object.defineProperty(input, "files", { value: files, configurable: true });
  fireEvent.change(input);
}

/** Clicks, then lets React run the effect that calls play()/pause() and flush its updates. */
function click(name: string) {
  return act(() => {
    fireEvent.click(screen.getByRole("button", { name }));
    return Promise.resolve();
  });
}

let playing: Set<HTMLMediaElement>;
beforeEach(() => {
  playing = new Set();
  // happy-dom has no media pipeline: play/pause only record which element sounds.
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(function (this: HTMLMediaElement) {
    playing.add(this);
    Object.defineProperty(this, "paused", { value: false, configurable: true });
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(function (this: HTMLMediaElement) {
    playing.delete(this);
    Object.defineProperty(this, "paused", { value: true, configurable: true });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("mini player", () => {
  it("plays one preview at a time", async () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles(["A - One.mp3", "B - Two.mp3"]);
    await click("Слушать: A - One.mp3");
    expect(playing.size).toBe(1);
    const first = [...playing][0];
    await click("Слушать: B - Two.mp3");
    expect(playing.size).toBe(1);
    expect(playing.has(first)).toBe(false);
    expect(screen.getByRole("button", { name: "Пауза: B - Two.mp3" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("button", { name: "Слушать: A - One.mp3" }).getAttribute("aria-pressed")).toBe("false");
  });

  it("pauses on a second click and resets to the start when a preview ends", async () => {
    render(<UploadForm signedIn onNavigate={() => {}} />);
    addFiles(["A - One.mp3"]);
    await click("Слушать: A - One.mp3");
    await click("Пауза: A - One.mp3");
    expect(playing.size).toBe(0);

    await click("Слушать: A - One.mp3");
    const audio = [...playing][0];
    audio.currentTime = 5;
    await act(() => {
      fireEvent(audio, new Event("ended"));
      return Promise.resolve();
    });
    expect(audio.currentTime).toBe(0);
    expect(screen.getByRole("button", { name: "Слушать: A - One.mp3" }).getAttribute("aria-pressed")).toBe("false");
  });
});

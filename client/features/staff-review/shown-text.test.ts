// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../../components/testing/render-page.tsx";
import { client, isStaffAnswer, read } from "../../lib/api.ts";
import { withHiddenCharsShown } from "./shown-text.ts";
// The app's wiring: the router hands this module to the API client (decision 0432).
import "../../router.tsx";

afterEach(() => vi.unstubAllGlobals());

/** A comment stored before the rule: an override, a tag sentence, ESC, and two lines. */
const STORED = "Хорошо\u202eтрек\u{E0069}\u{E0067}\x1b[31m\nвторая строка 👨\u200d👩\u200d👧";
const SHOWN = "Хорошо<U+202E>трек<U+E0069><U+E0067><U+001B>[31m\nвторая строка 👨\u200d👩\u200d👧";

describe("what staff are shown of stored text (decision 0305)", () => {
  it("writes hidden characters out in every string of the panels' answers, keeping line breaks and emoji", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/admin/tracks/7": () => ({
          success: true,
          track: { id: 7, filename: "A\u200b - B.mp3", comments: [{ text: STORED, at_s: 1 }], peaks: [0.5] },
        }),
        "/api/moderator/tracks/7": () => ({ success: true, track: { votes: [{ word: "ок\u3164" }] } }),
      }),
    );
    const admin = await read(client.admin.tracks[":id"].$get({ param: { id: "7" } })) as unknown as {
      track: { filename: string; comments: { text: string; at_s: number }[]; peaks: number[] };
    };
    expect(admin.track.filename).toBe("A<U+200B> - B.mp3");
    expect(admin.track.comments).toEqual([{ text: SHOWN, at_s: 1 }]);
    expect(admin.track.peaks).toEqual([0.5]);
    const moderator = await read(client.moderator.tracks[":id"].$get({ param: { id: "7" } })) as unknown as {
      track: { votes: { word: string }[] };
    };
    expect(moderator.track.votes[0].word).toBe("ок<U+3164>");
  });

  it("leaves other answers and clean ones as they are", () => {
    expect(isStaffAnswer("/api/admin/users")).toBe(true);
    expect(isStaffAnswer("http://localhost/api/moderator/tracks?page=1")).toBe(true);
    // The upload page matches refused files by their raw names (decision 0205).
    expect(isStaffAnswer("/api/upload")).toBe(false);
    expect(isStaffAnswer("/api/tracks")).toBe(false);
    const clean = { a: ["x", { b: "y" }], n: 1 };
    expect(withHiddenCharsShown(clean)).toBe(clean);
    const mixed = { a: ["x", { b: "y\u200f" }], n: 1 };
    expect(withHiddenCharsShown(mixed)).toEqual({ a: ["x", { b: "y<U+200F>" }], n: 1 });
    expect(mixed.a[1]).toEqual({ b: "y\u200f" });
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { ProfilePage } from "./profile-page.tsx";

/**
 * The artist's history with the label's shared comments (issue 24, decision 0232): a track with
 * comments shows its waveform with a marker per comment, the text signed «Команда лейбла», and a
 * player of the artist's own file through their own listening link; a marker plays from its moment.
 * A track without comments asks for no link.
 */

const user = {
  id: 1,
  username: "artist",
  email: null,
  first_name: "Иван",
  last_name: null,
  avatar: null,
  city: null,
  birth_date: null,
  bio: null,
  favorite_dnb_genre: null,
  vk_id: "12345",
  telegram_id: null,
  phone_number: null,
  is_admin: false,
  is_moderator: false,
  moderator_categories: "",
  is_banned: false,
  ban_reason: null,
};

const item = (id: number, comments: unknown[]) => ({
  id,
  filename: `A - Track ${id}.mp3`,
  upload_date: "2025-04-20T10:00:00.000Z",
  downloaded: false,
  status: "completed",
  error: null,
  directions: ["label_koster"],
  decisions: [],
  analysis: { duration_s: 100, bitrate_kbps: 320, warnings: [] },
  comments,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("shared comments in the artist's history", () => {
  it("shows the waveform's markers and the comments signed by the label; a marker plays from there", async () => {
    localStorage.clear();
    vi.stubGlobal("requestAnimationFrame", () => 0);
    const fetch = fakeFetch({
      "/api/auth/me": () => ({ success: true, user }),
      "/api/tracks": () => ({ success: true, tracks: [] }),
      "/api/tracks/history": () => ({
        success: true,
        tracks: [item(2, [{ at_s: 20, end_s: null, text: "Здесь бас расходится с бочкой" }]), item(3, [])],
        total: 2,
        page: 1,
        pages: 1,
        page_size: 20,
      }),
      "/api/tracks/2/listen": () => ({
        success: true,
        stream_url: "/api/listen/own-2",
        expires_in: 1800,
        peaks: [[-0.5, 0.5], [-0.2, 0.3]],
        duration_s: 100,
      }),
    });
    vi.stubGlobal("fetch", fetch);
    auth.setTokens("a", "r");
    await auth.loadUser();
    renderPage("/profile", ProfilePage);
    const players = await screen.findAllByTestId("comment-player");
    expect(players).toHaveLength(1);
    const [withComments, without] = await screen.findAllByTestId("my-track");
    expect(withComments.contains(players[0])).toBe(true);
    expect(without.querySelector("[data-testid=comment-player]")).toBeNull();
    await vi.waitFor(() => expect(document.querySelector("audio")?.getAttribute("src")).toBe("/api/listen/own-2"));
    expect(fetch.calls).not.toContain("/api/tracks/3/listen");

    const markers = [...players[0].querySelectorAll<HTMLButtonElement>(".comment-marker")];
    expect(markers.map((m) => m.style.left)).toEqual(["20%"]);
    const comment = screen.getByTestId("shared-comment");
    expect(comment.textContent).toContain("Здесь бас расходится с бочкой");
    expect(comment.textContent).toContain("Команда лейбла");

    const audio = document.querySelector("audio")!;
    const play = vi.spyOn(audio, "play").mockResolvedValue(undefined);
    fireEvent.click(screen.getByRole("button", { name: "Комментарий на 0:20: Здесь бас расходится с бочкой" }));
    expect(audio.currentTime).toBe(20);
    expect(play).toHaveBeenCalled();
    audio.currentTime = 0;
    fireEvent.click(screen.getByRole("button", { name: "Слушать с 0:20" }));
    expect(audio.currentTime).toBe(20);
  });
});

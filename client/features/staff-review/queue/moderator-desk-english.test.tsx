// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { MODERATOR_CATEGORY_LABELS } from "../../../../domain/staff-directions.ts";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { auth } from "../../../lib/auth.ts";
import { ModeratorTracksPage } from "./moderator-tracks-page.tsx";

/**
 * Issue 31: the desk on the moderator's list speaks English — the dock, its legend, the chooser and
 * the refusal of a decision — while the track's name and the templates (user content) and the
 * direction names stay as written. The e2e moderator-english.e2e.ts walks the real screens.
 */

const moderator = {
  id: 9,
  username: "moder",
  is_admin: false,
  is_moderator: true,
  moderator_categories: "label_koster,podcast_koster",
  is_banned: false,
};

const decision = (direction: string) => ({
  direction,
  status: "new",
  note: null,
  message: null,
  decided_by: null,
  decided_at: null,
  revision: 0,
  overdue: true,
});

const track = (id: number) => ({
  id,
  filename: `Артист - Трек ${id}.mp3`,
  user_id: 5,
  guest_username: null,
  user_info: { id: 5, username: "artist", name: "Артист" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster,podcast_koster",
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: null,
  decisions: [decision("label_koster"), decision("podcast_koster")],
  waiting_days: 20,
  overdue: true,
  duplicate_of: null,
  ai_use: "partly",
});

const TEMPLATES = [{ id: 21, title: "Не подходит по стилю", text: "Спасибо, {artist}", outcome: "declined" }];

useSignedInTestSession();

/** The text and names of `root` with Cyrillic once user content and direction names are out. */
function cyrillicIn(root: Element): string[] {
  const clone = root.cloneNode(true) as Element;
  clone.querySelectorAll("[data-user-content]").forEach((e) => e.remove());
  const strip = (s: string) =>
    // User content, longest first: the file names, then the uploader's name.
    [...[1, 2].map((i) => `Артист - Трек ${i}.mp3`), ...Object.values(MODERATOR_CATEGORY_LABELS), "Артист"]
      .reduce((rest, name) => rest.split(name).join(""), s);
  const found = [clone.textContent ?? ""];
  for (const el of clone.querySelectorAll("*")) {
    for (const a of ["aria-label", "title", "placeholder"]) found.push(el.getAttribute(a) ?? "");
  }
  return found.map(strip).filter((s) => /[\u0400-\u04FF]/.test(s));
}

async function show() {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  const fetch = fakeFetch({
    "/api/auth/me": () => ({ success: true, user: moderator }),
    "/api/moderator/status": () => ({
      success: true,
      status: { is_moderator: true, categories: ["label_koster", "podcast_koster"] },
    }),
    "/api/moderator/tracks": () => ({
      success: true,
      tracks: [track(1), track(2)],
      total: 2,
      filtered: 2,
      page: 1,
      pages: 1,
      page_size: 10,
    }),
    "/api/moderator/decline-templates": () => ({ success: true, templates: TEMPLATES }),
    ...Object.fromEntries([1, 2].flatMap((id) => [
      [`/api/moderator/tracks/${id}/listen`, () => ({
        success: true,
        stream_url: `/api/listen/t${id}`,
        peaks: null,
        duration_s: 200,
      })],
      [`/api/moderator/tracks/${id}`, () => ({
        success: true,
        track: { ...track(id), comments: [], votes: [], vote_summary: [], listens: [], decision_history: [] },
      })],
    ])),
    // A decision refused with one of the server's own (Russian) texts.
    "/api/moderator/tracks/1/decision": () =>
      Response.json({ success: false, error: "Отменить нельзя: артисту уже сообщили о решении" }, { status: 409 }),
  });
  vi.stubGlobal("fetch", fetch);
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  await act(() => auth.loadUser());
  renderPage("/moderator/tracks", ModeratorTracksPage);
  await settle();
  return fetch;
}

describe("the moderator's desk in English (issue 31)", () => {
  it("says the dock, the legend, the chooser and a refusal in English; names and templates stay as written", async () => {
    await show();
    const list = document.querySelector("main") ?? document.body;
    expect(cyrillicIn(list)).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Play: Артист - Трек 1.mp3" }));
    await settle();
    const dock = screen.getByTestId("decision-dock");
    for (const name of ["Accept", "Shortlist", "Decline"]) {
      expect(within(dock).getByRole("button", { name })).toBeTruthy();
    }
    fireEvent.click(within(dock).getByRole("button", { name: "Keys" }));
    expect(screen.getByRole("region", { name: "Keys" }).textContent).toContain("pause / resume");
    fireEvent.click(within(dock).getByRole("button", { name: "Decline" }));
    await settle();
    const chooser = screen.getByRole("group", { name: "Decline: ready-made message" });
    expect(chooser.textContent).toContain("Не подходит по стилю");
    expect(chooser.textContent).toContain("Спасибо, Артист");
    expect(cyrillicIn(dock)).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: /^Without a ready-made message/ }));
    await settle();
    expect(dock.querySelector("[role=alert]")?.textContent).toBe(
      "“Артист - Трек 1.mp3”: Too late to undo: the artist has been told",
    );
    expect(cyrillicIn(document.querySelector("main") ?? document.body)).toEqual([]);
  });
});

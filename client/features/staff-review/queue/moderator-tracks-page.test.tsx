// @vitest-environment happy-dom
import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { ApiError } from "../../../lib/api.ts";
import { auth } from "../../../lib/auth.ts";
import { categoryNames, normalizeCategories, statusFromUser } from "../../../lib/moderator-categories.ts";
import { describeLoadError, NO_RESPONSE_TEXT } from "../api/track-errors.ts";
import { ModeratorTracksPage } from "./moderator-tracks-page.tsx";

const moderator = {
  id: 9,
  username: "moder",
  is_admin: false,
  is_moderator: true,
  moderator_categories: "label_koster,podcast_koster",
  is_banned: false,
};
const admin = { ...moderator, id: 1, username: "boss", is_admin: true, is_moderator: false, moderator_categories: "" };

const track = (id: number) => ({
  id,
  filename: `Artist - Track ${id}.mp3`,
  user_id: null,
  guest_username: null,
  user_info: null,
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster",
  downloaded: id % 2 === 0,
});

const listOf = (n: number, page = 1) => ({
  success: true,
  tracks: Array.from({ length: Math.min(10, n - (page - 1) * 10) }, (_, i) => track((page - 1) * 10 + i + 1)),
  total: n,
  filtered: n,
  page,
  pages: Math.max(1, Math.ceil(n / 10)),
  page_size: 10,
});

useSignedInTestSession();

async function show(user: Record<string, unknown>, routes: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch({
    "/api/auth/me": () => ({ success: true, user }),
    "/api/moderator/status": () => ({
      success: true,
      status: { is_moderator: true, categories: user.is_admin ? "*" : ["label_koster", "podcast_koster"] },
    }),
    ...routes,
  });
  vi.stubGlobal("fetch", fetch);
  await act(() => auth.loadUser());
  renderPage("/moderator/tracks", ModeratorTracksPage);
  await settle();
  return fetch;
}

describe("categories", () => {
  it('reads "*", lists and comma strings; falls back to the user\'s own flags', () => {
    expect(normalizeCategories("*")).toBe("*");
    expect(normalizeCategories(["*"])).toBe("*");
    expect(normalizeCategories(["podcast_koster", "label_koster", "bogus"])).toEqual([
      "label_koster",
      "podcast_koster",
    ]);
    expect(normalizeCategories("label_koster, show_neurogon")).toEqual(["label_koster", "show_neurogon"]);
    expect(normalizeCategories(undefined)).toEqual([]);
    expect(statusFromUser(admin as never)).toEqual({ is_moderator: true, categories: "*" });
    expect(statusFromUser(moderator as never)).toEqual({
      is_moderator: true,
      categories: ["label_koster", "podcast_koster"],
    });
    expect(statusFromUser({ ...moderator, is_moderator: false } as never)).toEqual({
      is_moderator: false,
      categories: [],
    });
    expect(categoryNames(["label_koster", "podcast_koster"])).toEqual(["Костёр Звукозапись", "Костёр подкаст"]);
    expect(categoryNames("*")).toEqual(["All Categories"]);
  });
});

describe("describeLoadError", () => {
  it("titles the error block by kind and shows status code, text and the server's error", () => {
    expect(describeLoadError(new ApiError(0, "No response from server"))).toEqual({
      kind: "generic",
      title: "Error Loading Tracks",
      message: NO_RESPONSE_TEXT,
    });
    expect(describeLoadError(new ApiError(403, "x", { error: "Доступ только для модераторов" }))).toEqual({
      kind: "access",
      title: "Access Error (403)",
      message: "Error 403: Forbidden",
      details: "Доступ только для модераторов",
    });
    expect(describeLoadError(new ApiError(500, "x", { error: "Внутренняя ошибка сервера" }))).toMatchObject({
      kind: "server",
      title: "Server Error (500)",
      message: "Error 500: Internal Server Error",
    });
    const db = describeLoadError(new ApiError(500, "x", { error: 'SQLITE_ERROR: near "FROM": syntax error' }));
    expect(db.kind).toBe("database");
    expect(db.title).toBe("Database Error");
    expect(db.message).toContain("problem with the database query");
    expect(describeLoadError(new ApiError(400, "x", { error: "Неизвестное направление" }))).toMatchObject({
      kind: "generic",
      title: "Error Loading Tracks",
      details: "Неизвестное направление",
    });
  });
});

describe("Manage Tracks", () => {
  it("shows the table, Download Selected disabled until a track is chosen, no pagination up to 10 tracks", async () => {
    await show(moderator, { "/api/moderator/tracks": () => listOf(10) });
    expect(screen.getByRole("heading", { level: 1, name: "Manage Tracks" })).toBeTruthy();
    expect(screen.getAllByRole("row")).toHaveLength(11);
    expect(screen.getAllByText("Unknown").length).toBe(10);
    expect(screen.getAllByText("Downloaded").length).toBeGreaterThan(0);
    expect(screen.getAllByText("Not downloaded").length).toBeGreaterThan(0);
    const bulk = screen.getByRole("button", { name: /^Download Selected/ }) as HTMLButtonElement;
    expect(bulk.disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "Select track Artist - Track 3.mp3" }));
    expect(bulk.disabled).toBe(false);
    expect(screen.queryByRole("navigation", { name: "Pages" })).toBeNull();
    // The direction filter offers only the moderator's categories.
    const options = [...(screen.getByLabelText("Direction") as HTMLSelectElement).options].map((o) => o.text);
    expect(options).toEqual(["All directions", "Костёр Звукозапись", "Костёр подкаст"]);
  });

  it("shows Previous/numbered/Next pagination past 10 tracks and asks for page 2", async () => {
    const fetch = await show(moderator, {
      "/api/moderator/tracks": (req) => listOf(11, Number(new URL(req.url).searchParams.get("page") ?? 1)),
    });
    const nav = screen.getByRole("navigation", { name: "Pages" });
    expect(nav.textContent).toContain("Previous");
    expect(nav.textContent).toContain("Next");
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await settle();
    expect(screen.getAllByRole("row")).toHaveLength(2);
    expect(fetch.calls.filter((c) => c === "/api/moderator/tracks").length).toBeGreaterThanOrEqual(2);
  });

  it("plays a track through the moderator's listen call, with English controls and warning texts", async () => {
    const analysed = {
      ...track(1),
      status: "completed",
      has_file: true,
      analysis: {
        duration_s: 95,
        bitrate_kbps: 256,
        bitrate_mode: "vbr",
        sample_rate_hz: 44100,
        channels: 2,
        loudness_lufs: -16.2,
        true_peak_dbtp: -1,
        clipped_samples: 0,
        bpm: null,
        drop_s: null,
        key: "A minor",
        camelot: "8A",
        warnings: ["low_bitrate", "too_quiet"],
      },
    };
    const fetch = await show(moderator, {
      "/api/moderator/tracks": () => ({ ...listOf(1), tracks: [analysed] }),
      "/api/moderator/tracks/1/listen": () => ({
        success: true,
        stream_url: "/api/listen/t1",
        peaks: null,
        duration_s: 95,
      }),
    });
    const options = [...(screen.getByLabelText("Warning") as HTMLSelectElement).options].map((o) => o.text);
    expect(options).toEqual([
      "All",
      "Any warning",
      "Bitrate below 320 kbps",
      "Clipping",
      "Quiet master (below −14 LUFS)",
      "Tempo outside drum and bass",
      "Tempo outside the direction's window (intake rules)",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Play: Artist - Track 1.mp3" }));
    await settle();
    expect(fetch.calls).toContain("/api/moderator/tracks/1/listen");
    expect(document.querySelector("audio")?.getAttribute("src")).toBe("/api/listen/t1");
    const report = screen.getByRole("region", { name: "Technical report" });
    expect(report.textContent).toContain("256 kbps VBR");
    expect(report.textContent).toContain("−16.2 LUFS");
    expect(report.textContent).toContain("KeyA minor · 8A");
    // The row: the key's Camelot code (its name read out), no drop.
    const row = document.querySelector("tr[data-track-id='1']")!;
    expect(row.querySelector("[data-figure=key]")?.textContent).toBe("8A, A minor");
    expect(row.querySelector("[data-figure=key] [title]")?.getAttribute("title")).toBe("A minor");
    expect(row.querySelector("[data-figure=drop]")?.textContent).toBe("—");
    expect(screen.getByRole("columnheader", { name: /^Musical key, Key/ })).toBeTruthy();
    expect([...report.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "Bitrate below 320 kbps",
      "Quiet master (below −14 LUFS)",
    ]);
    // No drop found: the button says so and stays disabled.
    expect((screen.getByRole("button", { name: "Jump to drop" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("an empty scope lists the available categories", async () => {
    await show(moderator, { "/api/moderator/tracks": () => listOf(0) });
    expect(screen.getByText("No tracks found for your moderation categories")).toBeTruthy();
    expect(screen.getByText("Available categories:")).toBeTruthy();
  });

  it("the error block has a title by kind, the details and a retry", async () => {
    let fail = true;
    await show(moderator, {
      "/api/moderator/tracks": () =>
        fail ? Response.json({ success: false, error: "Доступ только для модераторов" }, { status: 403 }) : listOf(1),
    });
    const block = screen.getByRole("alert");
    expect(block.querySelector("h2")?.textContent).toBe("Access Error (403)");
    expect(block.textContent).toContain("Error 403: Forbidden");
    expect(block.textContent).toContain("Доступ только для модераторов");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await settle();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("Artist - Track 1.mp3")).toBeTruthy();
  });

  it("an admin whose moderator call fails gets the admin tracks call instead", async () => {
    const fetch = await show(admin, {
      "/api/moderator/tracks": () => Response.json({ success: false, error: "Сбой" }, { status: 500 }),
      "/api/admin/tracks": () => listOf(2),
    });
    expect(fetch.calls).toContain("/api/admin/tracks");
    expect(screen.getByText("Artist - Track 2.mp3")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a plain moderator's failure is not retried through the admin call", async () => {
    const fetch = await show(moderator, {
      "/api/moderator/tracks": () => Response.json({ success: false, error: "Сбой" }, { status: 500 }),
      "/api/admin/tracks": () => listOf(2),
    });
    expect(fetch.calls).not.toContain("/api/admin/tracks");
    expect(screen.getByRole("alert").querySelector("h2")?.textContent).toBe("Server Error (500)");
  });

  it("Confirm Delete: the question, Deleting... while it runs, the failure text", async () => {
    let release: () => void = () => {};
    await show(moderator, {
      "/api/moderator/tracks": () => listOf(1),
      "/api/moderator/tracks/1": (req) =>
        req.method === "DELETE"
          ? new Promise<Response>((r) => (release = () => r(Response.json({}, { status: 500 }))))
          : {},
    });
    fireEvent.click(screen.getByRole("button", { name: "Delete: Artist - Track 1.mp3" }));
    const dialog = screen.getByRole("dialog", { name: "Confirm Delete" });
    expect(dialog.textContent).toContain('Are you sure you want to delete track "Artist - Track 1.mp3"?');
    expect(dialog.textContent).toContain("This action cannot be undone.");
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await settle();
    expect(screen.getByRole("button", { name: "Deleting..." })).toBeTruthy();
    release();
    await settle();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("alert").textContent).toBe("Failed to delete track");
  });
});

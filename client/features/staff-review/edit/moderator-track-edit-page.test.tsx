// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { auth } from "../../../lib/auth.ts";
import { DIRECTIONS_HELP, ModeratorTrackEditPage, trackEditChanged } from "./moderator-track-edit-page.tsx";

const track = {
  id: 5,
  filename: "Artist - Title.mp3",
  user_id: 3,
  guest_username: null,
  user_info: { id: 3, username: "artist", name: "Иван Петров" },
  upload_date: "2025-03-05T11:07:00.000Z",
  directions: "label_koster,show_neurogon",
  downloaded: false,
};

const me = {
  id: 9,
  username: "moder",
  is_admin: false,
  is_moderator: true,
  moderator_categories: "label_koster,podcast_koster",
  is_banned: false,
};

const box = (name: string) => screen.getByRole("checkbox", { name }) as HTMLInputElement;
const save = () => screen.getByRole("button", { name: "Save Changes" }) as HTMLButtonElement;

useSignedInTestSession();

async function setup(categories: unknown) {
  const puts: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user: me }),
      "/api/moderator/status": () => ({ success: true, status: { is_moderator: true, categories } }),
      "/api/moderator/tracks/5": async (req) => {
        if (req.method === "PUT") {
          const body = await req.json();
          puts.push(body);
          return { success: true, track: { ...track, ...body } };
        }
        return { success: true, track };
      },
    }),
  );
  await act(() => auth.loadUser());
  const view = renderPage("/moderator/tracks/5/edit", ModeratorTrackEditPage, {
    routePath: "/moderator/tracks/$id/edit",
  });
  await settle(4);
  return { puts, view };
}

describe("trackEditChanged", () => {
  it("is true only when the set of directions or the downloaded flag differs", () => {
    const a = { directions: ["label_koster", "show_neurogon"] as const, downloaded: false };
    expect(
      trackEditChanged({ ...a, directions: [...a.directions] }, {
        ...a,
        directions: ["show_neurogon", "label_koster"],
      }),
    ).toBe(false);
    expect(
      trackEditChanged({ ...a, directions: [...a.directions] }, { directions: ["label_koster"], downloaded: false }),
    ).toBe(true);
    expect(
      trackEditChanged({ ...a, directions: [...a.directions] }, { directions: [...a.directions], downloaded: true }),
    ).toBe(true);
  });
});

describe("moderator Edit Track", () => {
  it("shows the read-only details, with the upload date in the Russian format", async () => {
    await setup(["label_koster", "podcast_koster"]);
    expect(screen.getByTestId("track-filename").textContent).toBe("Artist - Title.mp3");
    expect(screen.getByText("Иван Петров")).toBeTruthy();
    const shown = new Intl.DateTimeFormat("ru-RU", {
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    })
      .format(new Date(track.upload_date));
    expect(shown).toMatch(/^05\.03\.2025/);
    expect(screen.getByText(shown)).toBeTruthy();
    // The track's own form has no text fields (the decision panel below has its own).
    expect(within(screen.getByTestId("track-filename").closest("form")!).queryByRole("textbox")).toBeNull();
  });

  it("disables the checkboxes outside the categories, with the help text", async () => {
    await setup(["label_koster", "podcast_koster"]);
    expect(box("Костёр Звукозапись").disabled).toBe(false);
    expect(box("Костёр Звукозапись").checked).toBe(true);
    expect(box("Костёр подкаст").disabled).toBe(false);
    // Outside the categories: locked whether checked or not.
    expect(box("Шоу Нейрогон").checked).toBe(true);
    expect(box("Шоу Нейрогон").disabled).toBe(true);
    expect(box("Bassland Show by Profit").disabled).toBe(true);
    expect(box("Neuropunk Records").disabled).toBe(true);
    expect(box("Neuropunk podcast").disabled).toBe(true);
    expect(screen.getByText(DIRECTIONS_HELP)).toBeTruthy();
  });

  it("enables Save Changes only when something changed, and sends directions and downloaded", async () => {
    const { puts, view } = await setup(["label_koster", "podcast_koster"]);
    expect(save().disabled).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: "Downloaded" }));
    expect(save().disabled).toBe(false);
    fireEvent.click(screen.getByRole("radio", { name: "Not downloaded" }));
    expect(save().disabled).toBe(true);
    fireEvent.click(box("Костёр подкаст"));
    expect(save().disabled).toBe(false);
    fireEvent.click(box("Костёр подкаст"));
    expect(save().disabled).toBe(true);

    fireEvent.click(box("Костёр подкаст"));
    fireEvent.click(screen.getByRole("radio", { name: "Downloaded" }));
    fireEvent.click(save());
    await settle(4);
    expect(puts).toEqual([{ directions: "label_koster,podcast_koster,show_neurogon", downloaded: true }]);
    expect(screen.getByText("Track updated successfully")).toBeTruthy();
    // Back to the list once the success message has been seen.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1600));
    });
    expect(view.router.state.location.pathname).toBe("/moderator/tracks");
  });

  it("keeps Save disabled when the last direction is cleared", async () => {
    await setup(["label_koster", "show_neurogon"]);
    fireEvent.click(box("Костёр Звукозапись"));
    fireEvent.click(box("Шоу Нейрогон"));
    expect(screen.getByText("Select at least one direction.")).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it("for *: every box is free except those the conflict table blocks, and no help text", async () => {
    await setup("*");
    expect(box("Bassland Show by Profit").disabled).toBe(false);
    expect(box("Костёр подкаст").disabled).toBe(false);
    expect(box("Шоу Нейрогон").disabled).toBe(false);
    // label_neuropunk conflicts with label_koster and show_neurogon, which the track has.
    expect(box("Neuropunk Records").disabled).toBe(true);
    expect(screen.queryByText(DIRECTIONS_HELP)).toBeNull();
  });

  it("shows the server's error when the save fails", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => ({ success: true, user: me }),
        "/api/moderator/status": () => ({
          success: true,
          status: { is_moderator: true, categories: ["label_koster"] },
        }),
        "/api/moderator/tracks/5": (req) =>
          req.method === "PUT"
            ? Response.json({ success: false, error: "У трека должно быть хотя бы одно направление" }, { status: 400 })
            : { success: true, track },
      }),
    );
    await act(() => auth.loadUser());
    renderPage("/moderator/tracks/5/edit", ModeratorTrackEditPage, { routePath: "/moderator/tracks/$id/edit" });
    await settle(4);
    fireEvent.click(screen.getByRole("radio", { name: "Downloaded" }));
    fireEvent.click(save());
    await settle(4);
    expect(screen.getByRole("alert").textContent).toBe("У трека должно быть хотя бы одно направление");
  });

  it("says so when the track cannot be loaded", async () => {
    vi.stubGlobal(
      "fetch",
      fakeFetch({
        "/api/auth/me": () => ({ success: true, user: me }),
        "/api/moderator/status": () => ({
          success: true,
          status: { is_moderator: true, categories: ["label_koster"] },
        }),
        "/api/moderator/tracks/5": () => Response.json({}, { status: 500 }),
      }),
    );
    await act(() => auth.loadUser());
    renderPage("/moderator/tracks/5/edit", ModeratorTrackEditPage, { routePath: "/moderator/tracks/$id/edit" });
    await settle(4);
    expect(screen.getByRole("alert").textContent).toBe("Failed to load track data");
  });
});

// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from "@testing-library/react";
import { environmentManager, focusManager } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../../components/testing/session-hooks.ts";
import { PHONE_QUERY } from "../../../components/ui/use-media-query.ts";
import { auth } from "../../../lib/auth.ts";
import { AdminTracksPage } from "../queue/admin-tracks-page.tsx";
import { PRESENCE_POLL_MS } from "./assignment-api.ts";
import { DeskAssignment, useQueueAssignment } from "./queue-assignment.tsx";
import { adminKeys, type StaffTrackRow } from "../../../lib/staff-queries.ts";

/**
 * Issue 24 in the admin queue (decisions 0233, 0234): each row's assignee and «Слушает @name», the
 * presence polled for the rows shown without reading the list again, the selection assigned to a
 * colleague whose categories cover it, a direction's new queue split evenly, and «Мне назначено».
 */

const me = { id: 1, username: "boss", is_admin: true, is_moderator: false, moderator_categories: "", is_banned: false };

const pair = (direction: string, status = "new") => ({
  direction,
  status,
  note: null,
  message: null,
  decided_by: null,
  decided_at: null,
  revision: 0,
});

const track = (id: number, directions: string, extra: Record<string, unknown> = {}) => ({
  id,
  filename: `Artist - Track ${id}.mp3`,
  user_id: null,
  guest_username: "guest",
  user_info: null,
  upload_date: "2025-03-05T11:07:00.000Z",
  directions,
  downloaded: false,
  status: "completed",
  size: 1000,
  duration: 200_000,
  has_file: true,
  analysis: null,
  decisions: directions.split(",").map((d) => pair(d)),
  waiting_days: 1,
  overdue: false,
  duplicate_of: null,
  assignee: null,
  ...extra,
});

const ROWS = [
  track(1, "label_koster", { assignee: { id: 7, name: "Вера" } }),
  track(2, "label_koster,show_neurogon"),
  track(3, "show_neurogon", { assignee: { id: 1, name: "boss" } }),
];

const STAFF = [
  { id: 1, username: "boss", name: "boss", directions: ["label_koster", "show_neurogon"] },
  { id: 7, username: "vera", name: "Вера", directions: ["label_koster"] },
  { id: 8, username: "gosha", name: "Гоша", directions: ["label_koster", "show_neurogon"] },
];

useSignedInTestSession();
afterEach(() => {
  focusManager.setFocused(undefined);
  environmentManager.setIsServer(() => typeof window === "undefined" || "Deno" in globalThis);
});

/** The API and the screen size, stubbed; the caller signed in. */
async function stub(phone = false) {
  vi.stubGlobal("requestAnimationFrame", () => 0);
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: phone && query === PHONE_QUERY,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
  }));
  const lists: URLSearchParams[] = [];
  const presenceIds: string[] = [];
  const writes: { path: string; body: unknown }[] = [];
  const fetch = fakeFetch({
    "/api/auth/me": () => ({ success: true, user: me }),
    "/api/admin/tracks": (req) => {
      lists.push(new URL(req.url).searchParams);
      return { success: true, tracks: ROWS, total: 3, filtered: 3, page: 1, pages: 1, page_size: 10 };
    },
    "/api/admin/tracks/assignable-staff": () => ({ success: true, staff: STAFF }),
    "/api/admin/tracks/presence": (req) => {
      presenceIds.push(new URL(req.url).searchParams.get("ids") ?? "");
      return {
        success: true,
        presence: [{ track_id: 2, user: { id: 8, username: "gosha", name: "Гоша" }, at: new Date().toISOString() }],
      };
    },
    "/api/admin/tracks/assignee": async (req) => {
      writes.push({ path: "/api/admin/tracks/assignee", body: await req.json() });
      return { success: true, assignee: { id: 8, name: "Гоша" }, tracks: 1 };
    },
    "/api/admin/tracks/2/assignee": async (req) => {
      writes.push({ path: "/api/admin/tracks/2/assignee", body: await req.json() });
      return { success: true, assignee: { id: 8, name: "Гоша" } };
    },
    "/api/admin/tracks/assign-split": async (req) => {
      writes.push({ path: "/api/admin/tracks/assign-split", body: await req.json() });
      return {
        success: true,
        direction: "label_koster",
        total: 5,
        assigned: [{ user: { id: 7, name: "Вера" }, count: 3 }, { user: { id: 8, name: "Гоша" }, count: 2 }],
      };
    },
  });
  vi.stubGlobal("fetch", fetch);
  await act(() => auth.loadUser());
  return { fetch, lists, presenceIds, writes };
}

async function show(path = "/admin/tracks", phone = false) {
  const stubs = await stub(phone);
  const page = renderPage(path, AdminTracksPage, { routePath: "/admin/tracks" });
  await settle(8);
  return { ...stubs, page };
}

const row = (id: number) => document.querySelector(`[data-track-id="${id}"]`) as HTMLElement;

describe("assignment and presence in the queue", () => {
  it("marks each row with its assignee and who else is listening; the presence is polled for the rows shown", async () => {
    // The poll's interval runs on a fake clock; everything else on the real one.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    // The poll pauses in a hidden tab; this one is the page in front. Under Deno the query library
    // takes itself for a server and schedules no interval: here it is a browser.
    focusManager.setFocused(true);
    environmentManager.setIsServer(() => false);
    const { presenceIds, lists } = await show();
    expect(within(row(1)).getByText("Назначен: Вера")).toBeTruthy();
    expect(within(row(3)).getByText("Назначен вам")).toBeTruthy();
    expect(within(row(2)).getByText("Слушает @gosha")).toBeTruthy();
    expect(within(row(1)).queryByText(/Слушает/)).toBeNull();
    expect(presenceIds).toEqual(["1,2,3"]);

    // The poll repeats on its own; the list is not read again for it.
    const listsBefore = lists.length;
    act(() => {
      vi.advanceTimersByTime(PRESENCE_POLL_MS + 100);
    });
    await settle();
    expect(presenceIds.length).toBeGreaterThanOrEqual(2);
    expect(lists.length).toBe(listsBefore);
  });

  it("phone cards carry the same marks", async () => {
    await show("/admin/tracks", true);
    expect(screen.getByTestId("track-cards")).toBeTruthy();
    expect(within(row(2)).getByText("Слушает @gosha")).toBeTruthy();
    expect(within(row(1)).getByText("Назначен: Вера")).toBeTruthy();
  });

  it("assigns the selection to a colleague whose categories cover every direction selected", async () => {
    const { writes } = await show();
    fireEvent.click(within(row(2)).getByRole("checkbox"));
    const select = screen.getByLabelText("Назначить выбранные") as HTMLSelectElement;
    const offered = [...select.options].map((o) => o.textContent);
    // Вера covers label_koster only; track 2 also goes to show_neurogon.
    expect(offered).toContain("Гоша (@gosha)");
    expect(offered).not.toContain("Вера (@vera)");
    fireEvent.change(select, { target: { value: "8" } });
    fireEvent.click(screen.getByRole("button", { name: "Назначить выбранные" }));
    await settle();
    expect(writes).toEqual([{ path: "/api/admin/tracks/assignee", body: { track_ids: [2], user_id: 8 } }]);
  });

  it("splits a direction's new queue among the colleagues chosen and shows each one's share", async () => {
    const { writes } = await show();
    fireEvent.click(screen.getByRole("button", { name: "Разделить новые" }));
    const dialog = screen.getByRole("dialog");
    fireEvent.click(within(dialog).getByLabelText("Вера (@vera)"));
    fireEvent.click(within(dialog).getByLabelText("Гоша (@gosha)"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Разделить поровну" }));
    await settle();
    expect(writes).toEqual([
      { path: "/api/admin/tracks/assign-split", body: { direction: "label_koster", user_ids: [7, 8] } },
    ]);
    expect(within(dialog).getByTestId("split-result").textContent).toContain("Вера — 3");
    expect(within(dialog).getByTestId("split-result").textContent).toContain("Гоша — 2");
  });

  it("«Мне назначено» is the list's assigned=me, kept in the address and shown as a filter", async () => {
    const { lists, page } = await show();
    fireEvent.click(screen.getByTestId("assigned-to-me"));
    await settle(8);
    expect(page.router.state.location.search).toMatchObject({ assigned: "me" });
    expect(lists.at(-1)?.get("assigned")).toBe("me");
    expect((screen.getByLabelText("Назначение") as HTMLSelectElement).value).toBe("me");
    expect(screen.getByTestId("assigned-to-me").getAttribute("aria-current")).toBe("page");
  });

  it("the desk shows the playing track's listener and assigns it from its menu", async () => {
    function Desk() {
      const work = useQueueAssignment({ base: "/admin", tracksKey: adminKeys.tracks, rows: ROWS as never });
      return <DeskAssignment work={work} track={ROWS[1] as unknown as StaffTrackRow} />;
    }
    const { writes } = await stub();
    renderPage("/desk", Desk);
    await settle(8);
    const desk = screen.getByTestId("desk-assignment");
    expect(within(desk).getByText("Слушает @gosha")).toBeTruthy();
    const select = within(desk).getByLabelText("Назначить") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).not.toContain("Вера (@vera)");
    fireEvent.change(select, { target: { value: "8" } });
    fireEvent.click(within(desk).getByRole("button", { name: "Назначить" }));
    await settle();
    expect(writes).toEqual([{ path: "/api/admin/tracks/2/assignee", body: { user_id: 8 } }]);
  });
});

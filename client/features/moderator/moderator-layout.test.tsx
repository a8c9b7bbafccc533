// @vitest-environment happy-dom
import { act, cleanup, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { settle, useSignedInTestSession } from "../../components/testing/session-hooks.ts";
import { auth } from "../../lib/auth.ts";
import { ModeratorLayout, STATUS_LOAD_ERROR } from "./moderator-layout.tsx";

const moderator = {
  id: 9,
  username: "moder",
  is_admin: false,
  is_moderator: true,
  moderator_categories: "label_koster",
  is_banned: false,
};

useSignedInTestSession();

async function show(user: Record<string, unknown>, status: () => unknown) {
  vi.stubGlobal(
    "fetch",
    fakeFetch({ "/api/auth/me": () => ({ success: true, user }), "/api/moderator/status": status }),
  );
  await act(() => auth.loadUser());
  const view = renderPage("/moderator", ModeratorLayout);
  await settle();
  return view;
}

describe("moderator layout", () => {
  it("has the sidebar and shows the category names from the status call", async () => {
    await show(
      moderator,
      () => ({ success: true, status: { is_moderator: true, categories: ["label_koster", "radio_k_profit"] } }),
    );
    for (const name of ["Dashboard", "Tracks", "FAQ", "← Back to Site"]) {
      expect(screen.getByRole("link", { name })).toBeTruthy();
    }
    expect(screen.getByRole("button", { name: "Logout" })).toBeTruthy();
    expect(screen.getByText("Костёр Звукозапись")).toBeTruthy();
    expect(screen.getByText("Bassland Show by Profit")).toBeTruthy();
    expect(screen.queryByText(STATUS_LOAD_ERROR)).toBeNull();
  });

  it("orders the sidebar as spec 2 gives it: Dashboard, Tracks, FAQ, Logout, Back to Site", async () => {
    await show(moderator, () => ({ success: true, status: { is_moderator: true, categories: ["label_koster"] } }));
    const items = [...screen.getByRole("complementary", { name: "Moderator" }).querySelectorAll("a, button")];
    expect(items.map((el) => el.textContent)).toEqual([
      "Dashboard",
      "Tracks",
      "FAQ",
      "Logout",
      "← Back to Site",
    ]);
  });

  it("shows All Categories for *, and No categories assigned for none", async () => {
    await show(moderator, () => ({ success: true, status: { is_moderator: true, categories: "*" } }));
    expect(screen.getByText("All Categories")).toBeTruthy();
    cleanup();
    await show(moderator, () => ({ success: true, status: { is_moderator: true, categories: [] } }));
    expect(screen.getByText("No categories assigned")).toBeTruthy();
  });

  it("another failure shows the error and falls back to the user's own flags", async () => {
    let calls = 0;
    await show(moderator, () => {
      calls++;
      return Response.json({ success: false, error: "Сбой" }, { status: 500 });
    });
    // One retry after a second before the failure counts.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1300));
    });
    await settle();
    expect(calls).toBe(2);
    expect(screen.getByText(STATUS_LOAD_ERROR)).toBeTruthy();
    expect(screen.getByText("Костёр Звукозапись")).toBeTruthy();
  });

  it("a 403 means not a moderator: home", async () => {
    const view = await show(
      moderator,
      () => Response.json({ success: false, error: "Доступ только для модераторов" }, { status: 403 }),
    );
    expect(view.router.state.location.pathname).toBe("/");
  });
});

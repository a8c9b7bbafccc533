// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { ProfilePage } from "./profile-page.tsx";

const base = {
  id: 1,
  username: "tg_artist",
  first_name: "Иван",
  last_name: null,
  avatar: null,
  vk_id: null as string | null,
  telegram_id: "777" as string | null,
  is_admin: false,
  is_moderator: false,
};

let sent: unknown = null;
async function signInAs(user: typeof base, link: (req: Request) => unknown | Response) {
  localStorage.clear();
  sent = null;
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user }),
      "/api/tracks": () => ({ success: true, tracks: [] }),
      "/api/profile/link-accounts": async (req) => {
        sent = await req.json();
        return link(req);
      },
    }),
  );
  auth.setTokens("a", "r");
  await auth.loadUser();
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("linking VK to a Telegram account", () => {
  it("sends the phone as link_telegram_to_vk and shows the server's answer", async () => {
    await signInAs(base, () => ({ success: true, message: "Номер сохранён" }));
    renderPage("/profile", ProfilePage);
    fireEvent.change(await screen.findByLabelText("Телефон"), { target: { value: "+7 999 000-11-22" } });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Привязать" }));
    });
    expect((await screen.findAllByText("Номер сохранён")).length).toBeGreaterThan(0);
    expect(sent).toEqual({ action: "link_telegram_to_vk", phone_number: "+7 999 000-11-22" });
  });

  it("shows the server's refusal, and Failed to link accounts when it gives no reason", async () => {
    await signInAs(
      base,
      () => Response.json({ success: false, error: "Некорректный номер телефона" }, { status: 400 }),
    );
    renderPage("/profile", ProfilePage);
    fireEvent.change(await screen.findByLabelText("Телефон"), { target: { value: "12" } });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Привязать" }));
    });
    expect(await screen.findByText("Некорректный номер телефона")).toBeTruthy();
    cleanup();

    await signInAs(base, () => new Response("", { status: 500 }));
    renderPage("/profile", ProfilePage);
    fireEvent.change(await screen.findByLabelText("Телефон"), { target: { value: "+79990001122" } });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Привязать" }));
    });
    expect(await screen.findByText("Failed to link accounts")).toBeTruthy();
  });

  it("says Error linking accounts when the server cannot be reached", async () => {
    await signInAs(base, () => ({ success: true, message: "x" }));
    renderPage("/profile", ProfilePage);
    await screen.findByLabelText("Телефон");
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("offline")));
    fireEvent.change(screen.getByLabelText("Телефон"), { target: { value: "+79990001122" } });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Привязать" }));
    });
    expect(await screen.findByText("Error linking accounts")).toBeTruthy();
  });

  it("is not offered when VK is already linked", async () => {
    await signInAs({ ...base, vk_id: "123" }, () => ({ success: true, message: "x" }));
    renderPage("/profile", ProfilePage);
    await screen.findByText("@tg_artist");
    expect(screen.queryByLabelText("Телефон")).toBeNull();
  });
});

// @vitest-environment happy-dom
/** Issue 36: the profile's «Куда присылать ответы»: the VK allow-messages window with the key, the channels saved. */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { ProfilePage } from "./profile-page.tsx";

const user = {
  id: 1,
  username: "both_artist",
  first_name: "Иван",
  last_name: null,
  avatar: null,
  vk_id: null,
  telegram_id: "777",
  is_admin: false,
  is_moderator: false,
};

let put: unknown = null;
/** Resolves when the profile has asked for GET /api/profile/vk-messages. */
let asked: Promise<void> = Promise.resolve();
async function signIn(vkMessages: Record<string, unknown>) {
  localStorage.clear();
  put = null;
  let served = () => {};
  asked = new Promise((r) => (served = r));
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user }),
      "/api/tracks": () => ({ success: true, tracks: [] }),
      "/api/profile/vk-messages": () => {
        served();
        return { success: true, ...vkMessages };
      },
      "/api/profile/channels": async (req) => {
        put = await req.json();
        return { success: true, channels: (put as { channels: string[] }).channels };
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

describe("where the answers go", () => {
  it("opens VK's allow-messages window for the community with the key, and saves the chosen channels", async () => {
    await signIn({ group_id: 222000111, key: "k.e.y", allowed: false, channels: ["telegram"] });
    const opened: string[] = [];
    vi.stubGlobal("open", (url: string) => {
      opened.push(url);
      return null;
    });
    renderPage("/profile", ProfilePage);
    fireEvent.click(await screen.findByRole("button", { name: "Получать ответы ВКонтакте" }));
    expect(opened).toEqual([
      "https://vk.com/widget_allow_messages_from_community.php?group_id=222000111&key=k.e.y",
    ]);
    expect((screen.getByLabelText("Telegram") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("ВКонтакте") as HTMLInputElement).checked).toBe(false);
    act(() => {
      fireEvent.click(screen.getByLabelText("ВКонтакте"));
    });
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
    });
    await screen.findByText("Сохранено");
    expect(put).toEqual({ channels: ["telegram", "vk"] });
  });

  it("says the community may write once allowed, and shows nothing without the VK community", async () => {
    await signIn({ group_id: 222000111, key: "k", allowed: true, channels: ["telegram", "vk"] });
    renderPage("/profile", ProfilePage);
    await screen.findByText("ВКонтакте: сообщество может писать вам");
    expect(screen.queryByRole("button", { name: "Получать ответы ВКонтакте" })).toBeNull();
    cleanup();
    await signIn({ group_id: null, key: null, allowed: false, channels: ["telegram"] });
    renderPage("/profile", ProfilePage);
    await screen.findByRole("heading", { name: "Мои треки" });
    await asked;
    // The answer is rendered in the turns after it is served.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(screen.queryByText("Куда присылать ответы")).toBeNull();
    expect(screen.getByText("Telegram ID")).toBeTruthy();
  });
});

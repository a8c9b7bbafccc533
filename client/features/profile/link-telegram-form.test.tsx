// @vitest-environment happy-dom
import { act, cleanup, fireEvent, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { useFlashes } from "../../lib/flash.ts";
import { openProviderWindow } from "../../lib/oauth.ts";
import { ProfilePage } from "./profile-page.tsx";

const vkUser = {
  id: 1,
  username: "vk_artist",
  first_name: "Вера",
  last_name: null,
  avatar: null,
  vk_id: "5550001" as string | null,
  telegram_id: null as string | null,
  is_admin: false,
  is_moderator: false,
};

let sent: unknown[] = [];
let opened: string[] = [];
let me = { ...vkUser };

async function signInAs(user: typeof vkUser, link: (req: Request) => unknown | Response = () => ({
  success: true,
  message: "Telegram успешно привязан к вашему аккаунту",
})) {
  me = { ...user };
  vi.stubGlobal(
    "fetch",
    fakeFetch({
      "/api/auth/me": () => ({ success: true, user: me }),
      "/api/tracks": () => ({ success: true, tracks: [] }),
      "/api/auth/oauth/urls": () => ({
        success: true,
        vk: null,
        telegram:
          "https://oauth.telegram.test/auth?bot_id=1&origin=http%3A%2F%2Flocalhost&return_to=http%3A%2F%2Flocalhost%2Fauth%2Ftelegram%2Fcallback",
        session_id: "sess-link",
      }),
      "/api/profile/link-accounts": async (req) => {
        sent.push(await req.json());
        const res = link(req);
        if (!(res instanceof Response)) me = { ...me, telegram_id: "8880001" };
        return res;
      },
    }),
  );
  auth.setTokens("a", "r");
  await auth.loadUser();
}

/** This browser opened a Telegram window to link (a pop-up unless `open` says otherwise). */
const startedLink = () =>
  openProviderWindow("https://oauth.telegram.test/auth?bot_id=1", {
    provider: "telegram",
    purpose: "link",
    session_id: "sess-link",
  });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  sent = [];
  opened = [];
  history.replaceState(null, "", "/profile");
  vi.spyOn(globalThis, "open").mockImplementation((url) => {
    opened.push(String(url));
    return {} as Window;
  });
  vi.spyOn(globalThis, "close").mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("linking Telegram to a VK account", () => {
  it("offers Привязать Telegram and opens Telegram with the answer coming back to /profile", async () => {
    await signInAs(vkUser);
    renderPage("/profile", ProfilePage);
    expect(await screen.findByRole("heading", { name: "Привязать Telegram" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Привязать" }));
    await waitFor(() => expect(opened).toHaveLength(1));
    const url = new URL(opened[0]);
    expect(url.searchParams.get("return_to")).toBe(`${location.origin}/profile`);
    expect(url.searchParams.get("bot_id")).toBe("1");
    expect(screen.getByRole("button", { name: "Подключение..." })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem("oauth_starts")!)[0]).toMatchObject({
      provider: "telegram",
      purpose: "link",
    });
  });

  it("is not offered without VK, nor when Telegram is already linked", async () => {
    await signInAs({ ...vkUser, telegram_id: "1" });
    renderPage("/profile", ProfilePage);
    await screen.findByText("@vk_artist");
    expect(screen.queryByRole("heading", { name: "Привязать Telegram" })).toBeNull();
    cleanup();
    await signInAs({ ...vkUser, vk_id: null, telegram_id: "1" });
    renderPage("/profile", ProfilePage);
    await screen.findByText("@vk_artist");
    expect(screen.queryByRole("heading", { name: "Привязать Telegram" })).toBeNull();
  });

  it("links the result that comes back to /profile in this window, cleans the address and shows it", async () => {
    vi.spyOn(globalThis, "open").mockImplementation(() => null);
    vi.spyOn(location, "assign").mockImplementation(() => {});
    startedLink();
    await signInAs(vkUser);
    const flashes = renderHook(() => useFlashes());
    history.replaceState(null, "", "/profile#tgAuthResult=eyJpZCI6ODg4MDAwMX0");
    renderPage("/profile", ProfilePage);
    await waitFor(() =>
      expect(sent).toEqual([{ action: "link_vk_to_telegram", telegram_hash: "eyJpZCI6ODg4MDAwMX0" }])
    );
    expect(location.hash).toBe("");
    await waitFor(() =>
      expect(flashes.result.current.map((f) => f.text)).toContain("Telegram успешно привязан к вашему аккаунту")
    );
    // The profile now shows the Telegram ID, and the section is gone.
    expect(await screen.findByText("8880001")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Привязать Telegram" })).toBeNull();
    expect(globalThis.close).not.toHaveBeenCalled();
  });

  it("links nothing when this browser started no Telegram link (someone else's result in a link)", async () => {
    await signInAs(vkUser);
    const flashes = renderHook(() => useFlashes());
    history.replaceState(null, "", "/profile#tgAuthResult=eyJpZCI6NjY2fQ");
    renderPage("/profile", ProfilePage);
    await waitFor(() => expect(flashes.result.current.map((f) => f.text)).toContain("Failed to link accounts"));
    expect(location.hash).toBe("");
    expect(sent).toEqual([]);
  });

  it("in the pop-up: links, tells the window that opened it, and closes itself", async () => {
    startedLink();
    await signInAs(vkUser);
    history.replaceState(null, "", "/profile#tgAuthResult=eyJpZCI6ODg4MDAwMX0");
    renderPage("/profile", ProfilePage);
    await waitFor(() => expect(globalThis.close).toHaveBeenCalledTimes(1));
    expect(sent).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem("oauth_link_result")!)).toMatchObject({
      ok: true,
      message: "Telegram успешно привязан к вашему аккаунту",
    });
  });

  it("the window that opened it shows a refusal from the pop-up, and Error linking accounts without an answer", async () => {
    await signInAs(vkUser);
    renderPage("/profile", ProfilePage);
    await screen.findByRole("heading", { name: "Привязать Telegram" });
    // As the pop-up writes it (link-outcome.ts): the provider named, so the VK form leaves it alone.
    const outcome = {
      ok: false,
      message: "К вашему аккаунту уже привязан другой Telegram.",
      provider: "telegram",
      at: 1,
    };
    act(() => {
      globalThis.dispatchEvent(
        new StorageEvent("storage", { key: "oauth_link_result", newValue: JSON.stringify(outcome) }),
      );
    });
    expect(await screen.findByText("К вашему аккаунту уже привязан другой Telegram.")).toBeTruthy();
    cleanup();

    await signInAs(vkUser);
    renderPage("/profile", ProfilePage);
    await screen.findByRole("heading", { name: "Привязать Telegram" });
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("offline")));
    fireEvent.click(screen.getByRole("button", { name: "Привязать" }));
    expect(await screen.findByText("Error linking accounts")).toBeTruthy();
    expect(opened).toEqual([]);
  });

  it("shows the server's refusal, and Failed to link accounts when it gives no reason", async () => {
    startedLink();
    await signInAs(vkUser, () => new Response("", { status: 500 }));
    history.replaceState(null, "", "/profile#tgAuthResult=eyJpZCI6MX0");
    // A pop-up that cannot close itself shows the outcome where it is.
    renderPage("/profile", ProfilePage);
    expect(await screen.findByText("Failed to link accounts")).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_BAR_DELAY_MS } from "../components/cookie-bar.tsx";
import { fakeFetch } from "../components/testing/render-page.tsx";
import { createAppRouter } from "../router.tsx";
import { client, read } from "./api.ts";
import { auth } from "./auth.ts";

/**
 * Maintenance mode in the client (spec 2 "Maintenance mode", docs/decisions/0090): the sign-in pages
 * stay open so an administrator can sign in, and the maintenance screen has no way back to itself.
 */
const USERS: Record<string, Record<string, unknown>> = {
  "tok-user": { id: 1, username: "artist", first_name: "Арт", is_admin: false, is_moderator: false },
  "tok-admin": { id: 2, username: "admin", first_name: "Адм", is_admin: true, is_moderator: false },
};
const CLOSED = { success: false, error: "Ведутся технические работы.", maintenance: true };

let maintenance = true;
let fetch: ReturnType<typeof fakeFetch>;

function routes() {
  return fakeFetch({
    "/api/config": () => ({
      success: true,
      maintenance,
      providers: { vk: true, telegram: true },
      limits: { max_upload_file_mb: 50, max_upload_files: 20 },
    }),
    "/api/auth/me": (req) => {
      const user = USERS[req.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""];
      return user ? { success: true, user } : Response.json({ success: false, error: "x" }, { status: 401 });
    },
    "/api/auth/refresh": () => Response.json({ success: false, error: "x" }, { status: 401 }),
    "/api/auth/oauth/urls": () => ({
      success: true,
      vk: "https://id.vk.test/a",
      telegram: "https://oauth.telegram.test/a",
      session_id: "s",
    }),
    "/api/tracks": (req) => {
      const admin = req.headers.get("authorization") === "Bearer tok-admin";
      return maintenance && !admin ? Response.json(CLOSED, { status: 503 }) : { success: true, tracks: [] };
    },
    "/api/slider": () => (maintenance ? Response.json(CLOSED, { status: 503 }) : { success: true, sliders: [] }),
    "/api/admin/dashboard": () => ({ success: true, stats: {} }),
  });
}

function renderApp(path: string) {
  history.replaceState(null, "", path);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createAppRouter({ auth, queryClient });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function signedInAs(token: string) {
  auth.clear();
  localStorage.setItem("accessToken", token);
  localStorage.setItem("refreshToken", `r-${token}`);
  auth.restore();
}

const at = (path: string) => waitFor(() => expect(location.pathname).toBe(path), { timeout: 3000 });

/** Every link on the screen, as addresses; in-page anchors (the skip link) lead nowhere else. */
const linksLeavingThePage = () =>
  screen.queryAllByRole("link").map((a) => a.getAttribute("href") ?? "").filter((href) => !href.startsWith("#"));

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem("cookieConsent", "true");
  auth.clear();
  auth.closeBanModal();
  maintenance = true;
  fetch = routes();
  vi.stubGlobal("fetch", fetch);
  vi.spyOn(globalThis, "open").mockImplementation(() => ({}) as Window);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("sign-in during maintenance", () => {
  it("keeps /login open for a signed-out visitor, with both providers", async () => {
    renderApp("/login");
    expect(await screen.findByRole("heading", { name: "Вход в систему" })).toBeTruthy();
    expect(await screen.findByRole("button", { name: /Войти через ВКонтакте/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: /Войти через Telegram/ })).toBeTruthy();
    expect(location.pathname).toBe("/login");
  });

  it("keeps the provider's callback page open: an administrator lands home, then in the admin panel", async () => {
    renderApp("/auth/vk/callback?access_token=tok-admin&refresh_token=r-admin");
    expect(await screen.findByText(/Вы успешно вошли в систему/)).toBeTruthy();
    await at("/");
    expect(auth.user?.username).toBe("admin");
    fireEvent.click(screen.getAllByRole("link", { name: "Админка" })[0]);
    await at("/admin");
  });

  it("signs an administrator in from a login link to /login", async () => {
    renderApp("/login?access_token=tok-admin&refresh_token=r-admin");
    await waitFor(() => expect(auth.user?.username).toBe("admin"));
    await at("/");
    expect(location.search).toBe("");
  });

  it("sends anyone else who signs in on to the maintenance screen", async () => {
    renderApp("/login?access_token=tok-user&refresh_token=r-user");
    await at("/maintenance");
    expect(auth.user?.username).toBe("artist");
  });

  it("still sends every other page to the maintenance screen", async () => {
    for (const path of ["/", "/about", "/faq", "/privacy", "/profile", "/admin"]) {
      renderApp(path);
      await at("/maintenance");
      cleanup();
    }
  });
});

describe("the maintenance screen", () => {
  it("has no links back into the site for a visitor or an artist", async () => {
    renderApp("/maintenance");
    await screen.findByRole("heading", { name: "Ведутся технические работы" });
    expect(linksLeavingThePage()).toEqual([]);
    cleanup();

    signedInAs("tok-user");
    renderApp("/profile");
    await at("/maintenance");
    await screen.findByRole("heading", { name: "Ведутся технические работы" });
    await waitFor(() => expect(auth.user?.username).toBe("artist"));
    expect(linksLeavingThePage()).toEqual([]);
  });

  it("shows no cookie notice, whose privacy link would lead back to it", async () => {
    localStorage.removeItem("cookieConsent");
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp("/maintenance");
      await screen.findByRole("heading", { name: "Ведутся технические работы" });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(COOKIE_BAR_DELAY_MS + 100);
      });
      expect(screen.queryByRole("region", { name: "Уведомление о cookie" })).toBeNull();
      expect(linksLeavingThePage()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the usual header and footer when maintenance is off", async () => {
    maintenance = false;
    renderApp("/maintenance");
    await screen.findByRole("heading", { name: "Ведутся технические работы" });
    await waitFor(() => expect(linksLeavingThePage()).toContain("/privacy"));
  });

  it("keeps an administrator's navigation, which works for them", async () => {
    signedInAs("tok-admin");
    renderApp("/maintenance");
    await screen.findByRole("heading", { name: "Ведутся технические работы" });
    await waitFor(() => expect(linksLeavingThePage()).toContain("/admin"));
  });

  it("Проверить снова stays while maintenance lasts and goes home once it is over", async () => {
    renderApp("/maintenance");
    const button = await screen.findByRole("button", { name: "Проверить снова" });
    const configCalls = () => fetch.calls.filter((c) => c === "/api/config").length;
    const before = configCalls();
    fireEvent.click(button);
    await waitFor(() => expect(configCalls()).toBe(before + 1));
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect(location.pathname).toBe("/maintenance");

    maintenance = false;
    fireEvent.click(button);
    await at("/");
  });
});

describe("maintenance switched on while a page is open", () => {
  it("a call refused for maintenance takes a visitor to the maintenance screen", async () => {
    maintenance = false;
    signedInAs("tok-user");
    renderApp("/about");
    await waitFor(() => expect(auth.user?.username).toBe("artist"));
    maintenance = true;
    await act(async () => {
      await expect(read(client.tracks.$get())).rejects.toMatchObject({ status: 503 });
    });
    await at("/maintenance");
  });

  it("an administrator's calls keep working and they stay where they are", async () => {
    maintenance = false;
    signedInAs("tok-admin");
    renderApp("/about");
    await waitFor(() => expect(auth.user?.username).toBe("admin"));
    maintenance = true;
    await act(async () => {
      await read(client.tracks.$get());
    });
    expect(location.pathname).toBe("/about");
  });
});

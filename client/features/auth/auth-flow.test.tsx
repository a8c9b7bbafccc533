// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { requestSignIn } from "../../components/need-auth.ts";
import { fakeFetch } from "../../components/testing/render-page.tsx";
import { auth } from "../../lib/auth.ts";
import { openProviderWindow } from "../../lib/oauth.ts";
import { createAppRouter } from "../../router.tsx";

const USERS: Record<string, Record<string, unknown>> = {
  "tok-user": { id: 1, username: "artist", first_name: "Арт", is_admin: false, is_moderator: false },
  "tok-admin": { id: 2, username: "admin", first_name: "Адм", is_admin: true, is_moderator: false },
  "tok-new": { id: 3, username: "newbie", first_name: "Нов", is_admin: false, is_moderator: false },
};
const bearer = (req: Request) => req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";

let maintenance = false;
let fetch: ReturnType<typeof fakeFetch>;
let opened: string[] = [];
let replaced: string[] = [];

function routes(extra: Parameters<typeof fakeFetch>[0] = {}) {
  return fakeFetch({
    "/api/config": () => ({
      success: true,
      maintenance,
      providers: { vk: true, telegram: true },
      limits: { max_upload_file_mb: 50, max_upload_files: 20 },
    }),
    "/api/auth/me": (req) => {
      const token = bearer(req);
      if (token === "tok-banned") {
        return Response.json({ success: false, error: "Читы", ban_reason: "Читы", banned: true }, { status: 403 });
      }
      const user = USERS[token];
      return user ? { success: true, user } : Response.json({ success: false, error: "x" }, { status: 401 });
    },
    "/api/auth/refresh": () => Response.json({ success: false, error: "x" }, { status: 401 }),
    "/api/auth/logout": () => ({ success: true }),
    "/api/auth/oauth/urls": () => ({
      success: true,
      vk: "https://id.vk.test/authorize?state=abc",
      telegram: "https://oauth.telegram.test/auth?bot_id=1",
      session_id: "sess-1",
    }),
    "/api/slider": () => ({ success: true, sliders: [] }),
    "/api/tracks": () => ({ success: true, tracks: [] }),
    ...extra,
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

const signedInAs = (token: string) => {
  auth.clear();
  localStorage.setItem("accessToken", token);
  localStorage.setItem("refreshToken", `r-${token}`);
  auth.restore();
};

const at = (path: string) => waitFor(() => expect(location.pathname).toBe(path), { timeout: 3000 });

/** This browser opened a provider window (a pop-up unless `open` says otherwise), as the buttons do. */
const started = (
  provider: "vk" | "telegram",
  address = provider === "vk" ? "https://id.vk.test/authorize?state=s1" : "https://oauth.telegram.test/auth?bot_id=1",
) => openProviderWindow(address, { provider, purpose: "sign-in", session_id: "sess-1" });

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem("cookieConsent", "true");
  auth.clear();
  auth.closeBanModal();
  maintenance = false;
  opened = [];
  replaced = [];
  fetch = routes();
  vi.stubGlobal("fetch", fetch);
  vi.spyOn(globalThis, "open").mockImplementation((url) => {
    opened.push(String(url));
    return {} as Window;
  });
  vi.spyOn(location, "replace").mockImplementation((url) => {
    replaced.push(String(url));
  });
  // A provider pop-up closes itself; here the browser refuses, so the page carries on.
  vi.spyOn(globalThis, "close").mockImplementation(() => {});
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("route guards", () => {
  it("sends an anonymous visitor from /profile to /login", async () => {
    renderApp("/profile");
    await at("/login");
    expect(await screen.findByRole("heading", { name: "Вход в систему" })).toBeTruthy();
  });

  it("sends a plain user from /admin home", async () => {
    signedInAs("tok-user");
    renderApp("/admin");
    await at("/");
  });

  it("lets an admin into /admin and shows Админка in the header", async () => {
    signedInAs("tok-admin");
    renderApp("/admin");
    // The admin pages are a lazy chunk: its first import can take seconds on a loaded machine.
    await waitFor(() => expect(screen.getAllByText("Админка").length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(location.pathname).toBe("/admin");
  });

  it("sends a signed-in user from /login home", async () => {
    signedInAs("tok-user");
    renderApp("/login");
    await at("/");
  });

  it("sends a banned user to /login with the ban modal", async () => {
    signedInAs("tok-banned");
    renderApp("/profile");
    await at("/login");
    expect(await screen.findByRole("dialog", { name: "Аккаунт заблокирован" })).toBeTruthy();
    expect(screen.getByText("Читы")).toBeTruthy();
    expect(auth.isAuthenticated).toBe(false);
  });

  it("in maintenance sends everyone but an admin to /maintenance", async () => {
    maintenance = true;
    renderApp("/about");
    await at("/maintenance");
    cleanup();

    signedInAs("tok-user");
    renderApp("/profile");
    await at("/maintenance");
    cleanup();

    signedInAs("tok-admin");
    renderApp("/about");
    // The admin pages are a lazy chunk: its first import can take seconds on a loaded machine.
    await waitFor(() => expect(screen.getAllByText("Админка").length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(location.pathname).toBe("/about");
  });

  it("in maintenance signs an admin in by URL tokens and keeps others out", async () => {
    maintenance = true;
    renderApp("/?access_token=tok-user&refresh_token=r1");
    await at("/maintenance");
    cleanup();
    auth.clear();
    renderApp("/?access_token=tok-admin&refresh_token=r2");
    await waitFor(() => expect(auth.user?.username).toBe("admin"));
    await waitFor(() => expect(location.search).toBe(""));
    expect(location.pathname).toBe("/");
  });
});

describe("login entry via address on any page", () => {
  it("signs in with URL tokens on a signed-in page, stays there and cleans the address", async () => {
    renderApp("/profile?access_token=tok-user&refresh_token=r-user");
    await waitFor(() => expect(auth.user?.username).toBe("artist"));
    await waitFor(() => expect(location.search).toBe(""));
    expect(location.pathname).toBe("/profile");
    expect(localStorage.getItem("accessToken")).toBe("tok-user");
    expect(localStorage.getItem("refreshToken")).toBe("r-user");
  });

  it("carries on without bad URL tokens and still removes them from the address", async () => {
    renderApp("/about?access_token=bad&refresh_token=bad");
    await waitFor(() => expect(location.search).toBe(""));
    expect(location.pathname).toBe("/about");
    expect(auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem("accessToken")).toBeNull();
  });
});

describe("/login arrival", () => {
  it("signs in with URL tokens and goes home", async () => {
    renderApp("/login?access_token=tok-new&refresh_token=r-new");
    await at("/");
    await waitFor(() => expect(auth.user?.username).toBe("newbie"));
    expect(localStorage.getItem("accessToken")).toBe("tok-new");
    expect(location.search).not.toContain("access_token");
  });

  it("shows Ошибка при обработке авторизации when URL tokens are bad, and stays signed out", async () => {
    renderApp("/login?access_token=bad&refresh_token=bad");
    expect(await screen.findByText("Ошибка при обработке авторизации")).toBeTruthy();
    expect(location.search).toBe("");
    expect(auth.isAuthenticated).toBe(false);
  });

  it("processes tgAuthResult from the fragment and goes home", async () => {
    let sent: unknown;
    fetch = routes({
      "/api/auth/oauth/telegram/complete": async (req) => {
        sent = await req.json();
        return { success: true, access_token: "tok-new", refresh_token: "r-new", user: USERS["tok-new"] };
      },
    });
    vi.stubGlobal("fetch", fetch);
    started("telegram");
    renderApp("/login#tgAuthResult=eyJpZCI6MX0");
    await at("/");
    expect(sent).toEqual({ tgAuthResult: "eyJpZCI6MX0", session_id: "sess-1" });
    expect(auth.isAuthenticated).toBe(true);
    expect(location.hash).toBe("");
  });

  it("shows Не удалось войти через Telegram when the result is refused", async () => {
    fetch = routes({
      "/api/auth/oauth/telegram/complete": () =>
        Response.json({ success: false, error: "Неверная подпись данных Telegram" }, { status: 401 }),
    });
    vi.stubGlobal("fetch", fetch);
    started("telegram");
    renderApp("/login?tgAuthResult=eyJpZCI6MX0");
    expect(await screen.findByText("Не удалось войти через Telegram: Неверная подпись данных Telegram")).toBeTruthy();
    expect(auth.isAuthenticated).toBe(false);
  });

  it("forwards VK's code and state to the backend callback", async () => {
    started("vk");
    renderApp("/login?code=c1&state=s1&device_id=d1&type=code_v2");
    await waitFor(() => expect(replaced).toHaveLength(1));
    const url = new URL(replaced[0], location.origin);
    expect(url.pathname).toBe("/api/auth/oauth/vk/callback");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      code: "c1",
      state: "s1",
      device_id: "d1",
      frontend_redirect: `${location.origin}/auth/vk/callback`,
    });
  });

  it("shows ban_message highlighted and removes it from the address", async () => {
    renderApp("/login?ban_message=" + encodeURIComponent("Вы заблокированы за спам"));
    const alert = await screen.findByText("Вы заблокированы за спам");
    expect(alert.className).toContain("auth-ban");
    await waitFor(() => expect(location.search).toBe(""));
  });

  it("shows the default ban text for an empty ban_message", async () => {
    renderApp("/login?ban_message=");
    expect(await screen.findByText("Ваш аккаунт заблокирован за нарушение правил сервиса")).toBeTruthy();
  });

  it("fetches the sign-in addresses and opens the provider in a new window", async () => {
    renderApp("/login");
    const vk = await screen.findByRole("button", { name: /Войти через ВКонтакте/ });
    await waitFor(() => expect(fetch.calls).toContain("/api/auth/oauth/urls"));
    fireEvent.click(vk);
    await waitFor(() => expect(opened).toEqual(["https://id.vk.test/authorize?state=abc"]));
    expect(localStorage.getItem("oauth_session_id")).toBe("sess-1");
    expect(screen.getByText("Подключение...")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Войти через Telegram/ }));
    expect(opened).toHaveLength(1);
  });

  it("says Ошибка при инициализации авторизации with the detail when the addresses cannot be fetched", async () => {
    fetch = routes({
      "/api/auth/oauth/urls": () => Response.json({ success: false, error: "Слишком много попыток" }, { status: 429 }),
    });
    vi.stubGlobal("fetch", fetch);
    renderApp("/login");
    expect(await screen.findByText("Ошибка при инициализации авторизации: Слишком много попыток")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Войти через ВКонтакте/ }));
    expect(await screen.findByText("Ошибка при получении URL для авторизации")).toBeTruthy();
    expect(opened).toHaveLength(0);
  });

  it("shows VK's refusal as Ошибка при авторизации через ВКонтакте", async () => {
    localStorage.setItem("oauth_session_id", "s");
    renderApp("/login?error=access_denied&state=s");
    expect(await screen.findByText("Ошибка при авторизации через ВКонтакте: access_denied")).toBeTruthy();
    expect(localStorage.getItem("oauth_session_id")).toBeNull();
  });

  it("goes home when another window finishes signing in", async () => {
    renderApp("/login");
    await screen.findByRole("button", { name: /Войти через ВКонтакте/ });
    localStorage.setItem("accessToken", "tok-new");
    localStorage.setItem("refreshToken", "r-new");
    act(() => {
      globalThis.dispatchEvent(new StorageEvent("storage", { key: "refreshToken", newValue: "r-new" }));
    });
    await at("/");
    await waitFor(() => expect(auth.user?.username).toBe("newbie"));
  });
});

describe("only a sign-in this browser started (login CSRF)", () => {
  const SESSION_INVALID = "Сессия авторизации истекла или недействительна. Попробуйте войти снова.";

  it("does not forward a VK code and state this browser did not start, and shows the sign-in error", async () => {
    renderApp("/login?code=c1&state=s1&device_id=d1&type=code_v2");
    expect(await screen.findByText(`Ошибка при авторизации через ВКонтакте: ${SESSION_INVALID}`)).toBeTruthy();
    expect(replaced).toEqual([]);
    expect(location.search).toBe("");
    expect(auth.isAuthenticated).toBe(false);
  });

  it("does not forward a state other than the one this browser stored", async () => {
    started("vk", "https://id.vk.test/authorize?state=mine");
    renderApp("/login?code=c1&state=theirs&device_id=d1");
    expect(await screen.findByText(`Ошибка при авторизации через ВКонтакте: ${SESSION_INVALID}`)).toBeTruthy();
    expect(replaced).toEqual([]);
  });

  it("does not send someone else's Telegram result from /login or the callback page", async () => {
    renderApp("/login?tgAuthResult=eyJpZCI6MX0");
    expect(await screen.findByText(`Не удалось войти через Telegram: ${SESSION_INVALID}`)).toBeTruthy();
    cleanup();
    renderApp("/auth/telegram/callback#tgAuthResult=eyJpZCI6MX0");
    expect(await screen.findByText(`Ошибка при авторизации через Telegram: ${SESSION_INVALID}`)).toBeTruthy();
    expect(fetch.calls).not.toContain("/api/auth/oauth/telegram/complete");
    expect(auth.isAuthenticated).toBe(false);
  });

  it("accepts a Telegram result only moments after the start: not 10 minutes later", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    started("telegram");
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1);
    renderApp("/login#tgAuthResult=eyJpZCI6MX0");
    expect(await screen.findByText(`Не удалось войти через Telegram: ${SESSION_INVALID}`)).toBeTruthy();
    expect(fetch.calls).not.toContain("/api/auth/oauth/telegram/complete");
  });

  it("a start answers once", async () => {
    started("vk");
    renderApp("/login?code=c1&state=s1&device_id=d1");
    await waitFor(() => expect(replaced).toHaveLength(1));
    cleanup();
    renderApp("/login?code=c2&state=s1&device_id=d1");
    expect(await screen.findByText(`Ошибка при авторизации через ВКонтакте: ${SESSION_INVALID}`)).toBeTruthy();
    expect(replaced).toHaveLength(1);
  });
});

describe("the provider pop-up closes itself", () => {
  const closed = () => (globalThis.close as unknown as ReturnType<typeof vi.fn>).mock.calls.length;

  it("after a VK sign-in: /login forwards the code, the callback page signs in and closes the window", async () => {
    started("vk");
    renderApp("/login?code=c1&state=s1&device_id=d1");
    await waitFor(() => expect(replaced).toHaveLength(1));
    cleanup();
    // The backend sends this same window to the callback page with the tokens.
    renderApp("/auth/vk/callback?access_token=tok-new&refresh_token=r-new");
    await waitFor(() => expect(closed()).toBe(1));
    expect(auth.user?.username).toBe("newbie");
  });

  it("after a Telegram sign-in on the callback page", async () => {
    fetch = routes({
      "/api/auth/oauth/telegram/complete": () => ({
        success: true,
        access_token: "tok-new",
        refresh_token: "r-new",
        user: USERS["tok-new"],
      }),
    });
    vi.stubGlobal("fetch", fetch);
    started("telegram");
    renderApp("/auth/telegram/callback#tgAuthResult=eyJpZCI6MX0");
    await waitFor(() => expect(closed()).toBe(1));
    expect(auth.isAuthenticated).toBe(true);
  });

  it("not when the sign-in ran in the site's own window (pop-up blocked): it goes home", async () => {
    vi.spyOn(globalThis, "open").mockImplementation(() => null);
    const assigned: string[] = [];
    vi.spyOn(location, "assign").mockImplementation((url) => void assigned.push(String(url)));
    started("vk");
    expect(assigned).toEqual(["https://id.vk.test/authorize?state=s1"]);
    renderApp("/login?code=c1&state=s1&device_id=d1");
    await waitFor(() => expect(replaced).toHaveLength(1));
    cleanup();
    renderApp("/auth/vk/callback?access_token=tok-new&refresh_token=r-new");
    expect(await screen.findByText(/Вы успешно вошли в систему/)).toBeTruthy();
    await at("/");
    expect(closed()).toBe(0);
  });
});

describe("/auth/{provider}/callback", () => {
  it("VK tokens: progress, success, then home after 1.5 s", async () => {
    renderApp("/auth/vk/callback?access_token=tok-new&refresh_token=r-new");
    expect(await screen.findByText(/Вы успешно вошли в систему/)).toBeTruthy();
    expect(location.search).toBe("");
    expect(location.pathname).toBe("/auth/vk/callback");
    await at("/");
    expect(auth.user?.username).toBe("newbie");
  });

  it("shows the spec's errors with a button home", async () => {
    const cases: [string, string][] = [
      ["/auth/vk/callback?error=" + encodeURIComponent("Code is expired"), "Ошибка ВКонтакте: Code is expired"],
      ["/auth/vk/callback", "Отсутствуют необходимые данные для авторизации. Пожалуйста, попробуйте снова."],
      ["/auth/telegram/callback", "Данные авторизации Telegram не найдены"],
      ["/auth/github/callback", "Неизвестный провайдер авторизации"],
      ["/auth/vk/callback?access_token=bad&refresh_token=bad", "Ошибка при получении данных пользователя"],
    ];
    for (const [path, text] of cases) {
      renderApp(path);
      expect(await screen.findByText(text), path).toBeTruthy();
      expect(screen.getByRole("link", { name: "На главную" })).toBeTruthy();
      cleanup();
    }
  });

  it("a ban from VK opens the ban modal, which closes by itself after 5 s and goes to /login", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp("/auth/vk/callback?ban_message=" + encodeURIComponent("Аккаунт заблокирован навсегда"));
    const dialog = await screen.findByRole("dialog", { name: "Аккаунт заблокирован" });
    expect(dialog.textContent).toContain("Аккаунт заблокирован навсегда");
    expect(screen.getByRole("button", { name: "Понятно" })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4900);
    });
    expect(screen.queryByRole("dialog", { name: "Аккаунт заблокирован" })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.queryByRole("dialog", { name: "Аккаунт заблокирован" })).toBeNull();
    await at("/login");
  });
});

describe("login dialog and session end", () => {
  it("opens on the need-authentication event with both buttons and the terms link", async () => {
    renderApp("/about");
    await screen.findByRole("link", { name: "О нас" });
    act(() => requestSignIn());
    const dialog = await screen.findByRole("dialog", { name: "Войдите, чтобы загрузить трек" });
    expect(dialog.textContent).toContain("Войти через Telegram");
    expect(dialog.textContent).toContain("Войти через ВКонтакте");
    expect(screen.getByRole("link", { name: "условия использования" }).getAttribute("href")).toBe("/privacy");
    await waitFor(() => expect(fetch.calls).toContain("/api/auth/oauth/urls"));
    fireEvent.click(screen.getByRole("button", { name: /Войти через Telegram/ }));
    await waitFor(() => expect(opened).toEqual(["https://oauth.telegram.test/auth?bot_id=1"]));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("logout: flash, header without Профиль, and a signed-in page sends to /login", async () => {
    signedInAs("tok-user");
    renderApp("/profile");
    const exit = (await screen.findAllByRole("button", { name: "Выход" }))[0];
    fireEvent.click(exit);
    expect(await screen.findByText("Вы успешно вышли из системы.")).toBeTruthy();
    await at("/login");
    expect(screen.queryAllByText("Профиль")).toHaveLength(0);
    expect(fetch.calls).toContain("/api/auth/logout");
  });

  it("re-checks the account on route change and finds a ban", async () => {
    signedInAs("tok-user");
    renderApp("/about");
    await waitFor(() => expect(auth.user?.username).toBe("artist"));
    const before = fetch.calls.filter((c) => c === "/api/auth/me").length;
    localStorage.setItem("accessToken", "tok-banned");
    fireEvent.click(screen.getAllByRole("link", { name: "FAQ" })[0]);
    expect(await screen.findByRole("dialog", { name: "Аккаунт заблокирован" })).toBeTruthy();
    expect(fetch.calls.filter((c) => c === "/api/auth/me").length).toBeGreaterThan(before);
  });
});

/** Sign-in and sessions in a real browser: VK ID through a local double, Telegram, guards, ban, logout. */
import { encodeTgAuthResult, signTelegramAuth, TEST_BOT_TOKEN } from "../server/testing/telegram.ts";
import { startVkDouble } from "../server/testing/vk-double.ts";
import { expect, type Page, test } from "./harness.ts";

/** Waits until the header shows the signed-in links (Профиль and Выход); narrow windows open the menu. */
async function expectSignedIn(page: Page) {
  const narrow = (page.viewportSize()?.width ?? 1280) <= 760;
  if (narrow) await page.getByRole("button", { name: "Меню" }).click();
  const nav = page.getByRole("navigation", { name: narrow ? "Мобильное меню" : "Основное меню" });
  await nav.getByRole("link", { name: "Профиль", exact: true }).waitFor();
  await nav.getByRole("button", { name: "Выход", exact: true }).waitFor();
  if (narrow) await page.getByRole("button", { name: "Меню" }).click();
}

async function waitForPath(page: Page, path: string, timeout = 10_000) {
  await page.waitForURL((url) => url.pathname === path, { timeout });
}

test("VK ID: Войти через ВКонтакте → VK authorize (double) → back to /login → signed in on /", async (t) => {
  const vk = await startVkDouble({
    user: { user_id: "5550001", first_name: "Вера", last_name: "Кошкина", phone: "79990005566" },
  });
  try {
    const server = await t.startServer({ VK_CLIENT_ID: vk.clientId, VK_ID_BASE_URL: vk.url });
    const page = await t.page({ width: 1280, height: 800 });
    const urlsFetched = page.waitForResponse((r) => r.url().includes("/api/auth/oauth/urls"));
    await page.goto(server.baseUrl + "/login");
    await page.getByRole("heading", { name: "Вход в систему" }).waitFor();
    const button = page.getByRole("button", { name: "Войти через ВКонтакте" });
    // The button is ready once the sign-in addresses have been fetched.
    await urlsFetched;
    // Every page load of the context, the provider window's included.
    const seen: string[] = [];
    page.context().on("request", (r) => {
      if (r.isNavigationRequest()) seen.push(r.url());
    });
    // Every redirect the site answers with: none may carry a token (decision 0202).
    const redirects: string[] = [];
    page.context().on("response", (r) => {
      const location = r.headers()["location"];
      if (location) redirects.push(location);
    });
    const popupPromise = page.context().waitForEvent("page");
    await button.click();
    const popup = await popupPromise;
    const popupClosed = popup.waitForEvent("close", { timeout: 20_000 });

    // The provider window goes through VK's authorize page, back to /login with code and state,
    // on to the backend callback, signs in there and closes itself (no second copy of the site).
    await popupClosed;
    expect(popup.isClosed()).toBe(true);
    expect(page.context().pages()).toEqual([page]);
    const step = (prefix: string) => seen.findIndex((u) => u.startsWith(prefix));
    const order = [
      step(`${vk.url}/authorize?`),
      step(`${server.baseUrl}/login?code=`),
      step(`${server.baseUrl}/api/auth/oauth/vk/callback?`),
      step(`${server.baseUrl}/auth/vk/callback?login_code=`),
    ];
    expect(order.every((i) => i >= 0), seen.join("\n")).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(redirects.length).toBeGreaterThan(0);
    expect(redirects.filter((u) => /access_token=|refresh_token=/.test(u))).toEqual([]);
    expect(seen.filter((u) => /access_token=|refresh_token=/.test(u))).toEqual([]);

    // The window that started it follows: it is signed in and on /.
    await waitForPath(page, "/");
    await expectSignedIn(page);
    await t.screenshot(page, "auth-vk-signed-in");
    const me = await page.evaluate(async () => {
      const res = await fetch("/api/auth/me", {
        headers: { Authorization: `Bearer ${localStorage.getItem("accessToken")}` },
      });
      return (await res.json()).user;
    });
    expect(me).toMatchObject({ vk_id: "5550001", first_name: "Вера", last_name: "Кошкина" });
    expect(vk.requests.find((r) => r.path === "/oauth2/auth")?.contentType).toContain(
      "application/x-www-form-urlencoded",
    );
  } finally {
    await vk.stop();
  }
}, { timeout: 90_000 });

test("Telegram: the provider returns #tgAuthResult to the callback page, which signs in", async (t) => {
  // A stand-in for oauth.telegram.org: it sends the browser back to return_to with a signed result.
  const tg = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const returnTo = url.searchParams.get("return_to")!;
    const result = await signTelegramAuth({
      id: 8880001,
      first_name: "Ёжик",
      last_name: "Тумановский",
      username: "hedgehog",
    });
    return Response.redirect(`${returnTo}#tgAuthResult=${encodeTgAuthResult(result)}`, 302);
  });
  try {
    const server = await t.startServer({
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      TELEGRAM_OAUTH_URL: `http://127.0.0.1:${tg.addr.port}`,
    });
    const page = await t.page({ width: 390, height: 844 });
    const urlsFetched = page.waitForResponse((r) => r.url().includes("/api/auth/oauth/urls"));
    await page.goto(server.baseUrl + "/login");
    await urlsFetched;
    await t.screenshot(page, "auth-login-390");
    const seen: string[] = [];
    page.context().on("request", (r) => {
      if (r.isNavigationRequest()) seen.push(r.url());
    });
    // Every redirect the site answers with: none may carry a token (decision 0202).
    const redirects: string[] = [];
    page.context().on("response", (r) => {
      const location = r.headers()["location"];
      if (location) redirects.push(location);
    });
    const popupPromise = page.context().waitForEvent("page");
    await page.getByRole("button", { name: "Войти через Telegram" }).click();
    const popup = await popupPromise;
    // The provider window comes back to the callback page, signs in there and closes itself.
    await popup.waitForEvent("close", { timeout: 15_000 });
    expect(seen.some((u) => new URL(u).pathname === "/auth/telegram/callback"), seen.join("\n")).toBe(true);
    await waitForPath(page, "/");
    const user = await page.evaluate(async () => {
      const res = await fetch("/api/auth/me", {
        headers: { Authorization: `Bearer ${localStorage.getItem("accessToken")}` },
      });
      return (await res.json()).user;
    });
    expect(user).toMatchObject({ telegram_id: "8880001", first_name: "Ёжик", username: "hedgehog" });
  } finally {
    await tg.shutdown();
  }
}, { timeout: 90_000 });

/** A stand-in for oauth.telegram.org: sends the browser back to return_to with a result signed for `user`. */
function telegramStandIn(user: Parameters<typeof signTelegramAuth>[0]) {
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const returnTo = new URL(req.url).searchParams.get("return_to")!;
    const result = await signTelegramAuth({ ...user, auth_date: Math.floor(Date.now() / 1000) });
    return Response.redirect(`${returnTo}#tgAuthResult=${encodeTgAuthResult(result)}`, 302);
  });
}

const SESSION_INVALID = "Сессия авторизации истекла или недействительна. Попробуйте войти снова.";

test(
  "VK login CSRF: a code and state started in another browser sign nobody in and show the sign-in error",
  async (t) => {
    const vk = await startVkDouble({ user: { user_id: "5550666", first_name: "Злоумышленник" } });
    try {
      const server = await t.startServer({ VK_CLIENT_ID: vk.clientId, VK_ID_BASE_URL: vk.url });

      // The attacker starts a VK sign-in in their own browser and stops before the callback, keeping
      // the code, state and device_id VK sent back (the redirect itself cannot be intercepted, so the
      // hand-over to the backend is).
      const attacker = await t.page({ width: 1280, height: 800 });
      let link = "";
      await attacker.context().route((url) => url.pathname === "/api/auth/oauth/vk/callback", async (route) => {
        const q = new URL(route.request().url()).searchParams;
        const back = new URLSearchParams({
          code: q.get("code")!,
          state: q.get("state")!,
          device_id: q.get("device_id")!,
        });
        link = `${server.baseUrl}/login?${back}`;
        await route.fulfill({ status: 200, contentType: "text/html", body: "<p>stopped</p>" });
      });
      const urlsFetched = attacker.waitForResponse((r) => r.url().includes("/api/auth/oauth/urls"));
      await attacker.goto(server.baseUrl + "/login");
      await urlsFetched;
      const popupPromise = attacker.context().waitForEvent("page");
      await attacker.getByRole("button", { name: "Войти через ВКонтакте" }).click();
      const popup = await popupPromise;
      await popup.getByText("stopped").waitFor({ timeout: 15_000 });
      expect(new URL(link).searchParams.get("state")).toBeTruthy();

      // The victim, in another browser (context), opens the link: nobody is signed in, the error shows.
      const victim = await t.page({ width: 1280, height: 800 });
      await victim.goto(server.baseUrl + "/login");
      await victim.getByRole("heading", { name: "Вход в систему" }).waitFor();
      await victim.goto(link);
      await victim.getByText(`Ошибка при авторизации через ВКонтакте: ${SESSION_INVALID}`).waitFor();
      expect(new URL(victim.url()).search).toBe("");
      expect(await victim.evaluate(() => localStorage.getItem("accessToken"))).toBeNull();
      await t.screenshot(victim, "auth-vk-foreign-link-refused");

      // Sent straight to the backend callback, past the page's own check: the server refuses it too.
      const q = new URL(link).searchParams;
      await victim.goto(`${server.baseUrl}/api/auth/oauth/vk/callback?${new URLSearchParams({
        code: q.get("code")!,
        state: q.get("state")!,
        device_id: q.get("device_id")!,
        frontend_redirect: `${server.baseUrl}/auth/vk/callback`,
      })}`);
      await victim.getByText(`Ошибка ВКонтакте: ${SESSION_INVALID}`).waitFor();
      expect(new URL(victim.url()).pathname).toBe("/auth/vk/callback");
      expect(await victim.evaluate(() => localStorage.getItem("accessToken"))).toBeNull();
      expect(await victim.getByRole("link", { name: "Профиль" }).count()).toBe(0);
    } finally {
      await vk.stop();
    }
  },
  { timeout: 90_000 },
);

test("profile: a VK user links Telegram in a provider window that closes itself", async (t) => {
  const vk = await startVkDouble({ user: { user_id: "5550777", first_name: "Лина", last_name: "Связкина" } });
  const tg = telegramStandIn({ id: 8880777, first_name: "Лина", username: "lina_tg" });
  try {
    const server = await t.startServer({
      VK_CLIENT_ID: vk.clientId,
      VK_ID_BASE_URL: vk.url,
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      TELEGRAM_OAUTH_URL: `http://127.0.0.1:${tg.addr.port}`,
    });
    const page = await t.page({ width: 1280, height: 800 });
    const urlsFetched = page.waitForResponse((r) => r.url().includes("/api/auth/oauth/urls"));
    await page.goto(server.baseUrl + "/login");
    await urlsFetched;
    const vkWindow = page.context().waitForEvent("page");
    await page.getByRole("button", { name: "Войти через ВКонтакте" }).click();
    await (await vkWindow).waitForEvent("close", { timeout: 20_000 });
    await waitForPath(page, "/");
    await expectSignedIn(page);

    await page.goto(server.baseUrl + "/profile");
    await page.getByRole("heading", { name: "Привязать Telegram" }).waitFor();
    await t.screenshot(page, "profile-link-telegram");
    const tgWindow = page.context().waitForEvent("page");
    await page.getByRole("button", { name: "Привязать", exact: true }).click();
    const popup = await tgWindow;
    await popup.waitForEvent("close", { timeout: 20_000 });

    // The profile that opened it shows the outcome and the new Telegram ID.
    await page.getByText("Telegram успешно привязан к вашему аккаунту").first().waitFor();
    await page.getByText("8880777").waitFor();
    expect(await page.getByRole("heading", { name: "Привязать Telegram" }).count()).toBe(0);
    await t.screenshot(page, "profile-telegram-linked");
    const me = await page.evaluate(async () => {
      const res = await fetch("/api/auth/me", {
        headers: { Authorization: `Bearer ${localStorage.getItem("accessToken")}` },
      });
      return (await res.json()).user;
    });
    expect(me).toMatchObject({ vk_id: "5550777", telegram_id: "8880777" });
  } finally {
    await tg.shutdown();
    await vk.stop();
  }
}, { timeout: 90_000 });

test("profile: a Telegram user links VK by signing in to VK from the profile; the window closes itself", async (t) => {
  const vk = await startVkDouble({ user: { user_id: "5550778", first_name: "Тая", phone: "79995550778" } });
  try {
    const server = await t.startServer({
      VK_CLIENT_ID: vk.clientId,
      VK_ID_BASE_URL: vk.url,
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    });
    const page = await t.page({ width: 1280, height: 800 });
    await page.goto(server.baseUrl + "/about");
    // A Telegram sign-in in this browser, as the sign-in page completes one.
    const result = encodeTgAuthResult(await signTelegramAuth({ id: 8880778, first_name: "Тая" }));
    await page.evaluate(async (tgAuthResult) => {
      const urls = await (await fetch("/api/auth/oauth/urls")).json();
      const res = await fetch("/api/auth/oauth/telegram/complete", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tgAuthResult, session_id: urls.session_id }),
      });
      const body = await res.json();
      localStorage.setItem("accessToken", body.access_token);
      localStorage.setItem("refreshToken", body.refresh_token);
    }, result);
    await page.goto(server.baseUrl + "/profile");
    await page.getByRole("heading", { name: "Привязать ВКонтакте" }).waitFor();
    await page.getByLabel("Телефон").fill("+7 999 555-07-78");
    await page.getByRole("button", { name: "Привязать", exact: true }).click();
    const vkButton = page.getByRole("button", { name: "Войти через ВКонтакте" });
    await vkButton.waitFor();
    const vkWindow = page.context().waitForEvent("page");
    await vkButton.click();
    await (await vkWindow).waitForEvent("close", { timeout: 20_000 });

    await page.getByText("ВКонтакте успешно привязан к вашему аккаунту").first().waitFor();
    await page.getByText("5550778", { exact: true }).waitFor();
    expect(await page.getByRole("heading", { name: "Привязать ВКонтакте" }).count()).toBe(0);
    const me = await page.evaluate(async () => {
      const res = await fetch("/api/auth/me", {
        headers: { Authorization: `Bearer ${localStorage.getItem("accessToken")}` },
      });
      return (await res.json()).user;
    });
    expect(me).toMatchObject({ vk_id: "5550778", telegram_id: "8880778" });
  } finally {
    await vk.stop();
  }
}, { timeout: 90_000 });

test("login-link: admin signs in by address, sees Админка, and the address is cleaned", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  await page.goto(await t.server.loginLink("admin"));
  await expectSignedIn(page);
  await page.getByRole("navigation", { name: "Основное меню" }).getByRole("link", { name: "Админка" }).waitFor();
  await page.getByText("Авторизация успешно завершена!").waitFor();
  expect(new URL(page.url()).search).toBe("");
  // Session restore: a reload keeps the session.
  await page.reload();
  await expectSignedIn(page);
});

test("login link to another page: signed in there, and the tokens leave the address", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  const link = new URL(await t.server.loginLink("artist"));
  await page.goto(`${t.server.baseUrl}/profile${link.search}`);
  await expectSignedIn(page);
  await page.getByText("@artist").waitFor();
  expect(new URL(page.url()).pathname).toBe("/profile");
  expect(new URL(page.url()).search).toBe("");
});

/** The user the browser's stored access token belongs to. */
async function storedUser(page: Page): Promise<string> {
  return await page.evaluate(async () => {
    const res = await fetch("/api/auth/me", {
      headers: { Authorization: `Bearer ${localStorage.getItem("accessToken")}` },
    });
    return (await res.json()).user?.username;
  });
}

test("a login link never replaces a live session silently: «Остаться» keeps it, agreeing switches", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  await page.goto(await t.server.loginLink("artist"));
  await expectSignedIn(page);
  expect(await storedUser(page)).toBe("artist");

  // Someone sends the artist a link of another account, to a page other than the home page.
  const other = new URL(await t.server.loginLink("moderator"));
  await page.goto(`${t.server.baseUrl}/profile${other.search}`);
  const question = page.getByRole("dialog", { name: "Вы вошли как @artist. Войти как @moderator?" });
  await question.waitFor();
  // The tokens are already out of the address while the question is open.
  expect(new URL(page.url()).search).not.toContain("token");
  await t.screenshot(page, "auth-switch-question");
  await question.getByRole("button", { name: "Остаться" }).click();
  await question.waitFor({ state: "hidden" });
  expect(await storedUser(page)).toBe("artist");
  await page.getByText("@artist").waitFor();
  await page.reload();
  await expectSignedIn(page);
  expect(await storedUser(page)).toBe("artist");

  // The same on the home page; this time the person agrees.
  await page.goto(await t.server.loginLink("moderator"));
  const again = page.getByRole("dialog", { name: "Вы вошли как @artist. Войти как @moderator?" });
  await again.waitFor();
  expect(new URL(page.url()).search).toBe("");
  await again.getByRole("button", { name: "Войти как @moderator" }).click();
  await page.getByText("Авторизация успешно завершена!").waitFor();
  expect(await storedUser(page)).toBe("moderator");

  // A link of the account already signed in: no question.
  await page.goto(await t.server.loginLink("moderator"));
  await page.getByText("Авторизация успешно завершена!").waitFor();
  expect(await page.getByRole("dialog").count()).toBe(0);
  expect(await storedUser(page)).toBe("moderator");

  // A fresh browser with the link simply signs in (the spec's rule).
  const fresh = await t.page({ width: 1280, height: 800 });
  await fresh.goto(await t.server.loginLink("moderator"));
  await expectSignedIn(fresh);
  expect(await fresh.getByRole("dialog").count()).toBe(0);
  expect(await storedUser(fresh)).toBe("moderator");
});

test("guards: anonymous /profile → /login; artist /admin → /; signed-in /login → /", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  await page.goto(t.server.baseUrl + "/profile");
  await waitForPath(page, "/login");
  await page.getByRole("heading", { name: "Вход в систему" }).waitFor();
  await page.getByText("Вход через Telegram и ВКонтакте на этом сервере не настроен.").waitFor();
  await t.screenshot(page, "auth-login-unconfigured-1280");

  await page.goto(await t.server.loginLink("artist"));
  await expectSignedIn(page);
  await page.goto(t.server.baseUrl + "/admin");
  await waitForPath(page, "/");
  expect(await page.getByRole("link", { name: "Админка" }).count()).toBe(0);

  await page.goto(t.server.baseUrl + "/login");
  await waitForPath(page, "/");
  await page.goto(t.server.baseUrl + "/auth/vk/callback");
  await waitForPath(page, "/");
});

test("leaving the page while the sign-in check is still on its way keeps the session", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  // Hold the first account check of the sign-in address until the person has left: it answers only
  // then (released by the test, not after a pause that a slow machine may outlast).
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let holding!: () => void;
  const held = new Promise<void>((r) => (holding = r));
  let first = true;
  await page.route("**/api/auth/me", async (route) => {
    if (!first) return route.continue();
    first = false;
    holding();
    await released;
    await route.continue().catch(() => {});
  });
  await page.goto(await t.server.loginLink("artist"));
  await held;
  // The tokens left the address at once, before the check answered (decision 0202), and are kept.
  await page.waitForURL((u) => !u.searchParams.has("access_token"));
  await page.waitForFunction(() => Boolean(localStorage.getItem("accessToken")));
  await page.goto(t.server.baseUrl + "/profile");
  release();
  await waitForPath(page, "/profile");
  await page.getByText("@artist").waitFor();
  await expectSignedIn(page);
});

test("maintenance: everyone goes to /maintenance except a signed-in admin", async (t) => {
  const server = await t.startServer({ MAINTENANCE_MODE: "true" });
  const page = await t.page({ width: 1280, height: 800 });
  await page.goto(server.baseUrl + "/about");
  await waitForPath(page, "/maintenance");
  await page.getByText("Ведутся технические работы").waitFor();

  await page.goto(await server.loginLink("artist"));
  await waitForPath(page, "/maintenance");

  const admin = await t.page({ width: 1280, height: 800 });
  await admin.goto(await server.loginLink("admin"));
  await admin.getByRole("navigation", { name: "Основное меню" }).getByRole("link", { name: "Админка" }).waitFor();
  expect(new URL(admin.url()).pathname).toBe("/");
  await admin.goto(server.baseUrl + "/about");
  await admin.getByRole("heading").first().waitFor();
  expect(new URL(admin.url()).pathname).toBe("/about");
});

test("logout: flash, header without Профиль, and the old token is revoked", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  await page.goto(await t.server.loginLink("artist"));
  await expectSignedIn(page);
  const token = await page.evaluate(() => localStorage.getItem("accessToken"));
  await page.getByRole("navigation", { name: "Основное меню" }).getByRole("button", { name: "Выход" }).click();
  await page.getByText("Вы успешно вышли из системы.").waitFor();
  expect(await page.getByRole("link", { name: "Профиль" }).count()).toBe(0);
  expect(await page.evaluate(() => localStorage.getItem("accessToken"))).toBeNull();
  const status = await page.evaluate(
    async (tok) => (await fetch("/api/auth/me", { headers: { Authorization: `Bearer ${tok}` } })).status,
    token,
  );
  expect(status).toBe(401);
});

test("ban: the next account check shows Аккаунт заблокирован, then /login after 5 s", async (t) => {
  // Its own server: the ban must not leak into the other tests' seeded artist.
  const server = await t.startServer();
  const page = await t.page({ width: 1280, height: 800 });
  await page.goto(await server.loginLink("artist"));
  await expectSignedIn(page);
  const artistId = await page.evaluate(async () => {
    const res = await fetch("/api/auth/me", {
      headers: { Authorization: `Bearer ${localStorage.getItem("accessToken")}` },
    });
    return (await res.json()).user.id as number;
  });

  // An admin bans the artist through the admin API.
  const adminLink = new URL(await server.loginLink("admin"));
  const adminToken = adminLink.searchParams.get("access_token")!;
  const ban = await fetch(`${server.baseUrl}/api/admin/users/${artistId}/ban`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ reason: "Нарушение правил: заблокирован в тесте" }),
  });
  expect(ban.status).toBe(200);
  await ban.body?.cancel();

  // A route change runs the account check.
  await page.getByRole("navigation", { name: "Основное меню" }).getByRole("link", { name: "FAQ" }).click();
  const dialog = page.getByRole("dialog", { name: "Аккаунт заблокирован" });
  await dialog.waitFor();
  await t.screenshot(page, "auth-ban-modal");
  await dialog.waitFor({ state: "detached", timeout: 8000 });
  await waitForPath(page, "/login");
  expect(await page.evaluate(() => localStorage.getItem("accessToken"))).toBeNull();
});

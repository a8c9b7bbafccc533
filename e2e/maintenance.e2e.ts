/**
 * Maintenance mode in a real browser against a server started with MAINTENANCE_MODE=true
 * (docs/decisions/0090): administrators sign in and work, everyone else sees the maintenance screen,
 * which has no way back to itself, and the API refuses them too.
 */
import { startVkDouble } from "../server/testing/vk-double.ts";
import { type E2EServer, expect, type Page, test } from "./harness.ts";

const MAINTENANCE_TEXT = "Ведутся технические работы. Сайт временно недоступен, пожалуйста, зайдите позже.";

async function waitForPath(page: Page, path: string, timeout = 15_000) {
  await page.waitForURL((url) => url.pathname === path, { timeout });
}

async function api(server: E2EServer, token: string | null, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.baseUrl}/api${path}`, {
    ...init,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body ? { "Content-Type": "application/json" } : {}),
    },
  });
  return { status: res.status, body: await res.json() };
}

/** Addresses the page's links lead to, in-page anchors (the skip link) left out. */
async function linksLeavingThePage(page: Page): Promise<string[]> {
  const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.filter((h) => !h.startsWith("#"));
}

/** Opens the admin panel from the header and waits for its dashboard. */
async function openAdminPanel(page: Page) {
  await page.getByRole("navigation", { name: "Основное меню" }).getByRole("link", { name: "Админка" }).click();
  await waitForPath(page, "/admin");
  await page.getByRole("heading", { name: "Панель управления" }).waitFor();
}

test("maintenance: an administrator signs in with a login link on /login and works in the admin panel", async (t) => {
  const server = await t.startServer({ MAINTENANCE_MODE: "true" });
  const page = await t.page({ width: 1280, height: 800 });
  const link = new URL(await server.loginLink("admin"));
  await page.goto(`${server.baseUrl}/login${link.search}`);
  await waitForPath(page, "/");
  expect(new URL(page.url()).search).toBe("");
  await openAdminPanel(page);
  // The panel's own calls go through: the track list loads instead of the maintenance text.
  const list = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/tracks");
  await page.getByRole("link", { name: "Треки", exact: true }).click();
  await waitForPath(page, "/admin/tracks");
  expect((await list).status()).toBe(200);
  await page.getByRole("heading", { name: "Управление треками" }).waitFor();
  expect(await page.getByText(MAINTENANCE_TEXT).count()).toBe(0);
  await t.screenshot(page, "maintenance-admin-tracks-1280");
}, { timeout: 90_000 });

test(
  "maintenance: VK sign-in on the login page — a visitor ends on the maintenance screen, an administrator in the admin panel",
  async (t) => {
    const vk = await startVkDouble({ user: { user_id: "7770001", first_name: "Мария", last_name: "Админова" } });
    try {
      const server = await t.startServer({
        MAINTENANCE_MODE: "true",
        VK_CLIENT_ID: vk.clientId,
        VK_ID_BASE_URL: vk.url,
      });

      const signInWithVk = async () => {
        const page = await t.page({ width: 1280, height: 800 });
        const urlsFetched = page.waitForResponse((r) => r.url().includes("/api/auth/oauth/urls"));
        await page.goto(server.baseUrl + "/login");
        await page.getByRole("heading", { name: "Вход в систему" }).waitFor();
        expect(new URL(page.url()).pathname).toBe("/login");
        await urlsFetched;
        // The provider's window comes back to /login and /auth/vk/callback, which maintenance leaves
        // open; the server's callback must answer with tokens, not the maintenance screen.
        const tokensIssued = page.context().waitForEvent("request", {
          predicate: (r) => r.isNavigationRequest() && r.url().includes("/auth/vk/callback?login_code="),
          timeout: 20_000,
        });
        await page.getByRole("button", { name: "Войти через ВКонтакте" }).click();
        await tokensIssued;
        return page;
      };

      // First sign-in: a new account, not an administrator. The window that started it follows.
      const first = await signInWithVk();
      await waitForPath(first, "/maintenance");
      await first.getByRole("heading", { name: "Ведутся технические работы" }).waitFor();
      const token = await first.evaluate(() => localStorage.getItem("accessToken"));
      const me = await api(server, token, "/auth/me");
      expect(me.body.user).toMatchObject({ vk_id: "7770001", is_admin: false });

      // An administrator makes that account an administrator (the admin API works in maintenance).
      const adminToken = new URL(await server.loginLink("admin")).searchParams.get("access_token");
      const promoted = await api(server, adminToken, `/admin/users/${me.body.user.id}`, {
        method: "PUT",
        body: JSON.stringify({ is_admin: true }),
      });
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
      // Signed out, they sign in again with VK and get in.
      await api(server, token, "/auth/logout", { method: "POST" });

      const second = await signInWithVk();
      await waitForPath(second, "/");
      await openAdminPanel(second);
    } finally {
      await vk.stop();
    }
  },
  { timeout: 120_000 },
);

test(
  "maintenance: an artist sees the maintenance screen with no links back into the site, and the API refuses them",
  async (t) => {
    const server = await t.startServer({ MAINTENANCE_MODE: "true" });
    const page = await t.page({ width: 1280, height: 800 });
    const policyWarnings: string[] = [];
    page.on("console", (m) => {
      if (/permissions.policy/i.test(m.text())) policyWarnings.push(m.text());
    });

    // Anonymous first.
    await page.goto(server.baseUrl + "/faq");
    await waitForPath(page, "/maintenance");
    await page.getByRole("heading", { name: "Ведутся технические работы" }).waitFor();
    expect(await linksLeavingThePage(page)).toEqual([]);

    // Then signed in as an artist.
    const link = await server.loginLink("artist");
    await page.goto(link);
    await waitForPath(page, "/maintenance");
    await page.getByRole("heading", { name: "Ведутся технические работы" }).waitFor();
    expect(await linksLeavingThePage(page)).toEqual([]);
    await t.screenshot(page, "maintenance-artist-1280");

    // Проверить снова asks again and stays while maintenance lasts.
    const configAsked = page.waitForResponse((r) => r.url().endsWith("/api/config"));
    await page.getByRole("button", { name: "Проверить снова" }).click();
    await configAsked;
    expect(new URL(page.url()).pathname).toBe("/maintenance");

    // The server holds the line too: an upload (or any other call) is 503 with the maintenance text.
    const token = await page.evaluate(() => localStorage.getItem("accessToken"));
    const upload = await page.evaluate(async (tok) => {
      const form = new FormData();
      form.append("files", new File([new Uint8Array(1024)], "Artist - Title.mp3", { type: "audio/mpeg" }));
      form.append("directions", "label_koster");
      const res = await fetch("/api/upload", {
        method: "POST",
        body: form,
        headers: { Authorization: `Bearer ${tok}` },
      });
      return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
    }, token);
    expect(upload).toEqual({
      status: 503,
      body: { success: false, error: MAINTENANCE_TEXT, maintenance: true },
      cache: "no-store",
    });

    // A narrow window has no menu to open either.
    const phone = await t.page({ width: 390, height: 844 });
    await phone.goto(link);
    await waitForPath(phone, "/maintenance");
    await phone.getByRole("heading", { name: "Ведутся технические работы" }).waitFor();
    expect(await phone.getByRole("button", { name: "Меню" }).count()).toBe(0);
    expect(await linksLeavingThePage(phone)).toEqual([]);
    await t.screenshot(phone, "maintenance-artist-390");

    // Every feature named in the Permissions-Policy header is one Chromium knows.
    expect(policyWarnings).toEqual([]);
  },
  { timeout: 90_000 },
);

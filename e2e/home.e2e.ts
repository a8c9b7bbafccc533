/** The shared layout on the home page: header, footer, mobile menu, unknown paths. */
import { expect, type Page, test } from "./harness.ts";

const YEAR = new Date().getFullYear();

async function checkFooter(page: Page) {
  const footer = page.locator("footer");
  await footer.waitFor();
  const privacy = footer.getByRole("link", { name: "Политика конфиденциальности" });
  expect(await privacy.isVisible()).toBe(true);
  expect(await privacy.getAttribute("href")).toBe("/privacy");
  const text = await footer.innerText();
  // Copyright starts at 2024 (spec constant) and runs to the current year.
  expect(text).toMatch(YEAR > 2024 ? new RegExp(`©\\s*2024\\s*[–-]\\s*${YEAR}`) : /©\s*2024/);
}

async function checkLogo(page: Page) {
  const logo = page.locator("header").getByRole("link", { name: /Нейропанк/ }).first();
  await logo.waitFor();
  expect(await logo.isVisible()).toBe(true);
  expect(await logo.getAttribute("href")).toBe("/");
}

test("home page at 1280 px: header with logo, О нас and FAQ; footer with privacy link and copyright", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  const res = await page.goto(t.server.baseUrl + "/");
  expect(res?.status()).toBe(200);
  await checkLogo(page);
  const nav = page.getByRole("navigation", { name: "Основное меню" });
  await nav.waitFor();
  const about = nav.getByRole("link", { name: "О нас", exact: true });
  const faq = nav.getByRole("link", { name: "FAQ", exact: true });
  expect(await about.isVisible()).toBe(true);
  expect(await about.getAttribute("href")).toBe("/about");
  expect(await faq.isVisible()).toBe(true);
  expect(await faq.getAttribute("href")).toBe("/faq");
  // The mobile toggle is not shown on a wide screen.
  expect(await page.getByRole("button", { name: "Меню" }).isVisible()).toBe(false);
  await checkFooter(page);
  await t.screenshot(page, "home-1280");

  // The links navigate inside the app.
  await faq.click();
  await page.waitForURL(t.server.baseUrl + "/faq");
  await page.locator("header").waitFor();
  await checkFooter(page);
});

test("home page at 390 px: the menu toggle holds the links, footer shows", async (t) => {
  const page = await t.page({ width: 390, height: 844 });
  await page.goto(t.server.baseUrl + "/");
  await checkLogo(page);
  expect(await page.getByRole("navigation", { name: "Основное меню" }).isVisible()).toBe(false);
  const toggle = page.getByRole("button", { name: "Меню" });
  expect(await toggle.isVisible()).toBe(true);
  expect(await toggle.getAttribute("aria-expanded")).toBe("false");
  await checkFooter(page);
  // Nothing may stick out sideways on a phone.
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await t.screenshot(page, "home-390");

  await toggle.click();
  const menu = page.getByRole("navigation", { name: "Мобильное меню" });
  await menu.waitFor();
  expect(await toggle.getAttribute("aria-expanded")).toBe("true");
  expect(await menu.getByRole("link", { name: "О нас", exact: true }).isVisible()).toBe(true);
  expect(await menu.getByRole("link", { name: "FAQ", exact: true }).isVisible()).toBe(true);
  await t.screenshot(page, "home-390-menu");

  await menu.getByRole("link", { name: "О нас", exact: true }).click();
  await page.waitForURL(t.server.baseUrl + "/about");
  // Navigating closes the menu.
  await menu.waitFor({ state: "detached" });
});

test("an unknown path redirects to /", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  const res = await page.goto(t.server.baseUrl + "/no/such/page?x=1");
  // The server answers the app's HTML; the client then sends the visitor home.
  expect(res?.status()).toBe(200);
  await page.waitForURL(t.server.baseUrl + "/");
  await page.locator("header").waitFor();
  await checkFooter(page);
});

test("the server serves the seeded site: health, API 404, slider images, login links", async (t) => {
  const base = t.server.baseUrl;
  const health = await fetch(`${base}/api/health`);
  expect(await health.json()).toMatchObject({ success: true, db: "ok", kv: "ok" });
  const missing = await fetch(`${base}/api/nope`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toMatchObject({ success: false });

  const seeded = [...Deno.readDirSync(`${t.server.staticDir}/storage/slider`)].map((e) => e.name);
  expect(seeded.length).toBeGreaterThanOrEqual(2);
  const image = await fetch(`${base}/static/storage/slider/${seeded[0]}`);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type") ?? "").toMatch(/^image\/(png|jpeg)/);
  await image.body?.cancel();

  const link = new URL(await t.server.loginLink("admin"));
  expect(link.origin).toBe(base);
  const token = link.searchParams.get("access_token");
  expect(link.searchParams.get("refresh_token")).toBeTruthy();
  const me = await fetch(`${base}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect((await me.json()).user).toMatchObject({ username: "admin", is_admin: true });
});

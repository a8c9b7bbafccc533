/**
 * The privacy policy (/privacy, spec 1 §2): its text is a document of the build the page fetches
 * when it opens (decision 0431). The text shows, a #section address scrolls to it once it is there,
 * and a document that does not arrive says so, with «Повторить» fetching it again.
 */
import { expect, test } from "./harness.ts";

test("privacy: the policy's text is fetched and shown, a #section address is scrolled to", async (t) => {
  const page = await t.page({ width: 1280, height: 800 });
  const res = await page.goto(t.server.baseUrl + "/privacy#terms");
  expect(res?.status()).toBe(200);
  const terms = page.getByRole("heading", { name: "8. Условия использования" });
  await terms.waitFor();
  expect(await page.locator("time").getAttribute("datetime")).toBe("2025-04-21");
  expect(await page.getByText("Только drum&bass.").isVisible()).toBe(true);
  // The section is in view: its top is inside the window.
  await page.waitForFunction(() => {
    const top = document.getElementById("terms")?.getBoundingClientRect().top ?? -1;
    return top >= 0 && top < innerHeight;
  });
  // The document is a file of the build, cached by the browser like the other root files.
  const doc = await page.request.get(t.server.baseUrl + "/privacy-policy.html");
  expect(doc.status()).toBe(200);
  expect(doc.headers()["cache-control"]).toContain("max-age=");
  expect(await doc.text()).toContain('<h2 id="terms">8. Условия использования</h2>');
});

test("privacy: without the document the page says so, and Повторить brings the text", async (t) => {
  const page = await t.page({ width: 390, height: 844 });
  let offline = true;
  await page.route(
    (url) => url.pathname === "/privacy-policy.html",
    (route) => offline ? route.abort() : route.continue(),
  );
  await page.goto(t.server.baseUrl + "/privacy");
  const alert = page.getByRole("alert");
  await alert.waitFor();
  expect(await alert.innerText()).toContain("Не удалось загрузить документ");
  expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(
    "Политика конфиденциальности и условия использования",
  );
  offline = false;
  await page.getByRole("button", { name: "Повторить" }).click();
  await page.getByRole("heading", { name: "1. Общие положения" }).waitFor();
  expect(await page.getByRole("alert").count()).toBe(0);
});

test("navigation scrolls to the top (the build's scroll module, decision 0433)", async (t) => {
  const page = await t.page({ width: 390, height: 600 });
  await page.goto(t.server.baseUrl + "/privacy");
  await page.getByRole("heading", { name: "9. Изменения и контакты" }).waitFor();
  // The page's scrollTo, counted: a shorter page would clamp the scroll to 0 by itself, so the
  // call is what shows the router's doing.
  await page.evaluate(() => {
    const w = globalThis as unknown as { tops: number; scrollTo: (o?: ScrollToOptions) => void };
    const original = w.scrollTo.bind(globalThis);
    w.tops = 0;
    w.scrollTo = (o?: ScrollToOptions) => {
      if (o?.top === 0 && o.left === 0) w.tops++;
      original(o);
    };
    w.scrollTo({ top: 700 });
  });
  await page.waitForFunction(() => scrollY === 700);
  // The «Отправить трек» link, clicked where it is (no scrolling to it).
  await page.locator("main .cta-row").getByRole("link", { name: "Отправить трек" }).evaluate((a) =>
    (a as HTMLElement).click()
  );
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByRole("heading", { level: 1, name: "Отправить трек" }).waitFor();
  await page.waitForFunction(() => (globalThis as unknown as { tops: number }).tops === 1);
  expect(await page.evaluate(() => scrollY)).toBe(0);
});

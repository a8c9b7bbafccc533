/**
 * Issue 31's artist pages in Chromium: three files sent from the upload page (as resumable uploads,
 * one after another) are three rows on /processing, not «1/1» (docs/decisions/0285); the profile's
 * history at 390×844 starts on the first screen under the folded profile card (0288); the staff
 * download state reads as a line of its own, never beside the review state (0286); a promise whose
 * day has passed reads «ответ задерживается, обещали до …» (0287). Screenshots of /processing and the
 * profile at 390 and 1440 px; axe finds no serious violation on them.
 */
import { Buffer } from "node:buffer";
import { audit } from "./axe-kit.ts";
import { expect, type Page, test } from "./harness.ts";
import { apiAs, FIXTURES, newUser, runArtist, signIn, tokensOf, uniqueMp3, uploadAs, WIDE } from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const DAY_MS = 86_400_000;
/** Three different recordings: the same one twice from one artist would be refused as a copy. */
const SOURCES = ["Test Artist - Amen Study.mp3", "Key Artist - F Minor.mp3", "Key Artist - Bb Major.mp3"];

/** No sideways scrolling at this width. */
async function fits(page: Page) {
  const w = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(w.page).toBeLessThanOrEqual(w.view);
}

test("three files sent from the upload page are three rows on /processing (390 and 1440)", async (t) => {
  const artist = await newUser(t, "Batch");
  const name = runArtist("Batch");
  const files = await Promise.all(SOURCES.map(async (source, i) => ({
    name: `${name} - Part ${i + 1}.mp3`,
    mimeType: "audio/mpeg",
    buffer: Buffer.from(uniqueMp3(await Deno.readFile(new URL(source, FIXTURES)), `batch ${i}`)),
  })));

  const page = await signIn(t, artist.username, PHONE);
  await page.goto(t.server.baseUrl + "/");
  await page.getByTestId("file-input").setInputFiles(files);
  const rows = page.getByTestId("file-row");
  await rows.nth(2).waitFor();
  await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
  await page.getByRole("radio", { name: "Нет", exact: true }).check();
  // Each file goes as a resumable upload of its own and is completed on its own (issue 26).
  const completions: number[] = [];
  page.on("response", (r) => {
    if (/^\/api\/upload\/resumable\/[^/]+\/complete$/.test(new URL(r.url()).pathname)) completions.push(r.status());
  });
  await page.getByRole("button", { name: "Загрузить трек" }).click();
  await page.waitForURL((u) => u.pathname === "/processing", { timeout: 60_000 });
  expect(completions).toEqual([200, 200, 200]);

  const status = page.getByRole("list", { name: "Статус треков" }).getByTestId("track-status");
  for (const f of files) await status.filter({ hasText: f.name }).getByText("Завершено").waitFor({ timeout: 60_000 });
  expect(await status.count()).toBe(3);
  await page.locator(".summary-count").filter({ hasText: "3/3" }).waitFor();
  await fits(page);
  const found = await audit(page, "/processing at 390");
  await page.evaluate(() => scrollTo(0, 0));
  await t.screenshot(page, "artist-processing-390");

  // The same batch in another window at 1440 (read again from the server).
  const wide = await signIn(t, artist.username, WIDE);
  await wide.goto(t.server.baseUrl + "/processing");
  const wideRows = wide.getByRole("list", { name: "Статус треков" }).getByTestId("track-status");
  await wideRows.nth(2).getByText("Завершено").waitFor();
  expect(await wideRows.count()).toBe(3);
  expect(await wide.locator(".summary-count").innerText()).toBe("3/3");
  found.push(...await audit(wide, "/processing at 1440"));
  expect(found).toEqual([]);
  await t.screenshot(wide, "artist-processing-1440");
}, { timeout: 120_000 });

test(
  "the history at 390×844: the first track on the first screen, the download line apart, a passed promise late",
  async (t) => {
    const artist = await newUser(t, "Hist");
    const name = runArtist("Hist");
    // Two tracks in two directions each; the staff download the older one.
    const [older] = await uploadAs(
      t,
      artist.access,
      [{ name: `${name} - Older.mp3`, source: SOURCES[0] }],
      "label_koster",
    );
    const [newer] = await uploadAs(
      t,
      artist.access,
      [{ name: `${name} - Newer.mp3`, source: SOURCES[1] }],
      "label_koster,show_neurogon",
    );
    const admin = await tokensOf(t, "admin");
    const link = await apiAs(t, admin.access, `/admin/tracks/download/${older.id}`);
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    await (await fetch(`${t.server.baseUrl}${link.body.download_url}`)).arrayBuffer();

    // --- Today: «ответ до …» beside «На рассмотрении»; the download state on its own line.
    const page = await signIn(t, artist.username, PHONE);
    await page.goto(t.server.baseUrl + "/profile");
    const first = page.getByTestId("my-track").first();
    await first.getByText(newer.filename).waitFor();
    expect(await first.getByTestId("my-track-download").innerText()).toBe(
      "Скачивание файла: В обработке — команда ещё не скачала файл",
    );
    const pairs = first.getByTestId("my-track-decision");
    expect(await pairs.count()).toBe(2);
    for (const text of await pairs.allInnerTexts()) {
      expect(text).toContain("На рассмотрении");
      // The promise: on its own line, or inside the queue line once the direction has a pace of
      // decisions («… ответ ожидается около 12.12 (обещали до 13.12)», issue 36, decision 0385).
      expect(text).toMatch(/ответ до \d\d\.\d\d\.\d{4}|\(обещали до \d\d\.\d\d\)/);
      // Never a download state beside the review state.
      expect(text).not.toContain("В обработке");
      expect(text).not.toContain("Загружен");
    }
    const downloaded = page.getByTestId("my-track").filter({ hasText: older.filename });
    // The staff's download reaches the artist's kept list at once.
    expect(await downloaded.getByTestId("my-track-download").innerText()).toBe(
      "Скачивание файла: Загружен — команда скачала файл",
    );

    // The first track lies wholly within the first screen, under the folded profile card.
    const box = await first.boundingBox();
    const heading = await page.getByRole("heading", { name: "Мои треки" }).boundingBox();
    console.log(
      `  390×844: «Мои треки» at ${Math.round(heading!.y)} px, first track ${Math.round(box!.y)}–${
        Math.round(box!.y + box!.height)
      } px`,
    );
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    expect(await page.getByText("Город").isVisible()).toBe(false);
    await fits(page);
    const found = await audit(page, "/profile at 390, folded");
    await t.screenshot(page, "artist-profile-390");

    // The folded details open with one tap, and fold again.
    const toggle = page.getByRole("button", { name: "Данные профиля" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await page.getByText("Город").waitFor();
    expect(await page.getByRole("button", { name: "Скрыть данные" }).getAttribute("aria-expanded")).toBe("true");
    found.push(...await audit(page, "/profile at 390, open"));
    await t.screenshot(page, "artist-profile-390-open");

    // --- 16 days on, by the browser's clock: the 14-day promise has passed without an answer.
    const later = await signIn(t, artist.username, PHONE);
    await later.clock.setFixedTime(Date.now() + 16 * DAY_MS);
    await later.goto(t.server.baseUrl + "/profile");
    const late = later.getByTestId("my-track").first();
    await late.getByText(newer.filename).waitFor();
    const promises = late.getByTestId("my-track-respond-by");
    expect(await promises.count()).toBe(2);
    for (const text of await promises.allInnerTexts()) {
      expect(text).toMatch(/^ответ задерживается, обещали до \d\d\.\d\d\.\d{4}$/);
    }
    found.push(...await audit(later, "/profile at 390, promises late"));
    await later.evaluate(() => scrollTo(0, 0));
    await t.screenshot(later, "artist-profile-late-390");

    // --- 1440: the card whole (nothing folded), the history below it.
    const wide = await signIn(t, artist.username, WIDE);
    await wide.clock.setFixedTime(Date.now() + 16 * DAY_MS);
    await wide.goto(t.server.baseUrl + "/profile");
    await wide.getByTestId("my-track").first().getByText(newer.filename).waitFor();
    expect(await wide.getByText("Город").isVisible()).toBe(true);
    expect(await wide.getByRole("button", { name: "Данные профиля" }).isVisible()).toBe(false);
    found.push(...await audit(wide, "/profile at 1440, promises late"));
    expect(found).toEqual([]);
    await t.screenshot(wide, "artist-profile-1440");
  },
  { timeout: 120_000 },
);

/**
 * The artist's journey from start to end (issue 5): sign in with a login link, add a valid and an
 * invalid file, remove the invalid one, pick directions, upload with progress, watch processing end,
 * find the track in the profile, edit the profile with an avatar. Then a screenshot of every page of
 * the user side at 1280 and 390 px.
 */
import { watchApiCalls } from "./api-calls.ts";
import { expect, type Page, test } from "./harness.ts";
import { apiAs, newUser, tokensOf, uploadAs, waitCompleted } from "./staff-kit.ts";

const FIXTURES = new URL("../test/fixtures/audio/", import.meta.url).pathname;
const VALID = "Test Artist - Amen Study.mp3";

/** A seeded slider image: a real JPEG or PNG to use as an avatar. */
function seededImage(staticDir: string): string {
  const name = [...Deno.readDirSync(`${staticDir}/storage/slider`)]
    .map((e) => e.name)
    .find((n) => /\.(png|jpe?g)$/i.test(n));
  if (!name) throw new Error("no seeded slider image to use as an avatar");
  return `${staticDir}/storage/slider/${name}`;
}

/** The first screen only: full-page shots of long pages at 390 px are too tall to look at. */
async function firstScreen(page: Page, name: string) {
  const dir = new URL("../test-artifacts/screenshots/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}${name}-top.png` });
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("artist journey: sign in, upload with progress, processing, profile, avatar", async (t) => {
  const page = await t.page({ width: 1280, height: 900 });
  const base = t.server.baseUrl;

  // An artist of its own (the journey fills the profile and sets an avatar), signed in with a login
  // link: the tokens are taken, a banner says so and the address is cleaned.
  const artist = await newUser(t, "Journey");
  await page.goto(artist.link);
  await page.getByText("Авторизация успешно завершена!").waitFor();
  await page.waitForURL((url) => !url.search.includes("access_token"));
  expect(new URL(page.url()).pathname).toBe("/");
  await page.getByRole("navigation", { name: "Основное меню" }).getByRole("link", { name: "Профиль" }).waitFor();

  // Two files: one valid fixture, one copy under a name without the " - " separator.
  const tmp = await Deno.makeTempDir({ prefix: "np-e2e-journey-" });
  const invalidPath = `${tmp}/NoSeparator.mp3`;
  await Deno.copyFile(`${FIXTURES}/Low Rate - 128 kbps.mp3`, invalidPath);
  await page.getByTestId("file-input").setInputFiles([`${FIXTURES}/${VALID}`, invalidPath]);
  const rows = page.getByTestId("file-row");
  await rows.nth(1).waitFor();
  expect(await rows.count()).toBe(2);

  // The invalid name is marked red and blocks the upload.
  const bad = rows.filter({ hasText: "NoSeparator.mp3" });
  expect(await bad.getAttribute("data-valid")).toBe("false");
  const mark = bad.locator(".file-status-invalid");
  expect(await mark.isVisible()).toBe(true);
  const markColour = await mark.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(markColour).toBe("rgb(255, 77, 109)");
  const nameColour = await bad.locator(".file-name").evaluate((el) => getComputedStyle(el).color);
  expect(nameColour).toBe("rgb(255, 77, 109)");
  expect(await page.getByText("Следующие файлы имеют неверный формат имени:").isVisible()).toBe(true);
  // The preview player knows the valid file's length (8 s).
  const good = rows.filter({ hasText: VALID });
  await good.getByText("0:00 / 0:08").waitFor();
  await t.screenshot(page, "journey-invalid-name-1280");

  await bad.getByRole("button", { name: "Удалить NoSeparator.mp3" }).click();
  await bad.waitFor({ state: "detached" });
  expect(await rows.count()).toBe(1);

  // Directions: a choice disables the ones that conflict with it, with the message.
  const submit = page.getByRole("button", { name: "Загрузить трек" });
  expect(await submit.isDisabled()).toBe(true);
  await page.getByRole("checkbox", { name: "Лейбл Нейропанк" }).check();
  expect(await page.getByRole("checkbox", { name: "Лейбл Костёр" }).isDisabled()).toBe(true);
  expect(await page.getByRole("checkbox", { name: "Шоу Нейрогон" }).isDisabled()).toBe(true);
  expect(await page.getByText("Это направление нельзя выбрать вместе с уже выбранными направлениями.").isVisible())
    .toBe(true);
  await page.getByRole("checkbox", { name: "Подкаст Нейропанк" }).check();
  // The AI question (issue 25): the batch waits for its answer.
  expect(await submit.isDisabled()).toBe(true);
  await page.getByRole("radio", { name: "Нет", exact: true }).check();
  expect(await submit.isDisabled()).toBe(false);
  await t.screenshot(page, "journey-ready-1280");

  // Upload over a slowed-down connection so the progress can be watched.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 96 * 1024,
  });
  await page.evaluate(() => {
    const seen: number[] = [];
    (globalThis as unknown as { __progress: number[] }).__progress = seen;
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) {
        const v = Number(bar.getAttribute("aria-valuenow"));
        if (seen[seen.length - 1] !== v) seen.push(v);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
  expect(await submit.isEnabled()).toBe(true);
  await submit.click();
  await page.getByRole("button", { name: "Загрузка..." }).waitFor();
  await page.getByRole("progressbar").waitFor();
  await t.screenshot(page, "journey-uploading-1280");
  await page.getByRole("button", { name: "Успешно загружено!" }).waitFor({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const progress = await page.evaluate(() => (globalThis as unknown as { __progress: number[] }).__progress);
  expect(progress[progress.length - 1]).toBe(100);
  expect(progress.some((v) => v > 0 && v < 100)).toBe(true);

  // After a second the list is cleared and the processing page shows the batch.
  await page.waitForURL(`${base}/processing`);
  const status = page.getByTestId("track-status").filter({ hasText: VALID });
  await status.getByText("Завершено").waitFor({ timeout: 30_000 });
  const failedSection = page.getByRole("region", { name: "Файлы, не прошедшие проверку" });
  expect(await failedSection.getByText("NoSeparator.mp3").isVisible()).toBe(true);
  expect(await failedSection.getByText("Не загружен").isVisible()).toBe(true);
  await t.screenshot(page, "processing-1280");

  // The profile lists the track, not yet downloaded by the label.
  await page.getByRole("navigation", { name: "Основное меню" }).getByRole("link", { name: "Профиль" }).click();
  await page.waitForURL(`${base}/profile`);
  const track = page.getByTestId("my-track").filter({ hasText: VALID });
  await track.waitFor();
  expect(await track.getByText("В обработке").isVisible()).toBe(true);

  // Edit the profile with an avatar.
  await page.getByRole("link", { name: "Редактировать профиль" }).click();
  await page.waitForURL(`${base}/profile/edit`);
  await page.getByLabel("Имя", { exact: true }).fill("Алекс");
  await page.getByLabel("Фамилия").fill("Басс");
  await page.getByLabel("Город").fill("Санкт-Петербург");
  await page.getByLabel("Дата рождения").fill("1994-03-08");
  await page.getByLabel("О себе").fill("Пишу нейрофанк и джангл с 2012 года.");
  expect(await page.getByText("36/500").isVisible()).toBe(true);
  await page.getByLabel("Любимый жанр").selectOption("Neurofunk");
  await page.getByLabel("Аватар").setInputFiles(seededImage(t.server.staticDir));
  await page.getByRole("button", { name: "Сохранить" }).click();
  await page.getByText("Профиль успешно обновлен").waitFor();
  await t.screenshot(page, "profile-edit-saved-1280");

  await page.getByRole("link", { name: "К профилю" }).click();
  await page.waitForURL(`${base}/profile`);
  await page.getByRole("heading", { name: "Алекс Басс" }).waitFor();
  const avatar = page.getByTestId("avatar").locator("img");
  await avatar.waitFor();
  expect(await avatar.getAttribute("src")).toMatch(/^\/static\/storage\/avatars\/[0-9a-f-]{36}\.(jpg|png)$/);
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="avatar"] img');
    return Boolean(img?.complete && img.naturalWidth > 0);
  });
  expect(await page.getByText("Санкт-Петербург").isVisible()).toBe(true);
  expect(await page.getByText("08.03.1994").isVisible()).toBe(true);
  await t.screenshot(page, "profile-1280");
  await Deno.remove(tmp, { recursive: true });
}, { timeout: 120_000 });

test("anonymous visitor: Войти для загрузки opens the login dialog", async (t) => {
  const page = await t.page({ width: 1280, height: 900 });
  await page.goto(t.server.baseUrl + "/");
  // The seeded track tile embeds the SoundCloud player, 166 px high (it cannot load offline).
  const player = page.locator(".slide-track iframe");
  await player.waitFor({ state: "attached" });
  expect(await player.getAttribute("src")).toBe(
    "https://w.soundcloud.com/player/?url=" + encodeURIComponent("https://soundcloud.com/neuropunk"),
  );
  expect(await player.evaluate((el) => el.getBoundingClientRect().height)).toBe(166);
  const prompt = page.getByRole("button", { name: "Войти для загрузки" });
  await prompt.waitFor();
  await prompt.click();
  await page.getByRole("dialog").waitFor();
  expect(await page.getByRole("dialog").getByText("Войти через Telegram").count()).toBeGreaterThan(0);
  await t.screenshot(page, "home-login-dialog-1280");
});

const PUBLIC_PAGES = ["/", "/about", "/faq", "/privacy", "/error", "/maintenance", "/login"];
const SIGNED_IN_PAGES = ["/", "/processing", "/profile", "/profile/edit", "/success"];

for (const width of [1280, 390]) {
  test(`every user-side page renders at ${width} px without sideways scrolling`, async (t) => {
    const height = width === 390 ? 844 : 900;
    const anon = await t.page({ width, height });
    const anonCalls = watchApiCalls(anon);
    // The cookie bar is shown once; accept it on the first page so it does not cover the others.
    await anon.goto(t.server.baseUrl + "/");
    await anon.getByRole("button", { name: "Понятно" }).click();
    for (const path of PUBLIC_PAGES) {
      await anon.goto(t.server.baseUrl + path);
      await anon.locator("main h1").first().waitFor();
      if (path === "/faq") {
        const first = anon.locator(".acc-button").first();
        await first.waitFor();
        await first.click();
      }
      // Its content: the page's reads have answered (their events), not a quiet network.
      await anonCalls.settled();
      await noSidewaysScroll(anon);
      const name = `page${path === "/" ? "-home" : path.replaceAll("/", "-")}-anon-${width}`;
      await t.screenshot(anon, name);
      await firstScreen(anon, name);
    }

    // An artist of its own with a filled profile and a processed upload, so /processing and
    // /profile have content to lay out.
    const artist = await newUser(t, "Pages");
    const [track] = await uploadAs(t, artist.access, [{
      name: `${artist.username} - Wide Layout Check.mp3`,
      source: VALID,
    }], "label_neuropunk");
    const profile = new FormData();
    // A long name without spaces, as a person may have: it wraps on a phone, it does not widen the page.
    profile.append("first_name", "Александрина");
    profile.append("last_name", "Константинопольская-Басс");
    profile.append("city", "Санкт-Петербург");
    profile.append("bio", "Пишу нейрофанк и джангл с 2012 года.");
    expect((await apiAs(t, artist.access, "/profile/update", { method: "POST", body: profile })).status).toBe(200);
    await waitCompleted(t, (await tokensOf(t, "admin")).access, [track.id]);

    const page = await t.page({ width, height });
    const calls = watchApiCalls(page);
    await page.goto(artist.link);
    await page.waitForURL((url) => !url.search.includes("access_token"));
    await page.getByRole("button", { name: "Понятно" }).click();
    for (const path of SIGNED_IN_PAGES) {
      await page.goto(t.server.baseUrl + path);
      await page.locator("main h1").first().waitFor();
      await calls.settled();
      await noSidewaysScroll(page);
      const name = `page${path === "/" ? "-home" : path.replaceAll("/", "-")}-artist-${width}`;
      await t.screenshot(page, name);
      await firstScreen(page, name);
    }
    if (width === 390) {
      await page.getByRole("button", { name: "Меню" }).click();
      await page.getByRole("navigation", { name: "Мобильное меню" }).getByRole("link", { name: "Профиль" }).waitFor();
      await t.screenshot(page, "mobile-menu-artist-390");
    }
  }, { timeout: 120_000 });
}

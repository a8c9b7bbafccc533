/**
 * The administrator panel in Chromium (issue 6): tracks (filter, ZIP of two, edit), FAQ reorder,
 * a slider tile with an image, a ban that throws the user out, the status-store cleanup, and a
 * screenshot of every admin page at 1440 px.
 */
import { unzipSync } from "fflate";
import { Buffer } from "node:buffer";
import { expect, test } from "./harness.ts";
import {
  apiAs,
  newUser,
  open,
  runArtist,
  signIn,
  tokensOf,
  uploadAs,
  waitCompleted,
  watchDownloads,
} from "./staff-kit.ts";

const ARTIST = runArtist("Adm");

test("admin panel: filter tracks, download two as a ZIP, edit one", async (t) => {
  // The artist uploads two tracks through the real upload API.
  const artist = await tokensOf(t, "artist");
  const uploaded = await uploadAs(t, artist.access, [
    { name: `${ARTIST} - Amen One.mp3`, source: "Test Artist - Amen Study.mp3" },
    { name: `${ARTIST} - Low Two.mp3`, source: "Low Rate - 128 kbps.mp3" },
  ], "label_koster");

  const admin = await tokensOf(t, "admin");
  await waitCompleted(t, admin.access, uploaded.map((tr) => tr.id));

  const page = await signIn(t, "admin");
  const { all: downloads, first: firstDownload } = watchDownloads(page);
  const popups: string[] = [];
  page.context().on("page", (p) => popups.push(p.url()));

  await open(page, t, "/admin/tracks", "Управление треками");
  const bulk = page.getByRole("button", { name: /^Скачать выбранные/ });
  expect(await bulk.isDisabled()).toBe(true);
  await t.screenshot(page, "admin-tracks-1440");

  // Filter by the run's artist name: exactly the two uploads remain.
  await page.getByLabel("Название трека").fill(ARTIST);
  const rows = page.locator("tbody tr[data-track-id]");
  await page.waitForFunction((n) => document.querySelectorAll("tbody tr[data-track-id]").length === n, 2);
  expect((await rows.allInnerTexts()).every((r) => r.includes(ARTIST))).toBe(true);
  expect(await page.getByText("Показано 2 из 2").isVisible()).toBe(true);
  // A filter that matches nothing shows the empty state.
  await page.getByLabel("Направление").selectOption("show_neurogon");
  await page.getByText("Треки не найдены").waitFor();
  await page.getByLabel("Направление").selectOption("label_koster");
  await page.waitForFunction(() => document.querySelectorAll("tbody tr[data-track-id]").length === 2);

  // Select all (this page) and download them as one ZIP in a new tab.
  await page.getByLabel("Выбрать все на странице").check();
  expect(await bulk.isEnabled()).toBe(true);
  expect(await bulk.innerText()).toContain("(2)");
  const zipAnswer = page.waitForResponse((r) =>
    r.url().includes("/api/admin/tracks/download") && r.request().method() === "POST"
  );
  await bulk.click();
  const { download_url } = await (await zipAnswer).json();
  expect(download_url).toBeTruthy();
  await firstDownload;
  expect(downloads.length).toBe(1);
  expect(downloads[0].url()).toContain("access_token=");
  const zipPath = await downloads[0].path();
  const files = unzipSync(await Deno.readFile(zipPath!));
  const inZip = Object.keys(files).sort();
  expect(inZip).toEqual(uploaded.map((tr) => tr.filename).sort());
  for (const tr of uploaded) {
    const got = files[tr.filename];
    expect(got.length).toBe(tr.bytes.length);
    expect(got.every((b, i) => b === tr.bytes[i])).toBe(true);
  }
  // Marked downloaded on the screen at once, and on the server.
  await page.waitForFunction(() =>
    [...document.querySelectorAll("tbody tr[data-track-id]")].every((r) =>
      r.textContent?.includes("Скачан") && !r.textContent?.includes("Не скачан")
    )
  );
  expect(await bulk.isDisabled()).toBe(true);
  for (const tr of uploaded) {
    expect((await apiAs(t, admin.access, `/admin/tracks/${tr.id}`)).body.track.downloaded).toBe(true);
  }

  // The downloaded filter and the reset button.
  await page.getByLabel("Статус").selectOption("false");
  await page.getByText("Треки не найдены").waitFor();
  await page.getByRole("button", { name: "Сбросить" }).click();
  expect(await page.getByLabel("Название трека").inputValue()).toBe("");
  expect(await page.getByLabel("Статус").inputValue()).toBe("");

  // Edit the first upload: add a direction, mark it not downloaded. The view stays after saving.
  const first = uploaded[0];
  await page.goto(`${t.server.baseUrl}/admin/tracks/${first.id}/edit`);
  await page.getByRole("heading", { level: 1, name: "Редактирование трека" }).waitFor();
  const filename = page.getByLabel("Имя файла");
  await filename.waitFor();
  expect(await filename.inputValue()).toBe(first.filename);
  expect(await filename.isDisabled()).toBe(true);
  expect(await page.getByText("Имя файла нельзя изменить").isVisible()).toBe(true);
  // Лейбл Нейропанк conflicts with Лейбл Костер, so it cannot be added.
  expect(await page.getByRole("checkbox", { name: "Лейбл Нейропанк" }).isDisabled()).toBe(true);
  await page.getByRole("checkbox", { name: "Подкаст Костер" }).check();
  await page.getByRole("checkbox", { name: "Скачан" }).uncheck();
  expect(await page.getByLabel("Имя гостя").isDisabled()).toBe(true);
  await t.screenshot(page, "admin-track-edit-1440");
  // Saving an existing track stays on its page: the page answers with its message and no navigation
  // (a new track's save goes to the list in the same step), not checked by waiting a while.
  let navigations = 0;
  const counted = (f: { parentFrame(): unknown }) => void (f.parentFrame() === null && navigations++);
  page.on("framenavigated", counted);
  await page.getByRole("button", { name: "Сохранить", exact: true }).click();
  await page.getByText("Трек успешно сохранен").waitFor();
  page.off("framenavigated", counted);
  expect(navigations).toBe(0);
  expect(new URL(page.url()).pathname).toBe(`/admin/tracks/${first.id}/edit`);
  const saved = (await apiAs(t, admin.access, `/admin/tracks/${first.id}`)).body.track;
  expect(saved.directions).toBe("label_koster,podcast_koster");
  expect(saved.downloaded).toBe(false);
  expect(saved.filename).toBe(first.filename);

  // The add form (no id) and a 390 px look at the list.
  await open(page, t, "/admin/tracks/edit", "Добавление трека");
  await t.screenshot(page, "admin-track-add-1440");
  const phone = await signIn(t, "admin", { width: 390, height: 844 });
  await open(phone, t, "/admin/tracks", "Управление треками");
  await t.screenshot(phone, "admin-tracks-390");
  const overflow = await phone.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  expect(overflow).toBeLessThanOrEqual(0);
}, { timeout: 120_000 });

test("admin panel: the tracks table fits a 1440 px window with its widest row", async (t) => {
  // The widest row the list can show: three directions, a processing failure badge and a long name.
  const wide = {
    id: 990001,
    filename: "Очень Длинное Имя Артиста - Очень Длинное Название Трека (Extended Mix).mp3",
    user_id: 3,
    guest_username: null,
    user_info: { id: 3, username: "artist", name: "Артист Тестовый" },
    upload_date: "2026-03-05T14:07:00.000Z",
    directions: "label_koster,podcast_koster,show_neurogon",
    downloaded: false,
    status: "failed",
  };
  const page = await signIn(t, "admin");
  await page.route((u) => u.pathname === "/api/admin/tracks", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ success: true, tracks: [wide], total: 1, filtered: 1, page: 1, pages: 1, page_size: 10 }),
    }));
  await open(page, t, "/admin/tracks", "Управление треками");
  await page.getByRole("button", { name: `Удалить: ${wide.filename}` }).waitFor();
  const overflow = await page.locator(".st-table-wrap").evaluate((el) => el.scrollWidth - el.clientWidth);
  // Wider than the window, the Действия column (and Удалить) was cut off behind a scroll bar.
  expect(overflow).toBeLessThanOrEqual(0);
  await t.screenshot(page, "admin-tracks-wide-row-1440");
});

test("admin panel: dashboard with the four cards and period buttons", async (t) => {
  const page = await signIn(t, "admin");
  await open(page, t, "/admin", "Панель управления");
  await page.getByText("Всего пользователей").waitFor();
  for (const label of ["Всего треков", "Скачано треков", "Топ пользователь"]) {
    expect(await page.getByText(label, { exact: true }).isVisible()).toBe(true);
  }
  const years = page.locator(".st-card", { hasText: "Лет на сцене" }).locator(".st-card-value");
  expect(await years.innerText()).toBe(String(new Date().getFullYear() - 2000));
  expect(await page.getByRole("button", { name: "Месяц" }).getAttribute("aria-pressed")).toBe("true");
  const dayAnswer = page.waitForResponse((r) =>
    r.url().includes("/api/admin/dashboard") && r.url().includes("period=day")
  );
  await page.getByRole("button", { name: "День" }).click();
  await dayAnswer;
  expect(await page.getByRole("button", { name: "День" }).getAttribute("aria-pressed")).toBe("true");
  await page.getByRole("button", { name: "Месяц" }).click();
  await t.screenshot(page, "admin-dashboard-1440");
});

test("admin panel: FAQ reordered by swapping with the neighbour; editor preview", async (t) => {
  const admin = await tokensOf(t, "admin");
  const before = (await apiAs(t, admin.access, "/admin/faq")).body.faqs
    .sort((a: { order: number; id: number }, b: { order: number; id: number }) => a.order - b.order || a.id - b.id);
  expect(before.length).toBeGreaterThanOrEqual(2);
  const page = await signIn(t, "admin");
  await open(page, t, "/admin/faq", "Управление FAQ");
  const items = page.locator("li[data-faq-id]");
  await items.first().waitFor();
  expect(await page.getByRole("button", { name: `Переместить вверх: ${before[0].question}` }).isDisabled()).toBe(true);
  const last = before[before.length - 1];
  expect(await page.getByRole("button", { name: `Переместить вниз: ${last.question}` }).isDisabled()).toBe(true);
  await t.screenshot(page, "admin-faq-1440");

  await page.getByRole("button", { name: `Переместить вниз: ${before[0].question}` }).click();
  await page.waitForFunction(
    (id) => document.querySelectorAll("li[data-faq-id]")[1]?.getAttribute("data-faq-id") === String(id),
    before[0].id,
  );
  expect(await items.first().getAttribute("data-faq-id")).toBe(String(before[1].id));
  const after = (await apiAs(t, admin.access, "/admin/faq")).body.faqs;
  const orderOf = (id: number) => after.find((f: { id: number }) => f.id === id).order;
  expect(orderOf(before[0].id)).toBe(before[1].order);
  expect(orderOf(before[1].id)).toBe(before[0].order);

  // The modal add form proposes the next order.
  await page.getByRole("button", { name: "Добавить вопрос" }).click();
  const dialog = page.getByRole("dialog", { name: "Новый вопрос" });
  await dialog.waitFor();
  const maxOrder = Math.max(...after.map((f: { order: number }) => f.order));
  expect(await dialog.getByLabel("Порядок").inputValue()).toBe(String(maxOrder + 1));
  expect(await dialog.getByRole("button", { name: "Сохранить" }).isDisabled()).toBe(true);
  await t.screenshot(page, "admin-faq-modal-1440");
  await dialog.getByRole("button", { name: "Отмена" }).click();

  // The edit page previews paragraphs and line breaks as they are typed.
  await open(page, t, `/admin/faq/${before[1].id}/edit`, "Редактирование FAQ");
  const answer = page.getByLabel("Ответ");
  await answer.fill("Первая строка\nвторая строка\n\nНовый абзац");
  const preview = page.getByTestId("faq-preview-body");
  expect(await preview.innerHTML()).toBe("<p>Первая строка<br>вторая строка</p><p>Новый абзац</p>");
  await t.screenshot(page, "admin-faq-edit-1440");
  await open(page, t, "/admin/faq/edit", "Новый вопрос FAQ");
  await page.getByText("Здесь появится вопрос").waitFor();
  await t.screenshot(page, "admin-faq-add-1440");
});

test("admin panel: a slider tile with an image", async (t) => {
  const admin = await tokensOf(t, "admin");
  const seeded = [...Deno.readDirSync(`${t.server.staticDir}/storage/slider`)].map((e) => e.name);
  const image = await Deno.readFile(`${t.server.staticDir}/storage/slider/${seeded[0]}`);
  const isPng = image[0] === 0x89;
  const page = await signIn(t, "admin");
  await open(page, t, "/admin/slider", "Управление слайдером");
  await page.locator("[data-tile-id]").first().waitFor();
  const countBefore = (await apiAs(t, admin.access, "/admin/slider")).body.sliders.length;
  await t.screenshot(page, "admin-slider-1440");

  await page.getByRole("button", { name: "Добавить плитку" }).click();
  const dialog = page.getByRole("dialog", { name: "Новая плитка" });
  await dialog.waitFor();
  // A link tile without an image cannot be saved, and says why.
  expect(await dialog.getByText("Для плитки-ссылки необходимо выбрать изображение").isVisible()).toBe(true);
  expect(await dialog.getByRole("button", { name: "Сохранить" }).isDisabled()).toBe(true);
  // A text file is refused with the modal's wording.
  await dialog.getByLabel("Изображение").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("hi"),
  });
  await dialog.getByText("Неподдерживаемый формат изображения. Используйте JPG или PNG.").waitFor();
  const url = `https://neuropunk.example/${ARTIST}`;
  await dialog.getByLabel("URL ссылки").fill(url);
  await dialog.getByLabel("Изображение").setInputFiles({
    name: isPng ? "tile.png" : "tile.jpg",
    mimeType: isPng ? "image/png" : "image/jpeg",
    buffer: Buffer.from(image),
  });
  await dialog.getByAltText("Предпросмотр изображения плитки").waitFor();
  await t.screenshot(page, "admin-slider-modal-1440");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await dialog.waitFor({ state: "detached" });

  const tiles = (await apiAs(t, admin.access, "/admin/slider")).body.sliders;
  expect(tiles.length).toBe(countBefore + 1);
  const tile = tiles.find((s: { redirect_url: string | null }) => s.redirect_url === url);
  expect(tile).toMatchObject({ tile_type: "link" });
  expect(tile.image_filename).toBeTruthy();
  const img = page.locator(`[data-tile-id="${tile.id}"] img`);
  await img.waitFor();
  await page.waitForFunction((id) => {
    const el = document.querySelector<HTMLImageElement>(`[data-tile-id="${id}"] img`);
    return Boolean(el && el.complete && el.naturalWidth > 0);
  }, tile.id);
  const served = await fetch(`${t.server.baseUrl}/static/storage/slider/${tile.image_filename}`);
  expect(new Uint8Array(await served.arrayBuffer())).toEqual(image);

  await open(page, t, `/admin/slider/${tile.id}/edit`, "Редактирование слайдера");
  await page.getByAltText("Предпросмотр изображения плитки").waitFor();
  await t.screenshot(page, "admin-slider-edit-1440");
  await open(page, t, "/admin/slider/edit", "Новая плитка слайдера");
  await page.getByRole("radio", { name: "Трек" }).check();
  await page.getByLabel("URL трека").fill("https://soundcloud.com/neuropunk/example");
  await t.screenshot(page, "admin-slider-add-1440");
});

test("admin panel: a banned user is thrown out on their next action", async (t) => {
  const admin = await tokensOf(t, "admin");
  // A user of this test's own: a ban must not reach the seeded artist the other tests sign in as.
  const user = await newUser(t, "Ban");
  const artistPage = await signIn(t, user.username);
  await artistPage.goto(`${t.server.baseUrl}/profile`);
  await artistPage.waitForURL(`${t.server.baseUrl}/profile`);

  const page = await signIn(t, "admin");
  await open(page, t, "/admin/users", "Управление пользователями");
  await page.locator("tr[data-user-id]").first().waitFor();
  // The admin's own row cannot be banned or deleted; admins cannot be banned.
  expect(await page.getByRole("button", { name: "Удалить: admin" }).isDisabled()).toBe(true);
  expect(await page.getByRole("button", { name: "Заблокировать: admin" }).isDisabled()).toBe(true);
  await t.screenshot(page, "admin-users-1440");

  await page.getByLabel("Поиск").fill(user.username);
  await page.waitForFunction(
    (name) => [...document.querySelectorAll("tr[data-user-id]")].every((r) => r.textContent?.includes(name)),
    user.username,
  );
  await page.getByRole("button", { name: `Заблокировать: ${user.username}` }).click();
  const confirm = page.getByRole("dialog", { name: "Блокировка пользователя" });
  await confirm.getByText("Пользователь не сможет авторизоваться и загружать треки.").waitFor();
  await confirm.getByRole("button", { name: "Заблокировать" }).click();
  await page.getByText("Пользователь успешно заблокирован").waitFor();
  const row = page.locator(`tr[data-user-id="${user.id}"]`);
  await row.getByText("Заблокирован").waitFor();
  expect(await row.getAttribute("class")).toContain("st-row-banned");

  // The artist's next step ends the session (the ban revoked it): signed out, and the signed-in
  // pages send them to the login page.
  await artistPage.locator("header").getByRole("link", { name: "FAQ", exact: true }).click();
  await artistPage.waitForFunction(() => !localStorage.getItem("accessToken") && !localStorage.getItem("refreshToken"));
  await artistPage.locator("header").getByRole("link", { name: "Профиль" }).waitFor({ state: "detached" });
  await artistPage.goto(`${t.server.baseUrl}/profile`);
  await artistPage.waitForURL(/\/login/);

  // The edit page of a user, and the unban that lets them back in.
  await open(page, t, `/admin/users/${user.id}/edit`, "Редактирование пользователя");
  await page.getByLabel("Имя пользователя").waitFor();
  await t.screenshot(page, "admin-user-edit-1440");
  await open(page, t, "/admin/users/edit", "Новый пользователь");
  await page.getByRole("checkbox", { name: "Модератор" }).check();
  await t.screenshot(page, "admin-user-add-1440");
  await open(page, t, "/admin/users", "Управление пользователями");
  await page.getByLabel("Поиск").fill(user.username);
  await page.getByRole("button", { name: `Разблокировать: ${user.username}` }).click();
  await page.getByText("Пользователь успешно разблокирован").waitFor();
  const me = await apiAs(t, admin.access, `/admin/users/${user.id}`);
  expect(me.body.user.is_banned).toBe(false);
  expect((await apiAs(t, (await tokensOf(t, user.username)).access, "/auth/me")).status).toBe(200);
}, { timeout: 90_000 });

test("admin panel: the status store page pages its lists and cleans the track status keys", async (t) => {
  // Eleven uploads make more track status keys than one page of ten holds.
  const artist = await tokensOf(t, "artist");
  const uploaded = await uploadAs(
    t,
    artist.access,
    Array.from(
      { length: 11 },
      (_, i) => ({ name: `${runArtist("Rds")} - Key ${i + 1}.mp3`, source: "Low Rate - 128 kbps.mp3" }),
    ),
    "label_koster",
  );
  const admin = await tokensOf(t, "admin");
  await waitCompleted(t, admin.access, uploaded.map((u) => u.id));
  const before = (await apiAs(t, admin.access, "/admin/redis-data")).body;
  expect(before.stats.track_status).toBeGreaterThan(10);
  expect(before.paging.trackStatus.pages).toBeGreaterThan(1);
  const page = await signIn(t, "admin");
  await open(page, t, "/admin/redis", "Redis Management");
  await page.getByText("Track status keys", { exact: true }).waitFor();
  await t.screenshot(page, "admin-redis-1440");
  const section = page.locator(".st-section", { has: page.getByRole("heading", { name: /^Track status keys/ }) });
  expect(await section.locator(".st-kv-item").count()).toBe(10);
  const firstPage = await section.locator(".st-kv-key").allInnerTexts();
  await section.getByText(`Page 1 of ${before.paging.trackStatus.pages}`).waitFor();
  await section.getByRole("button", { name: "Next" }).click();
  await section.getByText(`Page 2 of ${before.paging.trackStatus.pages}`).waitFor();
  const secondPage = await section.locator(".st-kv-key").allInnerTexts();
  expect(secondPage.some((k) => firstPage.includes(k))).toBe(false);
  await section.getByRole("button", { name: "Clean up" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm cleanup" });
  await dialog.getByText("This action cannot be undone!").waitFor();
  await dialog.getByRole("button", { name: "Clean up" }).click();
  await page.getByText(`Successfully cleaned up ${before.stats.track_status} track status keys.`).waitFor();
  await section.getByText("No keys.").waitFor();
  const after = (await apiAs(t, admin.access, "/admin/redis-data")).body;
  expect(after.stats.track_status).toBe(0);
  // Other families are left alone.
  expect(after.stats.track_ids).toBe(before.stats.track_ids);
});

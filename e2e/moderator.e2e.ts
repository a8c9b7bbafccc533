/**
 * The moderator panel in Chromium (issue 7). The artist uploads one Костёр track and one Нейропанк
 * track; the seeded moderator (label_koster, podcast_koster) signs in, sees only the Костёр one,
 * edits its directions within the categories, downloads it, and manages an FAQ entry that then shows
 * on /faq. A screenshot of every moderator page at 1440 px, and the tracks page at 390 px.
 */
import { expect, type Page, test, type TestContext } from "./harness.ts";
import {
  apiAs,
  open,
  runArtist,
  signIn,
  tokensOf,
  uploadAs,
  type Uploaded,
  waitCompleted,
  watchDownloads,
  WIDE,
} from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const ARTIST = runArtist("Mod");

/** One fixture uploaded by the artist to the given directions. */
async function upload(
  t: TestContext,
  token: string,
  name: string,
  source: string,
  directions: string,
): Promise<Uploaded> {
  return (await uploadAs(t, token, [{ name, source }], directions))[0];
}

const rowIds = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("tbody tr[data-track-id]")].map((r) => Number(r.getAttribute("data-track-id")))
  );

test("moderator panel: only their tracks, directions within their categories, a download", async (t) => {
  const artist = await tokensOf(t, "artist");
  const koster = await upload(
    t,
    artist.access,
    `${ARTIST} - Koster Cut.mp3`,
    "Test Artist - Amen Study.mp3",
    "label_koster",
  );
  const neuropunk = await upload(
    t,
    artist.access,
    `${ARTIST} - Neuro Cut.mp3`,
    "Low Rate - 128 kbps.mp3",
    "label_neuropunk",
  );

  const admin = await tokensOf(t, "admin");
  await waitCompleted(t, admin.access, [koster.id, neuropunk.id]);

  // The API refuses the Нейропанк track to the moderator outright.
  const moderator = await tokensOf(t, "moderator");
  expect((await apiAs(t, moderator.access, `/moderator/tracks/${neuropunk.id}`)).status).toBe(404);
  expect((await apiAs(t, moderator.access, `/moderator/tracks/download/${neuropunk.id}`)).status).toBe(404);

  const page = await signIn(t, "moderator");
  const { all: downloads, first: firstDownload } = watchDownloads(page);

  // Dashboard: welcome, the categories in the header and on the page, the counts.
  await open(page, t, "/moderator", "Dashboard");
  await page.getByText("Welcome, moderator!").waitFor();
  const header = page.locator(".st-header-extra");
  await header.getByText("Костёр Звукозапись").waitFor();
  expect(await header.getByText("Костёр подкаст").isVisible()).toBe(true);
  const count = page.getByTestId("count-tracks");
  await page.waitForFunction(() =>
    /^\d+$/.test(document.querySelector("[data-testid=count-tracks]")?.textContent ?? "")
  );
  const inScope = (await apiAs(t, moderator.access, "/moderator/tracks")).body.total;
  expect(Number(await count.innerText())).toBe(inScope);
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector("[data-testid=count-faq]")?.textContent ?? ""));
  await t.screenshot(page, "moderator-dashboard-1440");

  // Manage Tracks: the Костёр upload is there, the Нейропанк one is not.
  await page.getByRole("link", { name: "Manage Tracks" }).click();
  await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
  const bulk = page.getByRole("button", { name: /^Download Selected/ });
  expect(await bulk.isDisabled()).toBe(true);
  // The label's text starts with its name (the Warning filter's options mention a direction's window).
  const directionOptions = await page.getByLabel(/^Direction/).locator("option").allInnerTexts();
  expect(directionOptions).toEqual(["All directions", "Костёр Звукозапись", "Костёр подкаст"]);
  await page.locator("tbody tr[data-track-id]").first().waitFor();
  await t.screenshot(page, "moderator-tracks-1440");
  await page.getByLabel("Track name").fill(ARTIST);
  await page.waitForFunction(() => document.querySelectorAll("tbody tr[data-track-id]").length === 1);
  expect(await rowIds(page)).toEqual([koster.id]);
  const row = page.locator(`tr[data-track-id="${koster.id}"]`);
  expect(await row.innerText()).toContain("Not downloaded");
  expect(await row.innerText()).toContain("Костёр Звукозапись");

  // Edit: Нейропанк boxes are locked (outside the categories), Костёр подкаст can be added.
  await row.getByRole("link", { name: `Edit: ${koster.filename}` }).click();
  await page.getByRole("heading", { level: 1, name: "Edit Track" }).waitFor();
  await page.getByText(koster.filename, { exact: true }).waitFor();
  expect(await page.getByText("You can only change directions for the categories you manage.").isVisible()).toBe(true);
  const box = (name: string) => page.getByRole("checkbox", { name, exact: true });
  expect(await box("Neuropunk Records").isDisabled()).toBe(true);
  expect(await box("Neuropunk podcast").isDisabled()).toBe(true);
  expect(await box("Шоу Нейрогон").isDisabled()).toBe(true);
  expect(await box("Костёр Звукозапись").isChecked()).toBe(true);
  const save = page.getByRole("button", { name: "Save Changes" });
  expect(await save.isDisabled()).toBe(true);
  await box("Костёр подкаст").check();
  expect(await save.isEnabled()).toBe(true);
  await t.screenshot(page, "moderator-track-edit-1440");
  await save.click();
  await page.getByText("Track updated successfully").waitFor();
  // Back on the list where it was left: the name filter is still in the address (issue 12 §3).
  await page.waitForURL((u) => u.pathname === "/moderator/tracks" && u.searchParams.has("filename"));
  const saved = (await apiAs(t, admin.access, `/admin/tracks/${koster.id}`)).body.track;
  expect(saved.directions).toBe("label_koster,podcast_koster");
  expect(saved.downloaded).toBe(false);

  // Download it: a new tab gets the MP3 byte for byte, and the row turns Downloaded.
  await page.getByLabel("Track name").fill(ARTIST);
  await page.waitForFunction(() => document.querySelectorAll("tbody tr[data-track-id]").length === 1);
  await row.getByText("Костёр подкаст").waitFor({ timeout: 5000 });
  await row.getByRole("button", { name: `Download: ${koster.filename}` }).click();
  await firstDownload;
  expect(downloads.length).toBe(1);
  expect(downloads[0].url()).toContain("access_token=");
  const got = await Deno.readFile((await downloads[0].path())!);
  expect(got.length).toBe(koster.bytes.length);
  expect(got.every((b, i) => b === koster.bytes[i])).toBe(true);
  await page.waitForFunction(
    (id) => {
      const text = document.querySelector(`tr[data-track-id="${id}"]`)?.textContent ?? "";
      return text.includes("Downloaded") && !text.includes("Not downloaded");
    },
    koster.id,
  );
  expect((await apiAs(t, admin.access, `/admin/tracks/${koster.id}`)).body.track.downloaded).toBe(true);

  // The delete confirmation (cancelled: the track stays).
  await row.getByRole("button", { name: `Delete: ${koster.filename}` }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm Delete" });
  await dialog.getByText(`Are you sure you want to delete track "${koster.filename}"?`).waitFor();
  expect(await dialog.getByText("This action cannot be undone.").isVisible()).toBe(true);
  await t.screenshot(page, "moderator-tracks-delete-1440");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });

  // A filter that matches nothing inside the scope.
  await page.getByLabel(/^Direction/).selectOption("podcast_koster");
  await page.getByLabel("Status").selectOption("false");
  await page.getByText("No tracks match the filters").waitFor();

  // 390 px: the list still fits the screen (as cards, issue 23).
  const phone = await signIn(t, "moderator", PHONE);
  await open(phone, t, "/moderator/tracks", "Manage Tracks");
  await phone.locator("li[data-track-id]").first().waitFor();
  await t.screenshot(phone, "moderator-tracks-390");
  const overflow = await phone.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  expect(overflow).toBeLessThanOrEqual(0);
}, { timeout: 120_000 });

test("moderator panel: an FAQ entry added, edited with the preview, shown on /faq, deleted", async (t) => {
  const question = `Moderator question ${ARTIST}?`;
  const page = await signIn(t, "moderator");
  await open(page, t, "/moderator/faq", "Manage FAQ");
  await page.locator("li[data-faq-id]").first().waitFor();
  await t.screenshot(page, "moderator-faq-1440");

  await page.getByRole("button", { name: "Add New FAQ" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New FAQ Item" });
  await dialog.waitFor();
  expect(Number(await dialog.getByLabel("Order").inputValue())).toBeGreaterThan(1);
  const saveBtn = dialog.getByRole("button", { name: "Save" });
  expect(await saveBtn.isDisabled()).toBe(true);
  await dialog.getByLabel("Question").fill(question);
  await dialog.getByLabel("Answer").fill("<p>First answer</p>");
  await t.screenshot(page, "moderator-faq-modal-1440");
  await saveBtn.click();
  await dialog.waitFor({ state: "detached" });
  const item = page.locator("li[data-faq-id]", { hasText: question });
  await item.waitFor();
  const id = await item.getAttribute("data-faq-id");

  // The editor page: live preview of the HTML answer.
  await item.getByRole("link", { name: `Open editor with preview: ${question}` }).click();
  await page.getByRole("heading", { level: 1, name: "Edit FAQ" }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/moderator/faq/${id}/edit`);
  const answer = page.getByLabel("Answer");
  await page.waitForFunction(() =>
    (document.querySelector("textarea") as HTMLTextAreaElement | null)?.value === "<p>First answer</p>"
  );
  await answer.fill("<p>Send it via the <strong>upload page</strong>.</p><ul><li>MP3 only</li></ul>");
  const preview = page.getByTestId("faq-preview-body");
  expect(await preview.innerHTML()).toBe(
    "<p>Send it via the <strong>upload page</strong>.</p><ul><li>MP3 only</li></ul>",
  );
  await t.screenshot(page, "moderator-faq-edit-1440");
  await page.getByRole("button", { name: "Save FAQ" }).click();
  await page.waitForURL(`${t.server.baseUrl}/moderator/faq`);
  await page.locator("li[data-faq-id]", { hasText: "Send it via the upload page" }).waitFor();

  // The public FAQ page shows it.
  const visitor = await t.page(WIDE);
  await visitor.goto(`${t.server.baseUrl}/faq`);
  await visitor.getByText(question).waitFor();

  // The add page (no id): placeholders in the preview.
  await open(page, t, "/moderator/faq/edit", "Add New FAQ");
  await page.getByText("Question will appear here").waitFor();
  expect(await page.getByText("Answer will appear here").isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
  await t.screenshot(page, "moderator-faq-add-1440");

  // Delete from the editor page: confirmation, back to the list, gone from /faq.
  await open(page, t, `/moderator/faq/${id}/edit`, "Edit FAQ");
  await page.waitForFunction(() =>
    ((document.querySelector("textarea") as HTMLTextAreaElement | null)?.value ?? "") !== ""
  );
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete FAQ Item" });
  await confirm.getByText(question).waitFor();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL(`${t.server.baseUrl}/moderator/faq`);
  await page.locator("li[data-faq-id]").first().waitFor();
  expect(await page.locator("li[data-faq-id]", { hasText: question }).count()).toBe(0);
  // The page read the list again (its answer) and shows it (an entry, or the empty card): no network wait.
  const faqRead = visitor.waitForResponse((r) => new URL(r.url()).pathname === "/api/faq" && r.ok());
  await visitor.goto(`${t.server.baseUrl}/faq`);
  await faqRead;
  await visitor.locator(".accordion .acc-item, .card.empty").first().waitFor();
  expect(await visitor.getByText(question).count()).toBe(0);
});

test("moderator panel: a plain user is sent home, an admin sees All Categories", async (t) => {
  const artist = await signIn(t, "artist");
  await artist.goto(`${t.server.baseUrl}/moderator/tracks`);
  await artist.waitForURL(`${t.server.baseUrl}/`);
  const artistToken = (await tokensOf(t, "artist")).access;
  expect((await apiAs(t, artistToken, "/moderator/status")).status).toBe(403);

  const admin = await signIn(t, "admin");
  await open(admin, t, "/moderator/tracks", "Manage Tracks");
  await admin.locator(".st-header-extra").getByText("All Categories").waitFor();
  const options = await admin.getByLabel(/^Direction/).locator("option").count();
  expect(options).toBe(7);
});

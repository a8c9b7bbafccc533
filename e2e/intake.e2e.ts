/**
 * Intake rules (issue 25) in Chromium: an admin pauses a direction with a message on «Приём треков»
 * (the clicks and keys it takes are counted), the seeded moderator of that direction reads it on
 * their Intake page, the artist sees the direction's checkbox disabled with the message on the
 * upload page (390 and 1440 px), and a direct upload to it through the API is refused with that
 * message. axe finds no serious violation on the admin page, the moderator page and the upload page.
 * The direction is opened again at the end, whatever happened: the other e2e files upload to it.
 */
import { audit } from "./axe-kit.ts";
import { expect, type Page, test } from "./harness.ts";
import { apiAs, FIXTURES, open, runArtist, signIn, tokensOf, uniqueMp3, WIDE } from "./staff-kit.ts";

/** The seeded moderator covers label_koster and podcast_koster. */
const DIRECTION = "podcast_koster";
const PHONE = { width: 390, height: 844 };

/** A picture of one part of the page, beside the full-page screenshots. */
const shot = (name: string) => new URL(`../test-artifacts/screenshots/${name}.png`, import.meta.url).pathname;

/** No sideways scrolling at this width. */
async function fits(page: Page) {
  const w = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(w.page).toBeLessThanOrEqual(w.view);
}

test("intake: an admin pauses a direction with a message; the artist sees it disabled; the API refuses it", async (t) => {
  const admin = await tokensOf(t, "admin");
  const message = `Подкаст на каникулах до января (${runArtist("e")})`;
  const found: string[] = [];
  try {
    // The admin, at 1440: uncheck «Принимать треки», type the message (the field has the focus), save.
    const page = await signIn(t, "admin", WIDE);
    await open(page, t, "/admin/intake", "Приём треков");
    await page.getByRole("link", { name: "Приём треков" }).waitFor();
    const card = page.getByTestId(`intake-${DIRECTION}`);
    await card.getByRole("heading", { name: "Подкаст Костер" }).waitFor();
    expect(await card.getByTestId("intake-state").innerText()).toBe("Приём открыт");
    found.push(...await audit(page, "«Приём треков» at 1440"));

    let clicks = 0;
    let keys = 0;
    await card.getByRole("checkbox", { name: "Принимать треки" }).click();
    clicks++;
    const pause = card.getByLabel("Сообщение на время паузы");
    await page.waitForFunction(
      (id) => document.activeElement?.id === id,
      await pause.getAttribute("id"),
    );
    await page.keyboard.type(message);
    keys += message.length;
    const saved = page.waitForResponse((r) =>
      new URL(r.url()).pathname === `/api/admin/intake/${DIRECTION}` && r.request().method() === "PUT"
    );
    await card.getByRole("button", { name: "Сохранить" }).click();
    clicks++;
    expect((await saved).status()).toBe(200);
    await card.getByText("Правила сохранены").waitFor();
    expect(await card.getByTestId("intake-state").innerText()).toBe("Пауза");
    // Two clicks and the message's own keys: the message field takes the focus when the box is unchecked.
    expect(clicks).toBe(2);
    expect(keys).toBe(message.length);
    console.log(`  pausing a direction: ${clicks} clicks, ${keys} keys (the message itself)`);
    await card.screenshot({ path: shot("intake-admin-card-1440") });
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await t.screenshot(page, "intake-admin-1440");

    // The saved rule as the API reads it.
    const read = await apiAs(t, admin.access, "/admin/intake");
    const rule = read.body.intake.find((r: { direction: string }) => r.direction === DIRECTION);
    expect(rule).toMatchObject({ open: false, pause_message: message, updated_by: "admin" });

    // The admin page at 390: one column, nothing wider than the screen.
    const phoneAdmin = await signIn(t, "admin", PHONE);
    await open(phoneAdmin, t, "/admin/intake", "Приём треков");
    await phoneAdmin.getByTestId(`intake-${DIRECTION}`).getByText("Пауза", { exact: true }).waitFor();
    await fits(phoneAdmin);
    await phoneAdmin.getByTestId(`intake-${DIRECTION}`).screenshot({ path: shot("intake-admin-card-390") });
    await phoneAdmin.evaluate(() => globalThis.scrollTo(0, 0));
    await t.screenshot(phoneAdmin, "intake-admin-390");
    found.push(...await audit(phoneAdmin, "«Приём треков» at 390"));

    // The seeded moderator of the direction reads it, read-only, on their Intake page, opened from
    // their dashboard (the sidebar stays spec 2's).
    const mod = await signIn(t, "moderator", WIDE);
    await open(mod, t, "/moderator", "Dashboard");
    await mod.getByRole("link", { name: "Intake rules of your categories →" }).click();
    await mod.getByRole("heading", { level: 1, name: "Intake rules" }).waitFor();
    const modCard = mod.getByTestId(`intake-${DIRECTION}`);
    await modCard.getByText(`Paused — «${message}»`).waitFor();
    expect(await mod.locator("[data-testid^='intake-']").count()).toBe(2);
    expect(await mod.locator("main input, main textarea, .st-content input, .st-content textarea").count()).toBe(0);
    await t.screenshot(mod, "intake-moderator-1440");
    found.push(...await audit(mod, "moderator Intake at 1440"));

    // The artist: the checkbox is disabled and the message is under the direction's name.
    for (const [viewport, name] of [[PHONE, "390"], [WIDE, "1440"]] as const) {
      const artist = await signIn(t, "artist", viewport);
      await artist.goto(t.server.baseUrl + "/");
      const box = artist.getByRole("checkbox", { name: "Подкаст Костёр" });
      await box.waitFor();
      await artist.getByText(message).waitFor();
      expect(await box.isDisabled()).toBe(true);
      expect(await box.getAttribute("aria-describedby")).toBe(`direction-paused-${DIRECTION}`);
      expect(await artist.locator(`#direction-paused-${DIRECTION}`).innerText()).toBe(message);
      // Another direction is still open.
      expect(await artist.getByRole("checkbox", { name: "Лейбл Костёр" }).isDisabled()).toBe(false);
      await fits(artist);
      await artist.locator("fieldset", { has: artist.getByTestId(`direction-${DIRECTION}`) })
        .screenshot({ path: shot(`intake-upload-directions-${name}`) });
      await artist.evaluate(() => globalThis.scrollTo(0, 0));
      await t.screenshot(artist, `intake-upload-paused-${name}`);
      if (name === "390") found.push(...await audit(artist, "upload page with a paused direction at 390"));
    }

    // A direct upload to the paused direction: 409 with the pause message; nothing is stored.
    const artistTokens = await tokensOf(t, "artist");
    const form = new FormData();
    const bytes = uniqueMp3(await Deno.readFile(new URL("Low Rate - 128 kbps.mp3", FIXTURES)), "intake");
    form.append("files", new File([bytes], `${runArtist("Intake")} - Paused.mp3`, { type: "audio/mpeg" }));
    form.append("directions", DIRECTION);
    const refused = await apiAs(t, artistTokens.access, "/upload", { method: "POST", body: form });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.success).toBe(false);
    expect(refused.body.error).toContain(message);

    expect(found).toEqual([]);
  } finally {
    const reopened = await apiAs(t, admin.access, `/admin/intake/${DIRECTION}`, {
      method: "PUT",
      body: JSON.stringify({ open: true, pause_message: null }),
    });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
  }
});

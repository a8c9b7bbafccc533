/**
 * Issue 25's AI question in Chromium (docs/decisions/0245, 0246): an artist's batch waits for the
 * answer; «Да» shows the site's rule and waits for its confirmation; the artist answers «Частично»
 * and uploads. The moderator's queue shows «ИИ: частично» on the row, and its AI filter finds the
 * track (and «No» leaves it out). Screenshots of the form with the question at 1440 and 390 px, and
 * of the moderator's filtered queue.
 */
import { Buffer } from "node:buffer";
import { expect, type Page, test } from "./harness.ts";
import { apiAs, FIXTURES, newUser, runArtist, signIn, tokensOf, uniqueMp3, WIDE } from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const RULE = "Треки, сгенерированные искусственным интеллектом, приводят к блокировке аккаунта.";
const CONFIRM = /Я прочитал\(а\) правило/;

async function fillForm(page: Page, filename: string) {
  await page.getByTestId("file-input").setInputFiles({
    name: filename,
    mimeType: "audio/mpeg",
    buffer: Buffer.from(uniqueMp3(await Deno.readFile(new URL("Test Artist - Amen Study.mp3", FIXTURES)), "ai")),
  });
  await page.getByTestId("file-row").first().waitFor();
  await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
}

test("the artist answers «Частично»; the moderator's queue shows the badge and its filter finds it", async (t) => {
  const artist = await newUser(t, "Aiq");
  const filename = `${runArtist("Aiq")} - Partly Machine.mp3`;

  // --- The form at 1440 px: the question waits for an answer; «Да» needs the rule confirmed.
  const page = await signIn(t, artist.username, WIDE);
  await page.goto(t.server.baseUrl + "/");
  const question = page.getByRole("radiogroup", { name: /Использовался ли ИИ при создании трека\?/ });
  await question.waitFor();
  await fillForm(page, filename);
  const submit = page.getByRole("button", { name: "Загрузить трек" });
  expect(await submit.isDisabled()).toBe(true);
  await page.getByText("Ответьте на вопрос об ИИ.").waitFor();

  await question.getByRole("radio", { name: "Да", exact: true }).check();
  const rule = page.getByRole("note").filter({ hasText: RULE });
  await rule.waitFor();
  expect(await submit.isDisabled()).toBe(true);
  await page.getByRole("checkbox", { name: CONFIRM }).check();
  expect(await submit.isDisabled()).toBe(false);
  await t.screenshot(page, "ai-question-yes-1440");

  await question.getByRole("radio", { name: "Частично" }).check();
  await rule.waitFor({ state: "detached" });
  expect(await submit.isDisabled()).toBe(false);
  await t.screenshot(page, "ai-question-partly-1440");
  // The page sends the file in resumable parts (issue 26); its completion makes the track.
  const answered = page.waitForResponse((r) =>
    /^\/api\/upload\/resumable\/[^/]+\/complete$/.test(new URL(r.url()).pathname)
  );
  await submit.click();
  expect((await answered).status()).toBe(200);
  await page.waitForURL((u) => u.pathname === "/processing", { timeout: 15_000 });

  // --- The same form at 390 px, with «Да» open (not sent).
  const phone = await signIn(t, artist.username, PHONE);
  await phone.goto(t.server.baseUrl + "/");
  await fillForm(phone, `${runArtist("Aiq")} - Phone Look.mp3`);
  await phone.getByRole("radio", { name: "Да", exact: true }).check();
  await phone.getByRole("note").filter({ hasText: RULE }).waitFor();
  // Nothing of the question runs off a phone's screen.
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await t.screenshot(phone, "ai-question-yes-390");

  // --- The stored answer, as the staff API gives it.
  const admin = await tokensOf(t, "admin");
  const listed = await apiAs(t, admin.access, `/admin/tracks?filename=${encodeURIComponent(filename)}`);
  const tracks = listed.body.tracks as Array<{ id: number; ai_use: string | null }>;
  expect(tracks.map((x) => x.ai_use)).toEqual(["partly"]);
  const id = tracks[0].id;

  // --- The moderator (label_koster): the badge on the row, and the AI filter finds the track.
  const queue = await signIn(t, "moderator", WIDE);
  const name = filename.split(" - ")[0];
  await queue.goto(`${t.server.baseUrl}/moderator/tracks?filename=${encodeURIComponent(name)}`);
  const row = queue.locator(`tr[data-track-id="${id}"]`);
  await row.waitFor();
  expect(await row.locator(".st-ai-use").textContent()).toBe("AI: partly");

  const filter = queue.getByRole("combobox", { name: /^AI\b/ });
  await filter.selectOption("no");
  await queue.waitForURL((u) => u.searchParams.get("ai_use") === "no");
  await row.waitFor({ state: "detached" });
  await filter.selectOption("partly");
  await queue.waitForURL((u) => u.searchParams.get("ai_use") === "partly");
  await row.waitFor();
  expect(await queue.locator("tbody tr[data-track-id]").count()).toBe(1);
  await t.screenshot(queue, "ai-question-moderator-filter-1440");

  // A reload keeps the filter (it lives in the address).
  await queue.reload();
  await row.waitFor();
  expect(await queue.getByRole("combobox", { name: /^AI\b/ }).inputValue()).toBe("partly");
}, { timeout: 120_000 });

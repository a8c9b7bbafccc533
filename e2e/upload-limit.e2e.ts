/**
 * Issue 20, MAX_UPLOADS_PER_HOUR (docs/decisions/0196): an artist whose hour is used up sends a
 * track from the upload page. The server answers the resumable upload's start with 429 before any
 * byte of the file moves (issue 26), and the page shows its Russian text.
 */
import { Buffer } from "node:buffer";
import { test, type TestContext } from "./harness.ts";
import { FIXTURES, newUser, runArtist, uniqueMp3, uploadAs, WIDE } from "./staff-kit.ts";

test("an artist past MAX_UPLOADS_PER_HOUR sees the hourly limit's text on the upload page", async (t) => {
  const server = await t.startServer({ MAX_UPLOADS_PER_HOUR: "1" });
  const on: TestContext = { ...t, server };
  const artist = await newUser(on, "Hourly");
  const name = runArtist("Hourly");
  // The hour's one file, through the API.
  await uploadAs(
    on,
    artist.access,
    [{ name: `${name} - First.mp3`, source: "Low Rate - 128 kbps.mp3" }],
    "label_koster",
  );

  const page = await t.page(WIDE);
  await page.goto(artist.link);
  await page.getByText("Авторизация успешно завершена!").waitFor();
  await page.waitForURL((url) => !url.search.includes("access_token"));
  // 8 MB, so the browser is still sending when the answer comes.
  const amen = uniqueMp3(await Deno.readFile(new URL("Test Artist - Amen Study.mp3", FIXTURES)), "hourly");
  const buffer = new Uint8Array(8 * 1024 * 1024);
  for (let at = 0; at < buffer.length; at += amen.length) buffer.set(amen.subarray(0, buffer.length - at), at);
  await page.getByTestId("file-input").setInputFiles({
    name: `${name} - Second.mp3`,
    mimeType: "audio/mpeg",
    buffer: Buffer.from(buffer),
  });
  await page.getByTestId("file-row").first().waitFor();
  await page.getByRole("checkbox", { name: "Лейбл Костёр" }).check();
  await page.getByRole("radio", { name: "Нет", exact: true }).check();
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/upload/resumable");
  await page.getByRole("button", { name: "Загрузить трек" }).click();
  const res = await answer;
  if (res.status() !== 429) throw new Error(`expected 429, got ${res.status()}`);
  const sent = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
  if (sent.some((u) => u.includes("/parts/"))) throw new Error("a part was sent after the start was refused");
  await page
    .getByRole("alert")
    .filter({ hasText: /^Слишком много загрузок за час: не больше 1 файла\. Попробуйте позже: через \d+ мин\.$/ })
    .waitFor({ timeout: 10_000 });
  await t.screenshot(page, "upload-hourly-limit-1440");
});

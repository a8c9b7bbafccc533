/**
 * Issue 34 in Chromium, the materials: on a server of its own wired to the Telegram Bot API double,
 * an artist has a 12 s demo accepted for Neuropunk Records (the double gets the request). On the
 * release page at 390 px the artist first sends, by mistake, a master of another song (a WAV made
 * from the other groove of the fingerprint fixtures): it is checked and refused with its reason.
 * Then the real master, a 24-bit 48 kHz WAV generated from the accepted demo's own audio
 * (server/testing/master-audio.ts): accepted. The label copy is filled at 390 px and the page seen at
 * 1440 px; with everything in, the release moves to «Материалы получены» by itself. Staff take the
 * label's next catalogue number, set today's date and schedule it; the double gets the schedule and
 * the release-day messages; the ZIP downloads with the master under its ASCII name and the label copy.
 */
import { unzipSync } from "fflate";
import { decodeMp3, resample, wavFile } from "../server/testing/master-audio.ts";
import { russianDate } from "../domain/releases.ts";
import { expect, test } from "./harness.ts";
import {
  acceptOnDesk,
  apiAs,
  artistWithTelegram,
  FIXTURES,
  numberAndToday,
  runArtist,
  signIn,
  uploadAs,
  waitBotMessage,
  waitCompleted,
  WIDE,
  withBotServer,
} from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const DEMO = "fingerprint/Print Artist - Original.mp3";
const OTHER_SONG = "fingerprint/Print Artist - Other Groove.mp3";
/** server/releases/materials/judge.ts MATERIAL_REASONS.notSameRecording */
const NOT_SAME =
  "Это не та запись, что была принята: звучание файла не совпадает с принятым демо. Пришлите мастер принятого трека.";

/** A 24-bit 48 kHz WAV of a fixture MP3's audio, written to a temp file named `name`. */
async function masterOf(source: string, name: string): Promise<{ path: string; bytes: Uint8Array }> {
  const pcm = await decodeMp3(decodeURIComponent(new URL(source, FIXTURES).pathname));
  const bytes = wavFile(resample(pcm, 48_000), 24);
  const dir = await Deno.makeTempDir({ prefix: "e2e-master-" });
  const path = `${dir}/${name}`;
  await Deno.writeFile(path, bytes);
  return { path, bytes };
}

test(
  "release files: another song's master refused with its reason; the demo's 24-bit 48 kHz master accepted; label copy at 390 and 1440; number, schedule, messages, ZIP",
  (t) =>
    withBotServer(t, { INTAKE_SWEEP_INTERVAL_S: "1" }, async ({ bot, server, s, admin }) => {
      const artist = await artistWithTelegram(s, "master");
      const { username } = artist;
      // One long word of wide letters: the release page's heading must wrap it at 390 px, whatever
      // the run's random suffix (a name that happened to fit hid the overflow in most runs).
      const artistName = runArtist("Wwmasterartistmw");
      const [track] = await uploadAs(
        s,
        artist.access,
        [{ name: `${artistName} - Master Study.mp3`, source: DEMO }],
        "label_neuropunk",
      );
      await waitCompleted(s, admin.access, [track.id]);
      await acceptOnDesk(s, admin.access, track.id, "label_neuropunk");

      // The request, with the release page's link.
      const request = await waitBotMessage(bot, (text) => text.includes("Чтобы выпустить релиз"));
      const releaseId = Number(/\/releases\/(\d+)/.exec(request)?.[1]);
      expect(releaseId).toBeGreaterThan(0);

      // At 390 px: another song first, refused with its reason.
      const other = await masterOf(OTHER_SONG, "Other Song (Master).wav");
      const master = await masterOf(DEMO, `${artistName} - Master Study (Master).wav`);
      const phone = await signIn(s, username, PHONE);
      await phone.goto(`${server.baseUrl}/releases/${releaseId}`);
      const row = phone.getByTestId("release-file-master");
      await row.getByRole("button", { name: "Загрузить файл" }).waitFor();
      await row.locator('input[type="file"]').setInputFiles(other.path);
      await phone.locator('[data-testid="release-file-master"][data-state="refused"]').waitFor();
      await row.getByRole("alert").getByText(NOT_SAME).waitFor();
      await t.screenshot(phone, "release-files-refused-390");

      // The demo's own master: accepted.
      await row.locator('input[type="file"]').setInputFiles(master.path);
      await phone.locator('[data-testid="release-file-master"][data-state="accepted"]').waitFor();
      await row.getByText(`${artistName} - Master Study (Master).wav`).waitFor();
      expect(await row.getByRole("alert").count()).toBe(0);
      await phone.locator('[data-kind="master"] .badge', { hasText: "готово" }).waitFor();

      // The label copy at 390 px.
      const form = phone.getByTestId("label-copy-form");
      await form.getByLabel("Имя автора").fill("Иван Петров");
      await form.getByLabel("Доля, %").fill("100");
      await form.getByLabel("Версия (например Original Mix)").fill("Original Mix");
      await form.getByRole("button", { name: "Сохранить данные релиза" }).click();
      // The form is keyed by the release's revision, which the save and the move to «Материалы
      // получены» both change: its «сохранены» may be gone at once, so the checklist is what is waited on.
      await phone.locator('[data-kind="label_copy"] .badge', { hasText: "готово" }).waitFor();
      await phone.getByTestId("release-stage").getByText("Материалы получены").waitFor();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await t.screenshot(phone, "release-files-accepted-390");

      // At 1440 px: everything in, the release moved on by itself.
      const wide = await signIn(s, username, WIDE);
      await wide.goto(`${server.baseUrl}/releases/${releaseId}`);
      await wide.locator('[data-testid="release-file-master"][data-state="accepted"]').waitFor();
      await wide.getByTestId("release-stage").getByText("Материалы получены").waitFor();
      await t.screenshot(wide, "release-files-1440");
      const mine = await apiAs(s, artist.access, `/releases/${releaseId}`);
      const mineMaster = mine.body.release.materials.find((m: { kind: string }) => m.kind === "master");
      expect(mineMaster).toMatchObject({ state: "accepted", reason: null });
      expect(mineMaster.report).toBeUndefined();

      // Staff: the check's figures, the next number, today's date, scheduled.
      const staffView = await apiAs(s, admin.access, `/admin/releases/${releaseId}`);
      const report = staffView.body.release.materials.find((m: { kind: string }) => m.kind === "master").report;
      expect(report).toMatchObject({ bits: 24, sample_rate_hz: 48_000, fingerprint: { same: true } });
      const desk = await signIn(s, "admin", WIDE);
      await desk.goto(`${server.baseUrl}/admin/releases/${releaseId}`);
      const stage = desk.getByTestId("staff-release-stage");
      await stage.getByText("Материалы получены").waitFor();
      const { number, today } = await numberAndToday(desk);
      await desk.getByRole("button", { name: "Запланирован" }).click();
      const scheduled = await waitBotMessage(bot, (text) => text.startsWith("Релиз запланирован"));
      expect(scheduled.split("\n")[0]).toBe(`Релиз запланирован на ${russianDate(today)}, номер ${number}`);
      const released = await waitBotMessage(bot, (text) => text.startsWith("Сегодня вышел релиз"));
      expect(released).toContain(number);
      await t.screenshot(desk, "release-files-staff-1440");

      // The ZIP: the master under its ASCII name, byte for byte, and the label copy.
      const download = desk.waitForEvent("download");
      await desk.getByTestId("files-zip").click();
      const zip = unzipSync(await Deno.readFile((await (await download).path())!));
      const names = Object.keys(zip).sort();
      expect(names).toEqual([`${number} - ${artistName} - Master Study (Original Mix).wav`, "label-copy.csv"].sort());
      const wav = zip[`${number} - ${artistName} - Master Study (Original Mix).wav`];
      expect(wav.length).toBe(master.bytes.length);
      expect(wav.every((b, i) => b === master.bytes[i])).toBe(true);
    }),
  // Two checks of a master and a server of its own on a shared machine.
  { timeout: 300_000 },
);

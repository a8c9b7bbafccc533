/**
 * Issue 34 in Chromium: the release desk. On a server of its own wired to the Telegram Bot API
 * double, an artist with a Telegram id has a track accepted for Neuropunk Records; the double gets
 * the request with the release page's link; the artist fills the label copy on their release page at
 * 390 px (a wrong split of shares is refused with its reason first) and changes it at 1440 px; the
 * administrator finds the release in the list and in the waiting list, takes the label's next
 * catalogue number with one click, sets today's date and schedules it; the double gets «Релиз
 * запланирован на …, номер …» and, the day being today, the release-day message; the label copy CSV
 * downloads with its BOM and columns. (The master's upload and the ZIP with it are the materials
 * checks' e2e.)
 */
import { russianDate } from "../domain/releases.ts";
import { expect, test } from "./harness.ts";
import {
  acceptOnDesk,
  apiAs,
  artistWithTelegram,
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

test("releases: accept → request; label copy at 390 and 1440; staff number, date, schedule; messages; CSV", (t) =>
  withBotServer(t, { INTAKE_SWEEP_INTERVAL_S: "1" }, async ({ bot, server, s, admin }) => {
    const artist = await artistWithTelegram(s, "release");
    const { username } = artist;
    const artistName = runArtist("Relartist");
    const [track] = await uploadAs(s, artist.access, [
      { name: `${artistName} - Release Study.mp3`, source: "Test Artist - Amen Study.mp3" },
    ], "label_neuropunk");
    await waitCompleted(s, admin.access, [track.id]);
    await acceptOnDesk(s, admin.access, track.id, "label_neuropunk");

    // The request: what is needed and the release page's link.
    const request = await waitBotMessage(bot, (text) => text.includes("Чтобы выпустить релиз"));
    const releaseId = Number(/\/releases\/(\d+)/.exec(request)?.[1]);
    expect(releaseId).toBeGreaterThan(0);
    expect(request).toContain("мастер");

    // The artist at 390 px: the list, the release page, a refused split, then a good one.
    const phone = await signIn(s, username, PHONE);
    await phone.goto(`${server.baseUrl}/releases`);
    await phone.getByRole("heading", { level: 1, name: "Мои релизы" }).waitFor();
    await phone.getByRole("link", { name: `${artistName} — Release Study` }).click();
    await phone.getByRole("heading", { level: 1, name: `${artistName} — Release Study` }).waitFor();
    await phone.getByTestId("release-checklist").waitFor();
    const form = phone.getByTestId("label-copy-form");
    await form.getByLabel("Имя автора").fill("Иван Петров");
    await form.getByLabel("Доля, %").fill("90");
    await form.getByRole("button", { name: "Сохранить данные релиза" }).click();
    await form.getByRole("alert").getByText("authors: доли авторов в сумме должны быть ровно 100 (сейчас 90)")
      .waitFor();
    await form.getByLabel("Доля, %").fill("100");
    await form.getByLabel("Версия (например Original Mix)").fill("Original Mix");
    await form.getByRole("button", { name: "Сохранить данные релиза" }).click();
    await phone.getByText("Данные релиза сохранены").waitFor();
    await phone.locator('[data-kind="label_copy"] .badge', { hasText: "готово" }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await t.screenshot(phone, "release-artist-390");

    // At 1440 px: two authors, half each.
    const wide = await signIn(s, username, WIDE);
    await wide.goto(`${server.baseUrl}/releases/${releaseId}`);
    const wideForm = wide.getByTestId("label-copy-form");
    await wideForm.getByRole("button", { name: "+ Автор" }).click();
    await wideForm.getByLabel("Доля, %").first().fill("50");
    await wideForm.getByLabel("Имя автора").nth(1).fill("Anna Lee");
    await wideForm.getByLabel("Доля, %").nth(1).fill("50");
    await wideForm.getByRole("button", { name: "Сохранить данные релиза" }).click();
    await wide.getByText("Данные релиза сохранены").waitFor();
    await t.screenshot(wide, "release-artist-1440");
    const mine = await apiAs(s, artist.access, `/releases/${releaseId}`);
    expect(mine.body.release.label_copy.authors.map((a: { name: string; share: number }) => [a.name, a.share]))
      .toEqual([["Иван Петров", 50], ["Anna Lee", 50]]);

    // Staff: the list and the waiting list, then the release itself.
    const desk = await signIn(s, "admin", WIDE);
    await desk.goto(`${server.baseUrl}/admin/releases`);
    await desk.getByRole("heading", { level: 1, name: "Релизы" }).waitFor();
    await desk.getByRole("tab", { name: "Ждут материалы" }).click();
    const waiting = desk.getByTestId("waiting-list").locator("li", { hasText: artistName });
    await waiting.getByTestId("waited").getByText("ждёт 0 дн.").waitFor();
    await waiting.getByRole("link").click();
    await desk.getByTestId("staff-release").waitFor();
    const stage = desk.getByTestId("staff-release-stage");
    await stage.getByText("Ждём материалы").waitFor();
    const { number, today } = await numberAndToday(desk);
    await desk.getByRole("button", { name: "Материалы получены" }).click();
    await stage.getByText("Материалы получены").waitFor();
    await t.screenshot(desk, "release-staff-1440");
    await desk.getByRole("button", { name: "Запланирован" }).click();

    // The schedule's message, and the release day's (the day is today, Moscow: the sweep releases it).
    const scheduled = await waitBotMessage(bot, (text) => text.startsWith("Релиз запланирован"));
    expect(scheduled.split("\n")[0]).toBe(`Релиз запланирован на ${russianDate(today)}, номер ${number}`);
    const released = await waitBotMessage(bot, (text) => text.startsWith("Сегодня вышел релиз"));
    expect(released).toContain(number);
    await desk.reload();
    await stage.getByText("Вышел").waitFor();
    await desk.getByTestId("release-history").getByText("вышел").waitFor();

    // The label copy CSV, as a distributor takes it.
    const download = desk.waitForEvent("download");
    await desk.getByRole("button", { name: "Label copy (CSV)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${number}-label-copy.csv`);
    const bytes = await Deno.readFile((await file.path())!);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, row] = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(header).toBe(
      "Label,Catalogue number,Release date,Title,Version,Artists,Featuring,Remixers,Authors with shares,ISRC,Duration,BPM,Key,Explicit",
    );
    expect(row).toContain(`Neuropunk Records,${number},${today},Release Study,Original Mix,${artistName}`);
    // No master yet (the materials checks bring it): the ZIP says so.
    await desk.getByTestId("files-zip").click();
    await desk.getByRole("alert").getByText("У релиза ещё нет принятых файлов").waitFor();

    // The calendar shows it on its day.
    await desk.goto(`${server.baseUrl}/admin/releases`);
    await desk.getByRole("tab", { name: "Календарь" }).click();
    await desk.locator(`[data-day="${today}"]`).getByText(number).waitFor();
    await t.screenshot(desk, "release-calendar-1440");
  }));

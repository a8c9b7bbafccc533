/**
 * Issue 35 in Chromium: from «Принят» to on air. On a server of its own wired to the Telegram Bot API
 * double (no decision hold), two artists with Telegram ids send three tracks to Подкаст Костёр (one
 * artist two, in three keys). A moderator of `podcast_koster` alone accepts the three on the review
 * desk by keyboard (A, Enter), opens the episode desk from the dashboard, creates episode 57, adds
 * the three from the pool by keys (Enter), asks for the suggested order and takes it (Enter),
 * downloads the tracklist, and marks the episode aired with a cue per track. The double then holds
 * one message per artist with the right times; the artist's history shows «В эфире: Подкаст Костёр
 * #57 · 34:10» with the link; the public page, reached from the home page, lists the episode. At
 * 1440×900 and 390×844. The test prints the keys, clicks and page changes the moderator needed.
 */
import { audit } from "./axe-kit.ts";
import { expect, type Page, test } from "./harness.ts";
import {
  apiAs,
  artistWithTelegram,
  newUser,
  runArtist,
  signIn,
  uploadAs,
  waitCompleted,
  WIDE,
  withBotServer,
} from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };
const EPISODE_URL = "https://radio.example.org/koster-57";

/** Counts what the moderator does: keys, clicks, page loads and route changes (a new path). */
function counter(page: Page) {
  const c = { keys: 0, clicks: 0, loads: 0, routes: 0 };
  let path = new URL(page.url()).pathname;
  page.on("load", () => c.loads++);
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame()) return;
    const now = new URL(frame.url()).pathname;
    if (now !== path) c.routes++;
    path = now;
  });
  return {
    c,
    key: async (key: string) => {
      c.keys++;
      await page.keyboard.press(key);
    },
    click: async (locator: ReturnType<Page["locator"]>) => {
      c.clicks++;
      await locator.click();
    },
  };
}

/** No part of the page is wider than the window (nothing to scroll sideways at 390 px). */
async function fitsWidth(page: Page) {
  const { over, wide } = await page.evaluate(() => ({
    over: document.documentElement.scrollWidth - globalThis.innerWidth,
    // The elements that reach past the window, to say which one when it fails.
    wide: [...document.querySelectorAll("body *")].filter((e) =>
      e.getBoundingClientRect().right > globalThis.innerWidth + 1
    )
      .slice(0, 5).map((e) =>
        `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`
      ),
  }));
  expect(over, `horizontal overflow in px: ${wide.join(", ")}`).toBeLessThanOrEqual(0);
}

const orderIds = (page: Page) =>
  page.locator("[data-testid='order-row']").evaluateAll((rows) =>
    rows.map((r) => Number(r.getAttribute("data-track")))
  );

test(
  "episodes: a podcast_koster moderator accepts three tracks, builds episode 57 by keys, takes the suggested order, airs it; each artist told once",
  (t) =>
    withBotServer(t, {}, async ({ bot, server, s, admin }) => {
      // --- Set-up: a moderator of podcast_koster alone; two artists, three tracks in three keys.
      const mod = await newUser(s, "koster");
      const promoted = await apiAs(s, admin.access, `/admin/users/${mod.id}`, {
        method: "PUT",
        body: JSON.stringify({ is_moderator: true, moderator_categories: "podcast_koster" }),
      });
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
      const one = await artistWithTelegram(s, "aired");
      const two = await artistWithTelegram(s, "aired");
      const nameOne = runArtist("Костёр");
      const nameTwo = runArtist("Пламя");
      const ofOne = await uploadAs(s, one.access, [
        { name: `${nameOne} - Ночной рейс.mp3`, source: "Key Artist - F Minor.mp3" },
        { name: `${nameOne} - Рассвет (VIP).mp3`, source: "Key Artist - Bb Major.mp3" },
      ], "podcast_koster");
      const ofTwo = await uploadAs(s, two.access, [
        { name: `${nameTwo} - Искры, дым.mp3`, source: "Key Artist - C Sharp Minor.mp3" },
      ], "podcast_koster");
      const all = [...ofOne, ...ofTwo];
      await waitCompleted(s, admin.access, all.map((u) => u.id));

      // --- The review desk: Tracks opens «Новые»; J plays the first, A then Enter accepts and the next plays.
      const page = await signIn(s, mod.username, WIDE);
      await page.goto(`${server.baseUrl}/moderator`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      const m = counter(page);
      await m.click(page.getByRole("link", { name: "Tracks", exact: true }));
      await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
      await page.locator("tbody tr[data-track-id]").nth(2).waitFor();
      await m.key("j");
      for (let i = 0; i < 3; i++) {
        const decided = page.waitForResponse((r) => /\/decision$/.test(new URL(r.url()).pathname) && r.ok());
        await page.getByTestId("decision-dock").waitFor();
        await m.key("a");
        await page.locator("[data-desk-chooser]").waitFor();
        await m.key("Enter");
        await decided;
      }
      for (const u of all) {
        const { body } = await apiAs(s, mod.access, `/moderator/tracks/${u.id}`);
        expect(body.track.decisions[0].status, u.filename).toBe("accepted");
      }
      const deskCounts = { ...m.c };

      // --- The episode desk, from the dashboard: create #57.
      await m.click(page.getByRole("link", { name: "Dashboard" }));
      await m.click(page.getByRole("link", { name: "Episodes of your shows →" }));
      await page.getByRole("heading", { level: 1, name: "Episodes" }).waitFor();
      const number = page.getByLabel("Number");
      await page.waitForFunction(() =>
        (document.querySelector("input[name=number]") as HTMLInputElement)?.value === "1"
      );
      await number.fill("57");
      await page.getByLabel("Title").fill("Ночной костёр");
      await m.click(page.getByRole("button", { name: "Create episode" }));
      await page.getByRole("heading", { level: 1, name: /Подкаст Костёр #57 — Ночной костёр/ }).waitFor();

      // --- The pool: oldest accept first; focus the first row, Enter three times.
      const pool = page.getByTestId("pool-row");
      await pool.nth(2).waitFor();
      await m.click(pool.first());
      for (let i = 0; i < 3; i++) {
        const saved = page.waitForResponse((r) => r.url().endsWith("/tracks") && r.request().method() === "PUT");
        await m.key("Enter");
        expect((await saved).ok()).toBe(true);
      }
      await page.waitForFunction(() => document.querySelectorAll("[data-testid='order-row']").length === 3);
      expect(await pool.count()).toBe(0);
      expect(await page.getByTestId("transition").count()).toBe(2);
      // ↑ on the last row moves it up one, as the page says.
      const before = await orderIds(page);
      await page.locator(`[data-testid='order-row'][data-track="${before[2]}"]`).focus();
      const moved = page.waitForResponse((r) => r.url().endsWith("/tracks") && r.request().method() === "PUT");
      await m.key("ArrowUp");
      await moved;
      expect(await orderIds(page)).toEqual([before[0], before[2], before[1]]);

      // --- Suggested order: shown beside the current one; Enter takes it.
      const suggestion = page.waitForResponse((r) => r.url().endsWith("/suggest-order"));
      await m.click(page.getByRole("button", { name: "Suggest order" }));
      const suggested = (await (await suggestion).json()).suggested as { order: number[]; clashes: number };
      await page.getByTestId("suggestion").waitFor();
      const current = await page.getByTestId("current-figures").textContent();
      expect(current).toMatch(/clash/);
      await page.waitForFunction(() => document.activeElement?.textContent === "Take this order");
      const taken = page.waitForResponse((r) => r.url().endsWith("/tracks") && r.request().method() === "PUT");
      await m.key("Enter");
      await taken;
      expect(await orderIds(page)).toEqual(suggested.order);
      await t.screenshot(page, "episode-desk-1440");
      // axe (WCAG A and AA, serious or critical) on each screen of the desk and the public page.
      const findings = await audit(page, "episode desk @1440");

      // --- The tracklist for the studio.
      const download = page.waitForEvent("download");
      await m.click(page.getByRole("button", { name: "Tracklist .txt" }));
      const file = await download;
      expect(file.suggestedFilename()).toBe("podkast-koster-57.txt");
      const text = await Deno.readTextFile((await file.path())!);
      const byId = new Map(all.map((u) => [u.id, u.filename.replace(/\.mp3$/, "").replace(" - ", " – ")]));
      expect(text).toBe(
        suggested.order.map((id, i) => `${String(i + 1).padStart(2, "0")}. ${byId.get(id)} [Self-Released]\n`).join(""),
      );

      // --- Aired, with a cue per track: 0:30, 34:10, 1:02:05 in the running order.
      const cues = ["0:30", "34:10", "1:02:05"];
      const cueOf = new Map(suggested.order.map((id, i) => [id, cues[i]]));
      await page.getByLabel("Episode link").fill(EPISODE_URL);
      for (const [id, cue] of cueOf) {
        await page.locator(`input[name="cue-${id}"]`).fill(cue);
      }
      const aired = page.waitForResponse((r) => r.url().endsWith("/aired"));
      await m.click(page.getByRole("button", { name: "Mark as aired" }));
      expect((await aired).ok()).toBe(true);
      await page.getByText(/Aired .*The artists have been told\./).waitFor();
      const desk = { keys: m.c.keys - deskCounts.keys, clicks: m.c.clicks - deskCounts.clicks };
      console.log(
        `      review desk: ${deskCounts.keys} keys, ${deskCounts.clicks} click (3 accepts); episode desk: ${desk.keys} keys, ${desk.clicks} clicks (+ typing: number, title, link, 3 cues)`,
      );
      console.log(
        `      page loads ${m.c.loads}, route changes ${m.c.routes} (tracks, dashboard, episodes, episode 57)`,
      );
      expect(m.c.loads).toBe(0);

      // --- Telegram: one message per artist, with the times of their tracks.
      // Waits on the double's answers (the sender sends right after the aired call committed).
      const aired2 = await bot.whenDelivered((c) => String(c.body.text).includes("прозвучал"), 2);
      const airedTexts = () =>
        bot.delivered.filter((c) => String(c.body.text).includes("прозвучал")).map((c) => [
          String(c.body.chat_id),
          String(c.body.text),
        ]);
      expect(aired2).toHaveLength(2);
      const title = (u: { filename: string }) => u.filename.replace(/\.mp3$/, "").split(" - ")[1];
      const [a, b] = suggested.order.filter((id) => ofOne.some((u) => u.id === id)).map((id) =>
        ofOne.find((u) => u.id === id)!
      );
      expect(airedTexts().sort()).toEqual([
        [
          one.telegramId,
          `Ваши треки «${title(a)}» (на ${cueOf.get(a.id)}) и «${title(b)}» (на ${
            cueOf.get(b.id)
          }) прозвучали в выпуске «Подкаст Костёр #57»: ${EPISODE_URL}`,
        ],
        [
          two.telegramId,
          `Ваш трек «${title(ofTwo[0])}» прозвучал в выпуске «Подкаст Костёр #57» (на ${
            cueOf.get(ofTwo[0].id)
          }): ${EPISODE_URL}`,
        ],
      ].sort());

      // --- The artist's history at 390 px: «В эфире: Подкаст Костёр #57 · 34:10», linked.
      const artistPage = await signIn(s, two.username, PHONE);
      await artistPage.goto(`${server.baseUrl}/profile`);
      const onAir = artistPage.getByTestId("my-track-on-air");
      await onAir.waitFor();
      expect(await onAir.textContent()).toBe(`В эфире: Подкаст Костёр #57 · ${cueOf.get(ofTwo[0].id)}`);
      expect(await onAir.locator("a").getAttribute("href")).toBe(EPISODE_URL);
      await fitsWidth(artistPage);
      await t.screenshot(artistPage, "episode-artist-history-390");

      // --- The public page from the home page, at 390 and 1440 px, signed out.
      for (const viewport of [PHONE, WIDE]) {
        const visitor = await t.page(viewport);
        await visitor.goto(`${server.baseUrl}/`);
        await visitor.getByRole("navigation", { name: "Выпуски в эфире" }).getByRole("link", { name: "Подкаст Костёр" })
          .click();
        await visitor.waitForURL((u) => u.pathname === "/shows/podcast_koster");
        const episode = visitor.getByTestId("show-episode");
        await episode.waitFor();
        expect(await episode.count()).toBe(1);
        const shown = await episode.textContent();
        expect(shown).toContain("Подкаст Костёр #57 — Ночной костёр");
        for (const u of all) expect(shown).toContain(title(u));
        expect(await episode.getByRole("link", { name: "Слушать выпуск" }).getAttribute("href")).toBe(EPISODE_URL);
        await fitsWidth(visitor);
        findings.push(...await audit(visitor, `public show page @${viewport.width}`));
        await t.screenshot(visitor, `episode-public-${viewport.width}`);
      }

      // --- The episode desk at 390 px: the aired episode reads, nothing sideways.
      const phoneDesk = await signIn(s, mod.username, PHONE);
      const episodeId =
        (await apiAs(s, mod.access, "/moderator/episodes?direction=podcast_koster")).body.episodes[0].id;
      await phoneDesk.goto(`${server.baseUrl}/moderator/episodes/${episodeId}`);
      await phoneDesk.getByRole("heading", { level: 1, name: /#57/ }).waitFor();
      await phoneDesk.getByTestId("order-row").nth(2).waitFor();
      await fitsWidth(phoneDesk);
      await t.screenshot(phoneDesk, "episode-desk-390");
      findings.push(...await audit(phoneDesk, "aired episode desk @390"));
      expect(findings).toEqual([]);
    }),
  { timeout: 240_000 },
);

/**
 * Issue 23 on a phone (390×844, touch): the review desk by taps. The artist uploads three tracks of
 * this run to Костёр; the seeded moderator taps Костёр's «new» figure on the dashboard and lands on
 * the queue filtered that way: cards, not a table, and no filter fields on the first screen; one «Filters» button opens the filters as a panel and then counts them; a tap
 * on a card's Play starts the track in the compact bar at the bottom of the screen, whose −5/+5 and
 * drop work by taps; the dock's message sheet opens from the bottom; one tap shortlists and the next
 * undecided track plays, «Отклонить» and a tap on a ready-made message decline it (2 taps), «Принять» and
 * a message accept the third (2 taps), with no page load and no route change. Nothing scrolls sideways at any step (the page's and the list's scroll widths
 * equal their client widths), and axe finds no serious violation on the queue, the open filters, the
 * playing bar, the dock's sheet and the template chooser. Screenshots of them at 390 px.
 */
import { audit } from "./axe-kit.ts";
import { expect, type Page, test, type TestContext } from "./harness.ts";
import { waitAnalysed } from "./queue-kit.ts";
import { apiAs, newUser, runArtist, tokensOf, uploadAs, waitCompleted } from "./staff-kit.ts";

const PHONE = { width: 390, height: 844 };

/** A phone: touch, mobile viewport, signed in by login link; closed by the caller. */
async function phoneAs(t: TestContext, username: string) {
  const context = await t.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, locale: "ru-RU" });
  const page = await context.newPage();
  const { link } = await tokensOf(t, username);
  const me = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/me" && r.ok());
  await page.goto(link);
  await me;
  await page.waitForURL((u) => !u.searchParams.has("access_token"));
  await page.waitForFunction(() => Boolean(localStorage.getItem("accessToken")));
  await page.evaluate(() => localStorage.setItem("cookieConsent", "true"));
  return { page, close: () => context.close() };
}

/** Sideways overflow of the page and of the card list (0 when nothing scrolls sideways). */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const doc = document.documentElement;
    const list = document.querySelector("[data-testid='track-cards']");
    return {
      page: doc.scrollWidth - doc.clientWidth,
      list: list ? list.scrollWidth - list.clientWidth : -1,
      body: document.body.scrollWidth - document.body.clientWidth,
    };
  });

const cardIds = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("li[data-track-id]")].map((c) => Number(c.getAttribute("data-track-id")))
  );

test(
  "review desk at 390×844: a moderator by taps filters, plays, shortlists, declines and accepts; no sideways scroll",
  async (t) => {
    // An artist of this test alone: the same recording sent again by one artist is a duplicate (issue 25).
    const artist = await newUser(t, "Phone");
    const admin = await tokensOf(t, "admin");
    const name = runArtist("Phone");
    const uploads = await uploadAs(t, artist.access, [
      { name: `${name} - Amen Study.mp3`, source: "Test Artist - Amen Study.mp3" },
      { name: `${name} - Clipped Drop.mp3`, source: "Synth Artist - Clipped Drop.mp3" },
      { name: `${name} - Low Rate.mp3`, source: "Low Rate - 128 kbps.mp3" },
    ], "label_koster");
    const ids = uploads.map((u) => u.id);
    await waitCompleted(t, admin.access, ids);
    await waitAnalysed(t, admin.access, ids);
    const clipped = uploads[1];
    const drop = (await apiAs(t, admin.access, `/admin/tracks/${clipped.id}`)).body.track.analysis.drop_s as number;
    expect(drop).toBeGreaterThan(0);

    const { page, close } = await phoneAs(t, "moderator");
    const found: string[] = [];
    try {
      // The dashboard's queue: a tap on Костёр's «new» figure opens the list filtered that way.
      await page.goto(`${t.server.baseUrl}/moderator`);
      await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
      const queue = page.getByRole("region", { name: "Review queue" });
      await queue.waitFor();
      const newLink = queue.getByRole("link", { name: /^\d+ New \(Костёр Звукозапись\)$/ });
      expect(Number((await newLink.textContent())!.split(" ")[0])).toBeGreaterThanOrEqual(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
        .toBe(0);
      await t.screenshot(page, "review-desk-phone-dashboard-390");
      found.push(...await audit(page, "dashboard at 390"));
      await newLink.tap();
      await page.getByRole("heading", { level: 1, name: "Manage Tracks" }).waitFor();
      await page.waitForURL((u) =>
        u.pathname === "/moderator/tracks" && u.searchParams.get("direction") === "label_koster" &&
        u.searchParams.get("review") === "new" && u.searchParams.get("sort") === "upload_date"
      );
      await page.getByTestId("track-cards").waitFor();
      // The queue is cards: no table, and no filter field on the first screen, only the one button.
      expect(await page.locator("table").count()).toBe(0);
      expect(await page.getByLabel("Track name").count()).toBe(0);
      const filters = page.getByRole("button", { name: /^Filters/ });
      expect(await filters.innerText()).toBe("Filters · 2");
      const firstCard = (await page.locator("li[data-track-id]").first().boundingBox())!;
      expect(firstCard.y).toBeLessThan(PHONE.height);
      expect(await sideways(page)).toEqual({ page: 0, list: 0, body: 0 });
      await page.evaluate(() => globalThis.scrollTo(0, 0));
      await t.screenshot(page, "review-desk-phone-queue-390");
      found.push(...await audit(page, "queue at 390"));

      // Filters by taps: the panel opens, the name narrows the list to this run's three, Done closes it
      // and the button counts the filter.
      await filters.tap();
      expect(await filters.getAttribute("aria-expanded")).toBe("true");
      await page.getByLabel("Track name").tap();
      await page.getByLabel("Track name").fill(name);
      await page.waitForURL((u) => u.searchParams.get("filename") === name);
      await page.waitForFunction(() => document.querySelectorAll("li[data-track-id]").length === 3);
      expect([...await cardIds(page)].sort()).toEqual([...ids].sort());
      expect((await sideways(page)).page).toBe(0);
      await page.evaluate(() => globalThis.scrollTo(0, 0));
      await t.screenshot(page, "review-desk-phone-filters-390");
      found.push(...await audit(page, "filters panel at 390"));
      await page.getByRole("button", { name: "Done" }).tap();
      expect(await filters.getAttribute("aria-expanded")).toBe("false");
      expect(await filters.innerText()).toBe("Filters · 3");
      expect(await page.getByLabel("Track name").count()).toBe(0);

      // The card shows what a moderator judges by: title, artist, tempo, warnings, the review state.
      const card = page.locator(`li[data-track-id="${clipped.id}"]`);
      const text = await card.innerText();
      expect(text).toContain("Clipped Drop");
      expect(text).toContain(name);
      expect(text).toMatch(/\d+(\.\d)? BPM/);
      expect(text).toContain("Clipping");
      expect(text).toContain("New");

      // Open and play by a tap: the one <audio> runs, the card is marked, the compact bar sits at the
      // bottom of the screen with every control in the lower half, within thumb reach.
      await card.getByRole("button", { name: `Play: ${clipped.filename}` }).tap();
      await page.waitForFunction((id) => {
        const a = document.querySelector("audio");
        return a && !a.paused && a.currentTime > 0 &&
          document.querySelector("li[aria-current='true']")?.getAttribute("data-track-id") === String(id);
      }, clipped.id);
      const bar = page.getByRole("region", { name: "Player" });
      const box = (await bar.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height + 1);
      expect(box.height).toBeLessThan(PHONE.height * 0.4);
      for (const name of ["Play/pause", "Back 5 seconds", "Forward 5 seconds", "Jump to drop"]) {
        const b = (await bar.getByRole("button", { name }).boundingBox())!;
        expect(b.y).toBeGreaterThan(PHONE.height / 2);
        expect(b.height).toBeGreaterThanOrEqual(40);
      }
      expect(await bar.getByRole("region", { name: "Technical report" }).isVisible()).toBe(false);
      // The dock's three outcomes are in the bar too, one row of wide buttons under the controls.
      const outcomes = [];
      for (const name of ["Accept", "Shortlist", "Decline"]) {
        const b = (await bar.getByRole("button", { name, exact: true }).boundingBox())!;
        expect(b.y).toBeGreaterThan(PHONE.height / 2);
        expect(b.height).toBeGreaterThanOrEqual(44);
        outcomes.push(b);
      }
      expect(new Set(outcomes.map((b) => Math.round(b.y))).size).toBe(1);
      console.log(`  compact bar: ${Math.round(box.height)} px high, top at ${Math.round(box.y)} px`);

      await bar.getByRole("button", { name: "Jump to drop" }).tap();
      await page.waitForFunction((d) => {
        const a = document.querySelector("audio")!;
        return a.currentTime >= d - 0.5 && a.currentTime < d + 4;
      }, drop);
      const atDrop = await page.evaluate(() => document.querySelector("audio")!.currentTime);
      await bar.getByRole("button", { name: "Forward 5 seconds" }).tap();
      await page.waitForFunction((t0) => document.querySelector("audio")!.currentTime >= t0 + 4.5, atDrop);
      await bar.getByRole("button", { name: "Play/pause" }).tap();
      await page.waitForFunction(() => document.querySelector("audio")!.paused);
      expect(await sideways(page)).toEqual({ page: 0, list: 0, body: 0 });
      await t.screenshot(page, "review-desk-phone-player-390");
      // What the phone's screen shows while listening: the bar at its bottom edge.
      await page.screenshot({
        path:
          new URL("../test-artifacts/screenshots/review-desk-phone-player-390-screen.png", import.meta.url).pathname,
      });
      found.push(...await audit(page, "compact player at 390"));

      // The dock's message and note open as a sheet from the bottom (the dock's own part of issue 23).
      await bar.getByRole("button", { name: "Message and note" }).tap();
      const message = page.getByLabel("Message to the artist");
      await message.waitFor();
      const sheet = (await page.locator(".dk-sheet[data-open]").boundingBox())!;
      expect(sheet.y + sheet.height).toBeLessThanOrEqual(PHONE.height + 1);
      expect(await sideways(page)).toEqual({ page: 0, list: 0, body: 0 });
      await page.screenshot({
        path: new URL("../test-artifacts/screenshots/review-desk-phone-sheet-390-screen.png", import.meta.url).pathname,
      });
      found.push(...await audit(page, "dock sheet at 390"));
      await page.getByRole("button", { name: "Close" }).tap();
      expect(await message.isVisible()).toBe(false);

      // Decide by taps, with no page load and no route change, counting the taps: one shortlists the
      // track playing and the next undecided one starts; on that one «Отклонить» opens its ready-made
      // messages in the sheet and a tap on the first sends the decline (2 taps); the third is accepted
      // the same way. After each decision the next undecided track plays.
      const path = new URL(page.url()).pathname;
      let loads = 0;
      page.on("load", () => loads++);
      let taps = 0;
      const tap = async (l: ReturnType<Page["locator"]>) => {
        taps++;
        await l.tap();
      };
      const playingCard = () =>
        page.evaluate(() => Number(document.querySelector("li[aria-current='true']")?.getAttribute("data-track-id")));
      const waitNextPlaying = (previous: number) =>
        page.waitForFunction((prev) => {
          const a = document.querySelector("audio");
          const id = Number(document.querySelector("li[aria-current='true']")?.getAttribute("data-track-id"));
          return a && !a.paused && id !== prev && id > 0;
        }, previous);
      const decided = (filename: string, outcome: string) =>
        page.waitForFunction(
          (text) => document.querySelector(".dk-status")?.textContent?.includes(text) ?? false,
          `“${filename}”: ${outcome}`,
        );
      const nameOf = (id: number) => uploads.find((u) => u.id === id)!.filename;
      await bar.getByRole("button", { name: "Play/pause" }).tap();
      await page.waitForFunction(() => !document.querySelector("audio")!.paused);

      await tap(bar.getByRole("button", { name: "Shortlist", exact: true }));
      expect(taps).toBe(1);
      await waitNextPlaying(clipped.id);
      const second = await playingCard();
      expect(ids).toContain(second);

      taps = 0;
      await tap(bar.getByRole("button", { name: "Decline", exact: true }));
      const chooser = page.getByRole("group", { name: "Decline: ready-made message" });
      await chooser.waitFor();
      expect(await sideways(page)).toEqual({ page: 0, list: 0, body: 0 });
      await page.screenshot({
        path:
          new URL("../test-artifacts/screenshots/review-desk-phone-chooser-390-screen.png", import.meta.url).pathname,
      });
      found.push(...await audit(page, "template chooser at 390"));
      await tap(chooser.locator(".dk-template").first());
      expect(taps).toBe(2);
      // Decided: the dock names the decision (the seeded artist has no Telegram, so there is no hold to
      // count down) and the chooser is closed; the third track, the one still undecided, plays.
      await decided(nameOf(second), "declined");
      expect(await chooser.count()).toBe(0);
      await waitNextPlaying(second);
      const third = await playingCard();
      expect([...ids].sort()).toEqual([clipped.id, second, third].sort());

      taps = 0;
      await tap(bar.getByRole("button", { name: "Accept", exact: true }));
      const accept = page.getByRole("group", { name: "Accept: ready-made message" });
      await accept.waitFor();
      await tap(accept.locator(".dk-template").first());
      expect(taps).toBe(2);
      await decided(nameOf(third), "accepted");

      expect(loads).toBe(0);
      expect(new URL(page.url()).pathname).toBe(path);
      const state = async (id: number) =>
        (await apiAs(t, admin.access, `/admin/tracks/${id}`)).body.track.decisions
          .find((d: { direction: string }) => d.direction === "label_koster")?.status;
      expect(await state(clipped.id)).toBe("shortlisted");
      expect(await state(second)).toBe("declined");
      expect(await state(third)).toBe("accepted");
      // All three of «Новые» are decided: the list, read again at the page's end, may already be
      // empty (no card list, -1). A list still on screen must not scroll sideways either.
      const end = await sideways(page);
      expect({ page: end.page, body: end.body }).toEqual({ page: 0, body: 0 });
      expect(end.list).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: new URL("../test-artifacts/screenshots/review-desk-phone-decided-390-screen.png", import.meta.url)
          .pathname,
      });
    } finally {
      await close();
    }
    expect(found, found.join("\n")).toEqual([]);
  },
  { timeout: 120_000 },
);
